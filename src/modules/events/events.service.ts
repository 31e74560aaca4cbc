// The event outbox: the events module's side of core/events.ts. An event row is written in the
// transaction of the change that causes it; subscribers (the webhooks module's fan-out) run in
// that same transaction, so their rows commit with the event. Who subscribes is decided where
// deps are built (src/deps.ts), not here.
import type { Sql } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import type { EventPayload, EventPublisher, EventType } from '../../core/events.ts';
import { newId } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import * as repository from './events.repository.ts';

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

/** Runs inside the publishing transaction, for every event published. */
export type EventSubscriber = (
  tx: Sql,
  tenant: Tenant,
  event: { id: string; type: EventType; at: Date },
) => Promise<void>;

/** The outbox publisher: stores each event, then tells each subscriber, all in `tx`. */
export function eventPublisher(subscribers: readonly EventSubscriber[]): EventPublisher {
  return {
    async publish(tx, tenant, type, object, at) {
      const payload = eventPayload(tenant, type, object, at);
      await repository.insertEvent(tx, tenant, { id: payload.id, type, body: JSON.stringify(payload), createdAt: at });
      for (const subscriber of subscribers) await subscriber(tx, tenant, { id: payload.id, type, at });
      return payload;
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
  });
  return payload;
}
