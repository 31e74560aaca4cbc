import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { addCard, CARDS, customerStats, newCustomer, newInvoice } from './helpers/billing.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ workers: false }));
  return t.close;
});

/** What the rows say, independently of the invoice's and customer's running totals. */
async function recount(customerId: string) {
  const [row] = await query<{ paid: number; refunded_original: number; credited: number }>(
    t.database.sql,
    sql`select
          (select coalesce(sum(amount), 0) from payments where customer_id = ${customerId} and status = 'succeeded') as paid,
          (select coalesce(sum(amount), 0) from refunds where customer_id = ${customerId} and refund_to = 'original_payment_method') as refunded_original,
          (select coalesce(sum(amount), 0) from refunds where customer_id = ${customerId} and refund_to = 'account_credit') as credited`,
  );
  if (!row) throw new Error('no recount');
  return row;
}

describe('concurrency', () => {
  it('30 concurrent creations get 30 distinct consecutive numbers', async () => {
    const fresh = await createTestAccount(t);
    const customer = await newCustomer(fresh.api);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fresh.api.post('/v1/invoices', {
          customer_id: customer.id,
          line_items: [{ description: `Visit ${i}`, quantity: 1, unit_price: 1000 + i }],
        }),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(Array(30).fill(201));
    const numbers = results.map((res) => res.body.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => `INV-${String(i + 1).padStart(6, '0')}`));
    const next = await newInvoice(fresh.api, customer.id);
    expect(next.number).toBe('INV-000031');
  });

  it('10 concurrent partial refunds never exceed the amount paid', async () => {
    const customer = await newCustomer(acct.api);
    await addCard(acct.api, customer.id);
    const invoice = await newInvoice(acct.api, customer.id, { auto_charge: true }); // 18500
    expect(invoice.status).toBe('paid');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        acct.api.post(`/v1/invoices/${invoice.id}/refund`, {
          amount: 2500,
          refund_to: i % 2 ? 'account_credit' : 'original_payment_method',
        }),
      ),
    );
    const ok = results.filter((res) => res.status === 201);
    const refused = results.filter((res) => res.status !== 201);
    expect(ok).toHaveLength(7);
    expect(refused.map((res) => res.body.error.code)).toEqual(Array(3).fill('refund_exceeds_amount_paid'));
    const after = (await acct.api.get(`/v1/invoices/${invoice.id}`)).body;
    expect(after.amount_refunded).toBe(17500);
    expect(after.refunds).toHaveLength(7);
    const counted = await recount(customer.id);
    expect(counted.refunded_original + counted.credited).toBe(17500);
    expect(await customerStats(t, customer.id)).toEqual({
      total_spent: counted.paid - counted.refunded_original,
      credit_balance: counted.credited,
    });
  });

  it('concurrent full payments collect once', async () => {
    const customer = await newCustomer(acct.api);
    await addCard(acct.api, customer.id);
    const invoice = await newInvoice(acct.api, customer.id);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        acct.api.post(`/v1/invoices/${invoice.id}/pay`, i % 2 ? { method: 'cash' } : {}),
      ),
    );
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    expect(results.filter((res) => res.status === 409).map((res) => res.body.error.code)).toEqual(
      Array(4).fill('invoice_already_paid'),
    );
    expect(await customerStats(t, customer.id)).toMatchObject({ total_spent: invoice.total });
  });
});

type Step =
  | { kind: 'pay'; amount: number | null; with: 'card' | 'declined' | 'cash' }
  | { kind: 'refund'; amount: number | null; to: 'original_payment_method' | 'account_credit' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('pay' as const),
    amount: fc.option(fc.integer({ min: 1, max: 12000 }), { nil: null }),
    with: fc.constantFrom('card' as const, 'declined' as const, 'cash' as const),
  }),
  fc.record({
    kind: fc.constant('refund' as const),
    amount: fc.option(fc.integer({ min: 1, max: 12000 }), { nil: null }),
    to: fc.constantFrom('original_payment_method' as const, 'account_credit' as const),
  }),
);

describe('property: payments and refunds', () => {
  it('amount_paid, amount_refunded, balance and the customer stats always equal a recount', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 7 }), async (steps) => {
        const customer = await newCustomer(acct.api);
        const good = (await addCard(acct.api, customer.id, CARDS.visa)).body;
        const bad = (await addCard(acct.api, customer.id, CARDS.declined)).body;
        const invoice = await newInvoice(acct.api, customer.id, {
          line_items: [{ description: 'Job', quantity: 1, unit_price: 10000 }],
        });
        const model = { paid: 0, refunded: 0, spent: 0, credit: 0 };
        for (const s of steps) {
          if (s.kind === 'pay') {
            const body: Record<string, unknown> =
              s.with === 'cash' ? { method: 'cash' } : { payment_method_id: s.with === 'card' ? good.id : bad.id };
            if (s.amount !== null) body.amount = s.amount;
            const res = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, body);
            const balance = 10000 - model.paid;
            const amount = s.amount ?? balance;
            if (balance === 0) expect(res.body.error?.code).toBe('invoice_already_paid');
            else if (amount > balance)
              expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'amount' });
            else if (s.with === 'declined') expect(res.status).toBe(402);
            else {
              expect(res.status).toBe(200);
              model.paid += amount;
              model.spent += amount;
            }
          } else {
            const body: Record<string, unknown> = { refund_to: s.to };
            if (s.amount !== null) body.amount = s.amount;
            const res = await acct.api.post(`/v1/invoices/${invoice.id}/refund`, body);
            const refundable = model.paid - model.refunded;
            const amount = s.amount ?? refundable;
            if (model.paid === 0) expect(res.body.error?.code).toBe('invoice_not_paid');
            else if (refundable === 0 || amount > refundable) {
              expect(res.body.error?.code).toBe('refund_exceeds_amount_paid');
            } else {
              expect(res.status).toBe(201);
              model.refunded += amount;
              if (s.to === 'account_credit') model.credit += amount;
              else model.spent -= amount;
            }
          }
        }
        const after = (await acct.api.get(`/v1/invoices/${invoice.id}`)).body;
        const counted = await recount(customer.id);
        expect(after).toMatchObject({
          amount_paid: model.paid,
          amount_refunded: model.refunded,
          balance: 10000 - model.paid,
          status: model.paid === 10000 ? 'paid' : 'pending',
        });
        expect(counted.paid).toBe(model.paid);
        expect(counted.refunded_original + counted.credited).toBe(model.refunded);
        const sum = (items: { amount: number }[]) => items.reduce((total, item) => total + item.amount, 0);
        expect(sum(after.payments.filter((p: { status: string }) => p.status === 'succeeded'))).toBe(model.paid);
        expect(sum(after.refunds)).toBe(model.refunded);
        const stats = await customerStats(t, customer.id);
        expect(stats).toEqual({ total_spent: model.spent, credit_balance: model.credit });
        expect(stats).toEqual({
          total_spent: counted.paid - counted.refunded_original,
          credit_balance: counted.credited,
        });
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
