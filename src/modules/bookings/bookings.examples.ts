// Examples for the OpenAPI document (core/http/openapi.ts): taken from real answers of the API
// to a demo account, so each is what a client will see; a test validates them against their schemas.
import type { Examples } from '../../core/http/openapi.ts';
import { pricingExample } from '../catalog/index.ts';

// A booking as lists show it; its detail (one booking, and what create and the actions answer)
// is the same with the timeline, crew, invoices and subscription added.
const booking = {
  id: 'bk_5gXnMzvV262bIZBCrNN6xoZJ',
  metadata: { job_ref: 'JR-4471' },
  object: 'booking',
  status: 'confirmed',
  customer: {
    id: 'cust_wdIjnYijZHbVL3I28McnPkDB',
    name: 'Maria Garcia',
    email: 'maria.garcia@example.com',
  },
  service: {
    industry: 'residential-cleaning',
    configuration: {
      bedrooms: 2,
      bathrooms: 1,
      frequency: 'one-time',
    },
  },
  scheduled_at: '2026-12-02T13:00:00.000Z',
  estimated_duration: 120,
  address: {
    id: 'addr_yqwt6lPdwgTWERqz5mqQxLWN',
    street: '350 W 31st St, Apt 4B',
    city: 'New York',
    state: 'NY',
    zip: '10001',
  },
  zone_id: 'zone_V392TO08W0H4MuX57nyFOdkT',
  pricing: pricingExample,
  coupon_code: null,
  assigned_crew: ['staff_WgpP39asQ8daG8CgX0GaD381'],
  notes: 'Two cats; please keep the bedroom doors closed.',
  subscription_id: null,
  cancellation: null,
  created_at: '2026-11-24T06:11:22.696Z',
  updated_at: '2026-11-24T06:11:22.696Z',
};

export const bookingsExamples: Examples = {
  schemas: {
    Booking: booking,
    BookingDetail: {
      ...booking,
      timeline: [
        {
          status: 'confirmed',
          at: '2026-11-24T06:11:22.696Z',
          note: 'Booked',
        },
      ],
      crew: [
        {
          id: 'staff_WgpP39asQ8daG8CgX0GaD381',
          name: 'Maria Lopez',
        },
      ],
      invoices: [],
      subscription: null,
    },
  },
  requests: {
    // the request that made the booking above
    createBooking: {
      customer_id: booking.customer.id,
      ...booking.service,
      scheduled_at: booking.scheduled_at,
      address_id: booking.address.id,
      notes: booking.notes,
    },
    updateBooking: {
      notes: 'Two cats; the spare key is under the mat.',
    },
    startBooking: {},
    completeBooking: {},
    cancelBooking: {
      reason: 'The customer is travelling that week.',
      notify_customer: true,
    },
  },
};
