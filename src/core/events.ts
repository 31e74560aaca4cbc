// The event port: what a service calls to say "this happened". The events module implements
// it (the outbox row, then its subscribers, in the caller's transaction); services receive it
// through deps, so every entry point that builds deps publishes to the same listeners.
import type { SQL, Sql } from './db.ts';
import type { Tenant } from './tenant.ts';

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

const RESOURCES = new Set(EVENT_TYPES.map((type) => type.split('.')[0]));

/**
 * Whether `pattern` names events: an event type, `resource.*` (e.g. `booking.*`) or `*`. Webhook
 * subscriptions and the events list's `type` filter read patterns the same way.
 */
export function isEventPattern(pattern: string): boolean {
  if (pattern === '*' || (EVENT_TYPES as readonly string[]).includes(pattern)) return true;
  const [resource, action, ...rest] = pattern.split('.');
  return action === '*' && rest.length === 0 && resource !== undefined && RESOURCES.has(resource);
}

export interface EventPayload {
  id: string;
  type: string;
  timestamp: string;
  environment: string;
  test: boolean;
  data: { object: unknown };
}

export interface EventPublisher {
  /**
   * Records an event in `tx`, the transaction of the change that causes it, so the event
   * exists exactly when its change committed. `object` is the resource as the API returns it.
   */
  publish(
    tx: Sql,
    tenant: Tenant,
    type: EventType,
    object: unknown,
    at: Date,
    options?: PublishOptions,
  ): Promise<EventPayload>;
  /**
   * Records several events of one change, in this order, with one statement (their webhook
   * attempts included): what a change that publishes two or three events calls. `filled` is
   * the value `options.fill` computed, if any.
   */
  publishAll(
    tx: Sql,
    tenant: Tenant,
    events: readonly { type: EventType; object: unknown }[],
    at: Date,
    options?: PublishOptions,
  ): Promise<{ payloads: EventPayload[]; filled: string | null }>;
}

/** One part of the publishing statement (`name as (statement)`), which later parts may read by name. */
export interface StatementPart {
  name: string;
  statement: SQL;
}

export interface PublishOptions {
  /**
   * The change's own writes (by its module's repository), run in the same statement as the
   * events: one round trip for both. They must not read what the events write.
   */
  with?: SQL | readonly StatementPart[];
  /**
   * A text the `with` parts compute (`value`: an invoice number they take), written into the
   * stored events wherever the caller's objects hold the string `placeholder`: the events can
   * show what the statement that stores them decides.
   */
  fill?: { placeholder: string; value: SQL };
  /**
   * This is the transaction's last statement (`QueryOptions.last`): COMMIT goes out right behind
   * it, so the row locks its `with` parts take are held only while it runs and commits.
   */
  last?: boolean;
}
