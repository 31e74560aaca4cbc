// The resources carried by Send Test's sample events (`test: true`): shaped like the API's
// resources, with ids that exist nowhere.
import type { EventType } from '../events/index.ts';

const customer = {
  id: 'cust_SAMPLE000000000000000000',
  first_name: 'Jane',
  last_name: 'Doe',
  email: 'jane.doe@example.com',
  phone: '+14155550123',
  status: 'active',
  addresses: [
    {
      id: 'addr_SAMPLE000000000000000000',
      label: 'Home',
      street: '12 Main St',
      city: 'New York',
      state: 'NY',
      zip: '10001',
      is_default: true,
      access_notes: null,
      created_at: '2026-01-05T14:00:00.000Z',
    },
  ],
  stats: {
    total_bookings: 1,
    total_spent: 15120,
    last_booking_at: '2026-01-05T14:05:00.000Z',
    active_subscription: false,
  },
  preferences: { preferred_contact: 'email', marketing_opt_in: false },
  credit_balance: 0,
  metadata: { crm_id: '4711' },
  created_at: '2026-01-05T14:00:00.000Z',
  updated_at: '2026-01-05T14:00:00.000Z',
};

const booking = {
  id: 'bk_SAMPLE000000000000000000',
  object: 'booking',
  status: 'confirmed',
  customer: { id: customer.id, name: 'Jane Doe', email: customer.email },
  service: {
    industry: 'residential-cleaning',
    configuration: { bedrooms: 2, bathrooms: 1, frequency: 'one-time', extras: ['extra_SAMPLE000000000000000000'] },
  },
  scheduled_at: '2026-01-12T14:00:00.000Z',
  estimated_duration: 150,
  address: { id: 'addr_SAMPLE000000000000000000', street: '12 Main St', city: 'New York', state: 'NY', zip: '10001' },
  zone_id: 'zone_SAMPLE000000000000000000',
  pricing: {
    industry: 'residential-cleaning',
    zone: { id: 'zone_SAMPLE000000000000000000', name: 'Manhattan' },
    currency: 'usd',
    base_price: 12500,
    zone_adjustment: 1250,
    extras: [
      { id: 'extra_SAMPLE000000000000000000', name: 'Inside the oven', quantity: 1, unit_price: 3000, total: 3000 },
    ],
    extras_total: 3000,
    subtotal: 16750,
    discounts: [],
    discount: 0,
    tax_rate: 8.875,
    tax: 1487,
    total: 18237,
    estimated_duration: 150,
  },
  coupon_code: null,
  assigned_crew: ['staff_SAMPLE000000000000000000'],
  notes: null,
  metadata: {},
  subscription_id: null,
  cancellation: null,
  created_at: '2026-01-05T14:05:00.000Z',
  updated_at: '2026-01-05T14:05:00.000Z',
  timeline: [{ status: 'confirmed', at: '2026-01-05T14:05:00.000Z', note: 'Booked' }],
  crew: [{ id: 'staff_SAMPLE000000000000000000', name: 'Maria Lopez' }],
  invoices: [],
  subscription: null,
};

const invoice = {
  id: 'inv_SAMPLE000000000000000000',
  object: 'invoice',
  number: 'INV-000001',
  status: 'pending',
  customer: { id: customer.id, name: 'Jane Doe', email: customer.email },
  booking_id: booking.id,
  currency: 'usd',
  line_items: [
    { description: 'Residential cleaning: 2 bedrooms, 1 bathroom', quantity: 1, unit_price: 13750, total: 13750 },
    { description: 'Inside the oven', quantity: 1, unit_price: 3000, total: 3000 },
  ],
  subtotal: 16750,
  discount: 0,
  discount_description: null,
  tax_rate: 8.875,
  tax: 1487,
  total: 18237,
  amount_paid: 0,
  amount_refunded: 0,
  balance: 18237,
  due_date: '2026-01-26',
  issued_at: '2026-01-12T16:30:00.000Z',
  paid_at: null,
  voided_at: null,
  void_reason: null,
  payment_method: null,
  last_payment_error: null,
  payments: [],
  refunds: [],
  metadata: {},
  created_at: '2026-01-12T16:30:00.000Z',
  updated_at: '2026-01-12T16:30:00.000Z',
};

const payment = {
  id: 'pay_SAMPLE000000000000000000',
  object: 'payment',
  invoice_id: invoice.id,
  amount: 18237,
  status: 'succeeded',
  payment_method_id: 'pm_SAMPLE000000000000000000',
  payment_method: { type: 'card', brand: 'visa', last4: '4242' },
  failure: null,
  amount_refunded: 0,
  created_at: '2026-01-12T16:31:00.000Z',
};

const refund = {
  id: 're_SAMPLE000000000000000000',
  object: 'refund',
  invoice_id: invoice.id,
  amount: 5000,
  reason: 'Oven not cleaned',
  refund_to: 'original_payment_method',
  status: 'succeeded',
  created_at: '2026-01-13T09:00:00.000Z',
};

/**
 * The sample resource for an event type, in the state the event reports, shaped exactly like
 * the real event's object (a test holds each to the API's response schema).
 */
export function sampleObject(type: EventType): unknown {
  const [resource, action] = type.split('.') as [string, string];
  switch (resource) {
    case 'customer':
      return action === 'deactivated' ? { ...customer, status: 'deactivated' } : customer;
    case 'booking': {
      const status = { started: 'in_progress', completed: 'completed', cancelled: 'cancelled' }[action];
      const startedAt = '2026-01-12T14:02:00.000Z';
      const started = { status: 'in_progress', at: startedAt, note: 'Started' };
      if (status === 'in_progress') {
        return { ...booking, status, updated_at: startedAt, timeline: [...booking.timeline, started] };
      }
      if (status === 'completed') {
        const completedAt = '2026-01-12T16:30:00.000Z';
        return {
          ...booking,
          status,
          updated_at: completedAt,
          timeline: [...booking.timeline, started, { status, at: completedAt, note: 'Completed' }],
          invoices: [{ id: invoice.id, number: invoice.number, status: 'paid', total: invoice.total }],
        };
      }
      if (status !== 'cancelled') return booking;
      const cancelledAt = '2026-01-11T09:00:00.000Z';
      return {
        ...booking,
        status,
        cancellation: {
          reason: 'Customer is travelling',
          cancelled_at: cancelledAt,
          notify_customer: true,
          fee: { amount: 0, policy: 'free_cancellation', invoice_id: null },
        },
        timeline: [...booking.timeline, { status, at: cancelledAt, note: 'Cancelled: Customer is travelling' }],
      };
    }
    case 'invoice': {
      const status = { paid: 'paid', overdue: 'overdue', voided: 'void' }[action];
      if (status === 'paid') {
        return {
          ...invoice,
          status,
          amount_paid: invoice.total,
          balance: 0,
          paid_at: payment.created_at,
          payment_method: payment.payment_method,
          payments: [payment],
        };
      }
      if (status === 'void')
        return { ...invoice, status, voided_at: '2026-01-12T17:00:00.000Z', void_reason: 'Duplicate' };
      return status ? { ...invoice, status } : invoice;
    }
    default:
      if (action === 'refunded') return refund;
      return action === 'failed'
        ? { ...payment, status: 'failed', failure: { code: 'card_declined', message: 'The card was declined.' } }
        : payment;
  }
}
