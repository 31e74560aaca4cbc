// The event outbox: the events module's side of core/events.ts. An event row is written in the
// transaction of the change that causes it; subscribers (the webhooks module's fan-out) run in
// that same transaction, so their rows commit with the event. Who subscribes is decided where
// deps are built (src/deps.ts), not here.
import { periodStart } from '../../core/dates.ts';
import type { SQL } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import { found, invalidParameter } from '../../core/errors.ts';
import { type EventPayload, type EventPublisher, type EventType, isEventPattern } from '../../core/events.ts';
import { newId } from '../../core/ids.ts';
import { type Page, pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import * as repository from './events.repository.ts';
import type { EventListQuery, EventView } from './events.schemas.ts';

export function eventPayload(
  tenant: Tenant,
  type: string,
  object: unknown,
  at: Date,
  options: { id?: string; test?: boolean } = {},
): EventPayload {
  return {
    id: options.id ?? newId('event'),
    type,
    timestamp: at.toISOString(),
    environment: tenant.environment,
    test: options.test ?? false,
    data: { object },
  };
}

export interface PublishedEvent {
  id: string;
  type: EventType;
  at: Date;
}

/**
 * Told of every event published, inside the publishing transaction. Its rows are written by
 * the very statement that stores the events (`rows`: an `insert … returning …`, all of them:
 * that statement may be the transaction's last), so publishing costs one round trip whoever
 * subscribes.
 */
export interface EventSubscriber {
  rows(tenant: Tenant, events: readonly PublishedEvent[]): SQL;
}

/** The outbox publisher: stores the events and their subscribers' rows in `tx`, in one statement. */
export function eventPublisher(subscribers: readonly EventSubscriber[]): EventPublisher {
  const publishAll: EventPublisher['publishAll'] = async (tx, tenant, events, at, options = {}) => {
    const payloads = events.map(({ type, object }) => eventPayload(tenant, type, object, at));
    const published = events.map(({ type }, i) => ({ id: (payloads[i] as EventPayload).id, type, at }));
    const own = options.with;
    const { filled } = await repository.insertEvents(
      tx,
      tenant,
      payloads.map((payload) => ({ id: payload.id, type: payload.type, body: JSON.stringify(payload), createdAt: at })),
      subscribers.map((subscriber) => subscriber.rows(tenant, published)),
      own === undefined ? [] : Array.isArray(own) ? own : [{ name: 'own', statement: own as SQL }],
      { fill: options.fill, last: options.last },
    );
    return { payloads, filled };
  };
  return {
    publishAll,
    async publish(tx, tenant, type, object, at, options) {
      const { payloads } = await publishAll(tx, tenant, [{ type, object }], at, options);
      return payloads[0] as EventPayload;
    },
  };
}

/** A sample event (`test: true`) for one webhook's Send Test: stored, but published to no one. */
export async function recordSampleEvent(
  deps: Deps,
  tenant: Tenant,
  sample: { type: EventType; object: unknown },
): Promise<EventPayload> {
  const at = deps.clock.now();
  const payload = eventPayload(tenant, sample.type, sample.object, at, { test: true });
  await repository.insertEvent(deps.db, tenant, {
    id: payload.id,
    type: sample.type,
    body: JSON.stringify(payload),
    createdAt: at,
    sample: true,
  });
  return payload;
}

/** How long GET /v1/events shows an event (CONTRACT §13); older rows stay for their deliveries. */
export const EVENT_RETENTION_DAYS = 30;

function keptSince(deps: Deps): Date {
  return new Date(deps.clock.now().getTime() - EVENT_RETENTION_DAYS * 86_400_000);
}

/** The event as delivered: its stored text, so keys keep the order webhooks sent them in. */
function eventView(row: repository.EventRow): EventView {
  return JSON.parse(row.body) as EventView;
}

function typeFilter(type: string | undefined): repository.EventFilters['type'] {
  if (type === undefined || type === '*') return undefined;
  if (!isEventPattern(type)) {
    throw invalidParameter('type', `Unknown event type '${type}'. Use a type such as booking.created, booking.* or *.`);
  }
  return type.endsWith('.*') ? { prefix: type.slice(0, -1) } : { exact: type };
}

export async function listEvents(deps: Deps, tenant: Tenant, query: EventListQuery): Promise<Page<EventView>> {
  const page = pageRequest(query);
  const filters: repository.EventFilters = {
    keptSince: keptSince(deps),
    type: typeFilter(query.type),
    createdAfter: periodStart(query.created_after),
    createdBefore: periodStart(query.created_before),
    ids: parseIds(query.ids, 'evt'),
  };
  return pageOf(page, await repository.listEvents(deps.db, tenant, filters, page), eventView);
}

/** One event of the retention window; 404 for an older, missing or foreign one. */
export async function getEvent(deps: Deps, tenant: Tenant, id: string): Promise<EventView> {
  return eventView(found(await repository.findEvent(deps.db, tenant, id, keptSince(deps)), 'event', id));
}
