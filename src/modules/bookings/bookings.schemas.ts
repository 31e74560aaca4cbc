import { type Static, Type } from 'typebox';
import { MetadataBody } from '../../core/http/metadata.ts';
import { customerListQueries, ListOf } from '../../core/http/pagination.ts';
import { Nullable, Strict, Timestamp, TimestampOrDate } from '../../core/http/schemas.ts';
import { ServiceConfiguration } from '../catalog/index.ts';

export const BookingStatus = Type.Enum(['confirmed', 'in_progress', 'completed', 'cancelled']);
export type BookingStatus = Static<typeof BookingStatus>;

const CancellationFee = Type.Object({
  amount: Type.Integer({ description: 'Cents; 0 when free.' }),
  policy: Type.Enum(['free_cancellation', 'late_cancellation', 'in_progress']),
  invoice_id: Nullable(Type.String({ description: 'The pending invoice for a fee above 0.' })),
});

const BookingFields = {
  id: Type.String({ description: 'Prefix bk_.' }),
  object: Type.Literal('booking'),
  status: BookingStatus,
  customer: Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }),
  service: Type.Object({
    industry: Type.String({ description: 'Industry slug.' }),
    configuration: ServiceConfiguration,
  }),
  scheduled_at: Timestamp,
  estimated_duration: Type.Integer({ description: 'Minutes.' }),
  address: Type.Object({
    id: Type.String(),
    street: Type.String(),
    city: Type.String(),
    state: Type.String(),
    zip: Type.String(),
  }),
  zone_id: Nullable(Type.String()),
  pricing: Type.Ref('Pricing'),
  coupon_code: Nullable(Type.String()),
  assigned_crew: Type.Array(Type.String({ description: 'Staff ids (prefix staff_).' })),
  notes: Nullable(Type.String()),
  metadata: Type.Ref('Metadata'),
  subscription_id: Nullable(Type.String({ description: 'The recurring service this occurrence belongs to.' })),
  cancellation: Nullable(
    Type.Object({
      reason: Nullable(Type.String()),
      cancelled_at: Timestamp,
      notify_customer: Type.Boolean(),
      fee: CancellationFee,
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Booking = Type.Object(BookingFields, { $id: 'Booking', title: 'Booking' });
export type BookingView = Static<typeof Booking>;

export const BookingDetail = Type.Object(
  {
    ...BookingFields,
    timeline: Type.Array(Type.Object({ status: BookingStatus, at: Timestamp, note: Type.String() })),
    crew: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
    invoices: Type.Array(
      Type.Object({
        id: Type.String(),
        number: Nullable(Type.String()),
        status: Type.String(),
        total: Type.Integer(),
      }),
    ),
    subscription: Nullable(
      Type.Object({
        id: Type.String(),
        frequency: Type.Enum(['weekly', 'bi-weekly', 'monthly']),
        status: Type.Enum(['active', 'needs_attention', 'cancelled']),
      }),
    ),
  },
  { $id: 'BookingDetail', title: 'BookingDetail' },
);
export type BookingDetailView = Static<typeof BookingDetail>;

export const NewBookingBody = Strict({
  customer_id: Type.String({ maxLength: 64 }),
  industry: Type.String({ minLength: 1, maxLength: 100, description: 'Industry slug.' }),
  configuration: ServiceConfiguration,
  scheduled_at: Type.String({
    format: 'date-time',
    description: 'A slot start offered by availability (its `starts_at`).',
  }),
  address_id: Type.String({ maxLength: 64, description: "One of the customer's addresses." }),
  notes: Type.Optional(Type.String({ maxLength: 5000 })),
  coupon_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  metadata: MetadataBody,
});
export type NewBookingBody = Static<typeof NewBookingBody>;

export const UpdateBookingBody = Strict({
  scheduled_at: Type.Optional(Type.String({ format: 'date-time' })),
  configuration: Type.Optional(ServiceConfiguration),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
  address_id: Type.Optional(Type.String({ maxLength: 64 })),
  metadata: MetadataBody,
});
export type UpdateBookingBody = Static<typeof UpdateBookingBody>;

export const CancelBookingBody = Strict({
  reason: Type.Optional(Type.String({ maxLength: 1000 })),
  notify_customer: Type.Optional(Type.Boolean({ description: 'E-mail the customer (default false).' })),
});
export type CancelBookingBody = Static<typeof CancelBookingBody>;

export const BookingSort = Type.Enum(['scheduled_at', '-scheduled_at', 'created_at', '-created_at'], {
  default: '-created_at',
});

const bookingQueries = customerListQueries({
  status: Type.Optional(BookingStatus),
  zone_id: Type.Optional(Type.String({ maxLength: 64 })),
  date_from: Type.Optional(TimestampOrDate),
  date_to: Type.Optional(TimestampOrDate),
  sort: BookingSort,
});

export const BookingListQuery = bookingQueries.all;
export type BookingListQuery = Static<typeof BookingListQuery>;

export const CustomerBookingListQuery = bookingQueries.ofCustomer;
export type CustomerBookingListQuery = Static<typeof CustomerBookingListQuery>;

export const BookingList = ListOf(Type.Ref('Booking'));
