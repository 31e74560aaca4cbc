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
  created_at: '2026-01-05T14:00:00.000Z',
  updated_at: '2026-01-05T14:00:00.000Z',
};

const booking = {
  id: 'bk_SAMPLE000000000000000000',
  status: 'confirmed',
  customer: { id: customer.id, name: 'Jane Doe', email: customer.email },
  service: {
    industry: 'residential-cleaning',
    configuration: { bedrooms: 2, bathrooms: 1, frequency: 'one-time', extras: [] },
  },
  scheduled_at: '2026-01-12T14:00:00.000Z',
  estimated_duration: 150,
  address: { street: '12 Main St', city: 'New York', state: 'NY', zip: '10001' },
  pricing: { subtotal: 14000, tax: 1120, discount: 0, total: 15120 },
  assigned_crew: ['staff_SAMPLE000000000000000000'],
  created_at: '2026-01-05T14:05:00.000Z',
  updated_at: '2026-01-05T14:05:00.000Z',
};

const invoice = {
  id: 'inv_SAMPLE000000000000000000',
  number: 'INV-000001',
  status: 'pending',
  customer: { id: customer.id, name: 'Jane Doe' },
  booking_id: booking.id,
  line_items: [
    { description: 'Residential cleaning, 2 bedrooms, 1 bathroom', quantity: 1, unit_price: 14000, total: 14000 },
  ],
  subtotal: 14000,
  discount: 0,
  discount_description: null,
  tax: 1120,
  total: 15120,
  amount_paid: 0,
  balance: 15120,
  issued_at: '2026-01-12T16:30:00.000Z',
  paid_at: null,
  payment_method: null,
};

const payment = {
  id: 'pay_SAMPLE000000000000000000',
  object: 'payment',
  invoice_id: invoice.id,
  customer_id: customer.id,
  amount: 15120,
  status: 'succeeded',
  payment_method: { type: 'card', brand: 'visa', last4: '4242' },
  created_at: '2026-01-12T16:31:00.000Z',
};

/** The sample resource for an event type, adjusted to look like the state the event reports. */
export function sampleObject(type: EventType): unknown {
  const [resource, action] = type.split('.') as [string, string];
  switch (resource) {
    case 'customer':
      return action === 'deactivated' ? { ...customer, status: 'deactivated' } : customer;
    case 'booking': {
      const status = { started: 'in_progress', completed: 'completed', cancelled: 'cancelled' }[action];
      return status ? { ...booking, status } : booking;
    }
    case 'invoice': {
      const status = { paid: 'paid', overdue: 'overdue', voided: 'void' }[action];
      return status === 'paid'
        ? { ...invoice, status, amount_paid: invoice.total, balance: 0, paid_at: '2026-01-12T16:31:00.000Z' }
        : status
          ? { ...invoice, status }
          : invoice;
    }
    default: {
      const status = { failed: 'failed', refunded: 'refunded' }[action];
      return status ? { ...payment, status } : payment;
    }
  }
}
