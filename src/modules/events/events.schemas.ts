import { type Static, Type } from 'typebox';
import { ListOf, ListQuery } from '../../core/http/pagination.ts';
import { Timestamp, TimestampOrDate } from '../../core/http/schemas.ts';

/** An event as its webhook deliveries carried it (CONTRACT §8), kept 30 days. */
export const Event = Type.Object(
  {
    id: Type.String({ description: 'Prefix evt_; the webhook-id header of its deliveries.' }),
    type: Type.String({ description: 'e.g. booking.created.' }),
    timestamp: Timestamp,
    environment: Type.Enum(['test', 'live']),
    test: Type.Boolean({ description: 'Always false here: Send Test samples are not listed.' }),
    data: Type.Object({
      object: Type.Unknown({ description: 'The resource as the API returned it when the event happened.' }),
    }),
  },
  { $id: 'Event', title: 'Event' },
);
export type EventView = Static<typeof Event>;

export const EventListQuery = Type.Object({
  ...ListQuery,
  type: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'An event type (`invoice.paid`), `resource.*` (`booking.*`) or `*`.',
    }),
  ),
  created_after: Type.Optional(TimestampOrDate),
  created_before: Type.Optional(TimestampOrDate),
});
export type EventListQuery = Static<typeof EventListQuery>;

export const EventList = ListOf(Type.Ref('Event'));
