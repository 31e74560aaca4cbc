// The event outbox. A module publishes inside the transaction of the change that causes the
// event, so an event exists exactly when its change committed.
import type { Sql } from '../../core/db.ts';
import { newId } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import * as repository from './events.repository.ts';

export const EVENT_TYPES = [
  'booking.created',
  'booking.updated',
  'booking.rescheduled',
  'booking.started',
  'booking.completed',
  'booking.cancelled',
  'customer.created',
  'customer.updated',
  'customer.deactivated',
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.overdue',
  'invoice.voided',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface EventPayload {
  id: string;
  type: string;
  timestamp: string;
  environment: string;
  test: boolean;
  data: { object: unknown };
}

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

/**
 * Runs inside the publishing transaction, for every event published. The webhooks module
 * subscribes at app build (and the CLI at start), so its delivery rows commit with the event:
 * this module never needs to know who listens.
 */
export type EventSubscriber = (
  tx: Sql,
  tenant: Tenant,
  event: { id: string; type: EventType; at: Date },
) => Promise<void>;

const subscribers = new Set<EventSubscriber>();

export function subscribeToEvents(subscriber: EventSubscriber): void {
  subscribers.add(subscriber);
}

/** Records an event in the caller's transaction. `object` is the resource as the API returns it. */
export async function publishEvent(
  tx: Sql,
  tenant: Tenant,
  type: EventType,
  object: unknown,
  at: Date,
): Promise<EventPayload> {
  const payload = eventPayload(tenant, type, object, at);
  await repository.insertEvent(tx, tenant, { id: payload.id, type, body: JSON.stringify(payload), createdAt: at });
  for (const subscriber of subscribers) await subscriber(tx, tenant, { id: payload.id, type, at });
  return payload;
}

/** A sample event (`test: true`) for one webhook's Send Test: stored, but published to no one. */
export async function recordSampleEvent(
  tx: Sql,
  tenant: Tenant,
  type: EventType,
  object: unknown,
  at: Date,
): Promise<EventPayload> {
  const payload = eventPayload(tenant, type, object, at, { test: true });
  await repository.insertEvent(tx, tenant, { id: payload.id, type, body: JSON.stringify(payload), createdAt: at });
  return payload;
}
