import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { emptyBodyIsEmptyObject } from '../../core/http/empty-body.ts';
import { sendList } from '../../core/http/pagination.ts';
import { CommonErrors, errors, IdParams } from '../../core/http/schemas.ts';
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

const tags = ['Bookings'];

const LIST_DESCRIPTION =
  'Newest first by default; `sort` is scheduled_at, -scheduled_at, created_at or -created_at. ' +
  '`date_from`/`date_to` filter on scheduled_at (a plain date is a whole UTC day, date_to inclusive).';

export function bookingRoutes(app: FastifyInstance, deps: Deps) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Booking);
  app.addSchema(BookingDetail);
  const detail = { 200: Type.Ref('BookingDetail') };

  api.get(
    '/v1/bookings',
    {
      config: { scope: 'bookings:read' },
      schema: {
        tags,
        summary: 'List bookings',
        description: LIST_DESCRIPTION,
        querystring: BookingListQuery,
        response: { 200: BookingList, ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      const list = await bookings.listBookings(deps, tenantOf(request), request.query);
      return sendList(reply, list, request.query.fields);
    },
  );

  api.post(
    '/v1/bookings',
    {
      config: { scope: 'bookings:write' },
      schema: {
        tags,
        summary: 'Create a booking',
        description:
          "Required: customer_id, industry, configuration, scheduled_at, address_id (one of the customer's). " +
          "scheduled_at must be a slot availability offers for the booking's estimated duration, else 409 slot_unavailable. " +
          'Priced exactly as POST /v1/services/pricing; a crew member is assigned. Starts confirmed. ' +
          'A weekly, bi-weekly or monthly frequency starts a subscription. Deactivated customer: 409 customer_deactivated.',
        body: NewBookingBody,
        response: { 201: Type.Ref('BookingDetail'), ...errors(...CommonErrors, 409) },
      },
    },
    async (request, reply) => {
      const booking = await bookings.createBooking(deps, tenantOf(request), request.body);
      return reply.code(201).send(booking);
    },
  );

  api.get(
    '/v1/bookings/:id',
    {
      config: { scope: 'bookings:read' },
      schema: {
        tags,
        summary: 'Retrieve a booking',
        description: 'With its status timeline, crew details, invoice references and subscription.',
        params: IdParams('id'),
        response: { ...detail, ...errors(...CommonErrors) },
      },
    },
    async (request) => bookings.getBooking(deps, tenantOf(request), request.params.id),
  );

  api.patch(
    '/v1/bookings/:id',
    {
      config: { scope: 'bookings:write' },
      schema: {
        tags,
        summary: 'Update a booking',
        description:
          'Confirmed bookings only (else 409 invalid_state_transition); status never changes here. ' +
          'A new scheduled_at, configuration or address re-checks availability (409 slot_unavailable), keeps the crew ' +
          'when free and frees the old time; configuration and address re-price. Sends booking.rescheduled when the ' +
          'time moved, else booking.updated.',
        params: IdParams('id'),
        body: UpdateBookingBody,
        response: { ...detail, ...errors(...CommonErrors, 409) },
      },
    },
    async (request) => bookings.updateBooking(deps, tenantOf(request), request.params.id, request.body),
  );

  api.post(
    '/v1/bookings/:id/start',
    {
      config: { scope: 'bookings:write' },
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        tags,
        summary: 'Start a booking',
        description: 'confirmed -> in_progress; any other status: 409 invalid_state_transition.',
        params: IdParams('id'),
        body: Type.Object({}, { additionalProperties: false }),
        response: { ...detail, ...errors(...CommonErrors, 409) },
      },
    },
    async (request) => startBooking(deps, tenantOf(request), request.params.id),
  );

  api.post(
    '/v1/bookings/:id/complete',
    {
      config: { scope: 'bookings:write' },
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        tags,
        summary: 'Complete a booking',
        description:
          "confirmed or in_progress -> completed. Issues the booking's invoice from its pricing and charges the " +
          "customer's default card when there is one (a decline leaves the invoice pending). A recurring booking's " +
          'next occurrence is booked. Other statuses: 409 invalid_state_transition.',
        params: IdParams('id'),
        body: Type.Object({}, { additionalProperties: false }),
        response: { ...detail, ...errors(...CommonErrors, 409) },
      },
    },
    async (request) => completeBooking(deps, tenantOf(request), request.params.id),
  );

  api.post(
    '/v1/bookings/:id/cancel',
    {
      config: { scope: 'bookings:write' },
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        tags,
        summary: 'Cancel a booking',
        description:
          "confirmed or in_progress -> cancelled; the crew's time is freed. The fee follows the cancellation policy " +
          '(demo: free 24 h or more ahead, else 50 % of the total, 100 % once in progress) and is shown in ' +
          '`cancellation.fee`; a fee above 0 creates a pending invoice. `notify_customer` e-mails the customer.',
        params: IdParams('id'),
        body: CancelBookingBody,
        response: { ...detail, ...errors(...CommonErrors, 409) },
      },
    },
    async (request) => cancelBooking(deps, tenantOf(request), request.params.id, request.body),
  );

  api.get(
    '/v1/customers/:id/bookings',
    {
      config: { scope: 'bookings:read' },
      schema: {
        tags,
        summary: "List a customer's bookings",
        description: `The same filters as the booking list. ${LIST_DESCRIPTION}`,
        params: IdParams('id'),
        querystring: CustomerBookingListQuery,
        response: { 200: BookingList, ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      const list = await bookings.listCustomerBookings(deps, tenantOf(request), request.params.id, request.query);
      return sendList(reply, list, request.query.fields);
    },
  );
}
