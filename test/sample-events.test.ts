// Send Test's sample events carry resources shaped exactly like the real events' objects: each
// passes the API's response schema, with no field more or less and in the API's key order.
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { apiShape } from '../src/core/http/api-shape.ts';
import { Metadata } from '../src/core/http/metadata.ts';
import { BookingDetail } from '../src/modules/bookings/bookings.schemas.ts';
import { Pricing } from '../src/modules/catalog/catalog.schemas.ts';
import { Address, Customer } from '../src/modules/customers/customers.schemas.ts';
import { EVENT_TYPES } from '../src/modules/events/index.ts';
import { Invoice } from '../src/modules/invoices/invoices.schemas.ts';
import { Payment, Refund } from '../src/modules/payments/payments.schemas.ts';
import { sampleObject } from '../src/modules/webhooks/sample-events.ts';

const references = { Address, Pricing, Payment, Refund, Metadata };

function resourceSchema(type: string): TSchema {
  if (type === 'payment.refunded') return Refund;
  const resource = type.split('.')[0];
  return { customer: Customer, booking: BookingDetail, invoice: Invoice, payment: Payment }[resource as 'customer'];
}

describe('sample events', () => {
  for (const type of EVENT_TYPES) {
    it(`${type}: the object is a resource as the API returns it`, () => {
      const schema = resourceSchema(type);
      const sample = sampleObject(type);
      expect(Value.Errors(references, schema, sample)).toEqual([]);
      const asApi = apiShape(schema, Object.values(references));
      expect(JSON.stringify(asApi(sample))).toBe(JSON.stringify(sample));
    });
  }
  it('shows each state the event reports', () => {
    expect(sampleObject('booking.cancelled')).toMatchObject({
      status: 'cancelled',
      cancellation: { fee: { amount: 0 } },
    });
    expect(sampleObject('invoice.paid')).toMatchObject({ status: 'paid', balance: 0 });
    expect(sampleObject('invoice.voided')).toMatchObject({ status: 'void' });
    expect(sampleObject('payment.failed')).toMatchObject({ status: 'failed', failure: { code: 'card_declined' } });
    expect(sampleObject('payment.refunded')).toMatchObject({ object: 'refund' });
  });
});
