import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { inTransaction } from '../src/core/deps.ts';
import {
  createBookingInvoice,
  createCancellationFeeInvoice,
  invoiceTotals,
  taxOn,
} from '../src/modules/invoices/index.ts';
import { taxRateUnits } from '../src/modules/invoices/totals.ts';
import { startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { addCard, CARDS, customerStats, eventsOf, newCustomer } from './helpers/billing.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ workers: false }));
  return t.close;
});

const pricing = {
  lineItems: [
    { description: 'Residential cleaning: 2 bedrooms, 1 bathroom', quantity: 1, unit_price: 15000 },
    { description: 'Inside oven', quantity: 1, unit_price: 3000 },
  ],
  subtotal: 18000,
  discount: 2700,
  discountDescription: 'Bi-weekly 15%',
  taxRate: 8.875,
  tax: 1358,
  total: 16658,
};

describe('invoices from bookings', () => {
  it("issues the booking's invoice with its pricing as given and charges the default card", async () => {
    const customer = await newCustomer(acct.api);
    await addCard(acct.api, customer.id, CARDS.visa);
    const { invoice, declined } = await inTransaction(t.app.deps, async (deps) => {
      // stands for the booking completion's own writes in the same transaction
      return createBookingInvoice(deps, acct.tenant(), {
        bookingId: 'bk_test1',
        customerId: customer.id,
        ...pricing,
      });
    });
    expect(declined).toBeNull();
    expect(invoice).toMatchObject({
      booking_id: 'bk_test1',
      status: 'paid',
      subtotal: 18000,
      discount: 2700,
      discount_description: 'Bi-weekly 15%',
      tax: 1358,
      total: 16658,
      amount_paid: 16658,
      payment_method: { type: 'card', brand: 'visa', last4: '4242' },
    });
    expect(invoice.number).toMatch(/^INV-\d{6}$/);
    expect((await acct.api.get(`/v1/invoices/${invoice.id}`)).body).toEqual(invoice);
    expect(await customerStats(t, customer.id)).toMatchObject({ total_spent: 16658 });
  });

  it('a declined card leaves the invoice pending with the failure, and the booking transaction commits', async () => {
    const customer = await newCustomer(acct.api);
    await addCard(acct.api, customer.id, CARDS.insufficientFunds);
    const result = await inTransaction(t.app.deps, async (deps) => {
      const issued = await createBookingInvoice(deps, acct.tenant(), {
        bookingId: 'bk_test2',
        customerId: customer.id,
        ...pricing,
      });
      await query(deps.db, sql`select 1`); // the booking's remaining work goes on
      return issued;
    });
    expect(result.declined).toMatchObject({ code: 'insufficient_funds' });
    const stored = (await acct.api.get(`/v1/invoices/${result.invoice.id}`)).body;
    expect(stored).toMatchObject({ status: 'pending', last_payment_error: { code: 'insufficient_funds' } });
  });

  it('without a card the invoice is simply pending; with tax omitted it is computed from the rate', async () => {
    const customer = await newCustomer(acct.api);
    const { invoice } = await inTransaction(t.app.deps, (deps) =>
      createBookingInvoice(deps, acct.tenant(), {
        ...pricing,
        tax: undefined,
        bookingId: 'bk_test3',
        customerId: customer.id,
      }),
    );
    expect(invoice).toMatchObject({ status: 'pending', tax: 1358, payments: [] });
  });

  it('creates a pending cancellation-fee invoice', async () => {
    const customer = await newCustomer(acct.api);
    await addCard(acct.api, customer.id, CARDS.visa);
    const { invoice } = await inTransaction(t.app.deps, (deps) =>
      createCancellationFeeInvoice(deps, acct.tenant(), {
        bookingId: 'bk_test4',
        customerId: customer.id,
        amount: 8329,
        description: 'Cancellation fee (50 % of INV total)',
      }),
    );
    expect(invoice).toMatchObject({
      status: 'pending',
      booking_id: 'bk_test4',
      total: 8329,
      line_items: [{ description: 'Cancellation fee (50 % of INV total)', quantity: 1, unit_price: 8329, total: 8329 }],
    });
    const types = (await eventsOf(t, acct)).filter((e) => e.payload.data.object.id === invoice.id).map((e) => e.type);
    expect(types).toEqual(['invoice.created']);
  });

  it('rolls back with the booking when the booking transaction fails', async () => {
    const customer = await newCustomer(acct.api);
    await expect(
      inTransaction(t.app.deps, async (deps) => {
        await createBookingInvoice(deps, acct.tenant(), {
          bookingId: 'bk_test5',
          customerId: customer.id,
          ...pricing,
        });
        throw new Error('booking failed');
      }),
    ).rejects.toThrow('booking failed');
    const list = await acct.api.get(`/v1/customers/${customer.id}/invoices`);
    expect(list.body.data).toEqual([]);
  });
});

describe('invoice arithmetic', () => {
  it('tax is round((subtotal - discount) x rate / 100), half-up, exactly', () => {
    expect(taxOn(22701, 8.875)).toBe(2015);
    expect(taxOn(200, 0.25)).toBe(1); // 0.5 rounds up
    expect(taxOn(199, 0.25)).toBe(0);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (amount, units) => {
          const rate = units / 10_000;
          const tax = taxOn(amount, rate);
          // exact: tax is the nearest integer to amount x units / 1e6, halves up
          const scaled = BigInt(amount) * BigInt(units);
          const million = 1_000_000n;
          expect(BigInt(tax) * million - scaled <= million / 2n).toBe(true);
          expect(scaled - BigInt(tax) * million < million / 2n).toBe(true);
        },
      ),
    );
  });

  it('totals add up and rates with more than 4 decimals are refused', () => {
    const totals = invoiceTotals(
      [
        { description: 'a', quantity: 3, unit_price: 333 },
        { description: 'b', quantity: 1, unit_price: 1 },
      ],
      { taxRate: 10, discount: 100 },
    );
    expect(totals).toMatchObject({ subtotal: 1000, discount: 100, tax: 90, total: 990 });
    expect(taxRateUnits(8.12345)).toBeNull();
    expect(taxRateUnits(-1)).toBeNull();
    expect(taxRateUnits(0.1 + 0.2)).toBe(3000);
  });
});
