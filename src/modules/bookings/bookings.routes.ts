import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { created, ok } from '../../core/http/operation.ts';
import { routesOf } from '../../core/http/routes.ts';
import { bookingsExamples } from './bookings.examples.ts';
import {
  Booking,
  BookingDetail,
  BookingList,
  BookingListQuery,
  CancelBookingBody,
  CustomerBookingListQuery,
  NewBookingBody,
  UpdateBookingBody,
} from './bookings.schemas.ts';
import * as bookings from './bookings.service.ts';
import { cancelBooking, completeBooking, startBooking } from './lifecycle.service.ts';

const LIST_DESCRIPTION =
  'Newest first by default; `sort` is scheduled_at, -scheduled_at, created_at or -created_at. ' +
  '`date_from`/`date_to` filter on scheduled_at (a plain date is a whole UTC day, date_to inclusive). ' +
  '`metadata[key]=value` keeps bookings whose metadata holds that pair.';

export function bookingRoutes(app: FastifyInstance, deps: Deps) {
  const route = routesOf(app, deps, {
    tags: ['Bookings'],
    examples: bookingsExamples,
    schemas: [Booking, BookingDetail],
  });
  const detail = Type.Ref('BookingDetail');

  route('GET /v1/bookings', 'bookings:read', {
    operationId: 'listBookings',
    summary: 'List bookings',
    description: LIST_DESCRIPTION,
    list: BookingListQuery,
    response: ok(BookingList),
    run: bookings.listBookingsJson,
  });

  route('POST /v1/bookings', 'bookings:write', {
    operationId: 'createBooking',
    summary: 'Create a booking',
    'x-error-codes': ['slot_unavailable', 'customer_deactivated', 'invalid_coupon'],
    description:
      "Required: customer_id, industry, configuration, scheduled_at, address_id (one of the customer's). " +
      "scheduled_at must be a slot availability offers for the booking's estimated duration, else 409 slot_unavailable. " +
      'Priced exactly as POST /v1/services/pricing; a crew member is assigned. Starts confirmed. ' +
      'A weekly, bi-weekly or monthly frequency starts a subscription. Deactivated customer: 409 customer_deactivated.',
    body: NewBookingBody,
    response: created(detail, 409),
    run: bookings.createBooking,
  });

  route('GET /v1/bookings/:id', 'bookings:read', {
    operationId: 'retrieveBooking',
    summary: 'Retrieve a booking',
    description: 'With its status timeline, crew details, invoice references and subscription.',
    response: ok(detail),
    run: bookings.getBooking,
  });

  route('PATCH /v1/bookings/:id', 'bookings:write', {
    operationId: 'updateBooking',
    summary: 'Update a booking',
    'x-error-codes': ['slot_unavailable', 'invalid_state_transition'],
    description:
      'Confirmed bookings only (else 409 invalid_state_transition); status never changes here. ' +
      'A new scheduled_at, configuration or address re-checks availability (409 slot_unavailable), keeps the crew ' +
      'when free and frees the old time; configuration and address re-price. Sends booking.rescheduled when the ' +
      'time moved, else booking.updated. `metadata` merges key by key (an empty string deletes a key); a body ' +
      'with only `metadata` may change a booking in any status.',
    body: UpdateBookingBody,
    response: ok(detail, 409),
    run: bookings.updateBooking,
  });

  route('POST /v1/bookings/:id/start', 'bookings:write', {
    operationId: 'startBooking',
    summary: 'Start a booking',
    'x-error-codes': ['invalid_state_transition'],
    description: 'confirmed -> in_progress; any other status: 409 invalid_state_transition.',
    body: Type.Object({}, { additionalProperties: false }),
    optionalBody: true,
    response: ok(detail, 409),
    run: startBooking,
  });

  route('POST /v1/bookings/:id/complete', 'bookings:write', {
    operationId: 'completeBooking',
    summary: 'Complete a booking',
    'x-error-codes': ['invalid_state_transition'],
    description:
      "confirmed or in_progress -> completed. Issues the booking's invoice from its pricing and charges the " +
      "customer's default card when there is one (a decline leaves the invoice pending). A recurring booking's " +
      'next occurrence is booked. Other statuses: 409 invalid_state_transition.',
    body: Type.Object({}, { additionalProperties: false }),
    optionalBody: true,
    response: ok(detail, 409),
    run: completeBooking,
  });

  route('POST /v1/bookings/:id/cancel', 'bookings:write', {
    operationId: 'cancelBooking',
    summary: 'Cancel a booking',
    'x-error-codes': ['invalid_state_transition'],
    description:
      "confirmed or in_progress -> cancelled; the crew's time is freed. The fee follows the cancellation policy " +
      '(demo: free 24 h or more ahead, else 50 % of the total, 100 % once in progress) and is shown in ' +
      '`cancellation.fee`; a fee above 0 creates a pending invoice. `notify_customer` e-mails the customer.',
    body: CancelBookingBody,
    optionalBody: true,
    response: ok(detail, 409),
    run: cancelBooking,
  });

  route('GET /v1/customers/:id/bookings', 'bookings:read', {
    operationId: 'listCustomerBookings',
    summary: "List a customer's bookings",
    description: `The same filters as the booking list. ${LIST_DESCRIPTION}`,
    list: CustomerBookingListQuery,
    response: ok(BookingList),
    run: bookings.listCustomerBookings,
  });
}
