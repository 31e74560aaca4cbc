import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { markOverdueInvoices } from '../src/modules/invoices/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { eventsOf, newCustomer, newInvoice } from './helpers/billing.ts';

let t: TestApp;
const clock = new ManualClock('2030-05-01T10:00:00Z');

beforeAll(async () => {
  t = await startTestApp({ clock, workers: false });
});
afterAll(() => t.close());

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((invoice) => invoice.id);

describe('invoice lists', () => {
  let acct: TestAccount;
  let a: { id: string };
  let b: { id: string };
  const made = {} as Record<'may1' | 'may2' | 'may3' | 'draft' | 'paid' | 'overdue', { id: string; total: number }>;

  beforeAll(async () => {
    acct = await createTestAccount(t);
    a = await newCustomer(acct.api);
    b = await newCustomer(acct.api);
    clock.set('2030-05-01T10:00:00Z');
    made.may1 = await newInvoice(acct.api, a.id, { line_items: [{ description: 'a', quantity: 1, unit_price: 1000 }] });
    clock.set('2030-05-02T23:59:59Z');
    made.may2 = await newInvoice(acct.api, b.id, { line_items: [{ description: 'b', quantity: 1, unit_price: 5000 }] });
    clock.set('2030-05-03T00:00:00Z');
    made.may3 = await newInvoice(acct.api, a.id, { line_items: [{ description: 'c', quantity: 1, unit_price: 9000 }] });
    clock.advance(1000); // distinct created_at, so that the order is the creation order
    made.draft = await newInvoice(acct.api, a.id, { draft: true });
    clock.set('2030-05-04T08:00:00Z');
    made.paid = await newInvoice(acct.api, b.id, { line_items: [{ description: 'd', quantity: 2, unit_price: 2000 }] });
    await acct.api.post(`/v1/invoices/${made.paid.id}/pay`, { method: 'cash' });
    clock.advance(1000);
    made.overdue = await newInvoice(acct.api, b.id, { due_date: '2030-05-03' }); // past due at once
  });

  it('lists newest first with pagination, ids and fields', async () => {
    const all = await acct.api.get('/v1/invoices');
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual(
      [made.overdue, made.paid, made.draft, made.may3, made.may2, made.may1].map((invoice) => invoice.id),
    );
    expect(all.body.pagination).toEqual({ page: 1, per_page: 25, total: 6, total_pages: 1 });
    const page2 = await acct.api.get('/v1/invoices?per_page=4&page=2');
    expect(ids(page2)).toEqual([made.may2.id, made.may1.id]);
    expect(page2.body.pagination).toEqual({ page: 2, per_page: 4, total: 6, total_pages: 2 });
    expect((await acct.api.get('/v1/invoices?per_page=101')).body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'per_page',
    });
    const some = await acct.api.get(`/v1/invoices?ids=${made.may1.id},${made.paid.id}&fields=id,number,customer.id`);
    expect(some.body.data).toEqual([
      { id: made.paid.id, number: 'INV-000004', customer: { id: b.id } },
      { id: made.may1.id, number: 'INV-000001', customer: { id: a.id } },
    ]);
  });

  it('filters by status (overdue computed on read), customer and amount', async () => {
    expect(ids(await acct.api.get('/v1/invoices?status=overdue'))).toEqual([made.overdue.id]);
    expect(ids(await acct.api.get('/v1/invoices?status=paid'))).toEqual([made.paid.id]);
    expect(ids(await acct.api.get('/v1/invoices?status=draft'))).toEqual([made.draft.id]);
    expect(ids(await acct.api.get('/v1/invoices?status=pending'))).toEqual([made.may3.id, made.may2.id, made.may1.id]);
    expect((await acct.api.get(`/v1/invoices/${made.overdue.id}`)).body.status).toBe('overdue');
    expect(ids(await acct.api.get(`/v1/invoices?customer_id=${b.id}`))).toEqual([
      made.overdue.id,
      made.paid.id,
      made.may2.id,
    ]);
    expect(ids(await acct.api.get('/v1/invoices?min_amount=4000&max_amount=9000'))).toEqual([
      made.paid.id,
      made.may3.id,
      made.may2.id,
    ]);
    expect((await acct.api.get('/v1/invoices?status=late')).body.error).toMatchObject({ param: 'status' });
  });

  it('filters on issued_at, a plain date meaning the whole UTC day', async () => {
    expect(ids(await acct.api.get('/v1/invoices?date_from=2030-05-02&date_to=2030-05-02'))).toEqual([made.may2.id]);
    expect(ids(await acct.api.get('/v1/invoices?date_from=2030-05-02&date_to=2030-05-03'))).toEqual([
      made.may3.id,
      made.may2.id,
    ]);
    expect(ids(await acct.api.get('/v1/invoices?date_to=2030-05-01'))).toEqual([made.may1.id]);
    expect(
      ids(
        await acct.api.get(
          `/v1/invoices?date_from=${encodeURIComponent('2030-05-02T23:59:59Z')}&date_to=2030-05-03T00:00:00Z`,
        ),
      ),
    ).toEqual([made.may3.id, made.may2.id]);
    expect((await acct.api.get('/v1/invoices?date_from=May')).body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'date_from',
    });
  });

  it("lists a customer's invoices newest first; 404 for an unknown customer", async () => {
    const res = await acct.api.get(`/v1/customers/${a.id}/invoices`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([made.draft.id, made.may3.id, made.may1.id]);
    expect(res.body.pagination.total).toBe(3);
    expect(ids(await acct.api.get(`/v1/customers/${a.id}/invoices?status=draft`))).toEqual([made.draft.id]);
    expect((await acct.api.get('/v1/customers/cust_nope/invoices')).status).toBe(404);
    const other = await createTestAccount(t);
    expect((await other.api.get(`/v1/customers/${a.id}/invoices`)).status).toBe(404);
    expect((await other.api.get('/v1/invoices')).body.data).toEqual([]);
  });
});

describe('overdue', () => {
  it('reads overdue the day after due_date, and the sweep persists it and announces it once', async () => {
    // sweeps here are limited to this account: other test files share the database
    const acct = await createTestAccount(t);
    const customer = await newCustomer(acct.api);
    clock.set('2030-06-10T12:00:00Z');
    const dueToday = await newInvoice(acct.api, customer.id, { due_date: '2030-06-10' });
    const paidLate = await newInvoice(acct.api, customer.id, { due_date: '2030-06-10' });
    expect(dueToday.status).toBe('pending');
    clock.set('2030-06-11T00:00:00Z');
    expect((await acct.api.get(`/v1/invoices/${dueToday.id}`)).body.status).toBe('overdue');

    // several instances sweeping at once mark each invoice once
    const counts = await Promise.all(
      [1, 2, 3].map(() => markOverdueInvoices(t.app.deps, { accountId: acct.accountId })),
    );
    expect(counts.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(2);
    await markOverdueInvoices(t.app.deps, { accountId: acct.accountId });
    const overdueEvents = (await eventsOf(t, acct)).filter((e) => e.type === 'invoice.overdue');
    expect(overdueEvents.map((e) => e.payload.data.object.id).sort()).toEqual([dueToday.id, paidLate.id].sort());
    expect(overdueEvents[0]?.payload.data.object.status).toBe('overdue');

    // an overdue invoice can still be paid; partial payment keeps it overdue
    const partial = await acct.api.post(`/v1/invoices/${paidLate.id}/pay`, { method: 'cash', amount: 100 });
    expect(partial.body.status).toBe('overdue');
    const paid = await acct.api.post(`/v1/invoices/${paidLate.id}/pay`, { method: 'cash' });
    expect(paid.body.status).toBe('paid');
    await markOverdueInvoices(t.app.deps, { accountId: acct.accountId });
    expect((await eventsOf(t, acct)).filter((e) => e.type === 'invoice.overdue')).toHaveLength(2);
    expect((await acct.api.post(`/v1/invoices/${dueToday.id}/void`)).body.status).toBe('void');
  });

  it('the background loop started with the workers runs the sweep', async () => {
    const app = await startTestApp({ workers: false, database: t.database });
    try {
      const acct = await createTestAccount(app);
      const customer = await newCustomer(acct.api);
      const invoice = await newInvoice(acct.api, customer.id, { due_date: '2020-06-01' });
      app.app.startWorkers();
      // the loop's first pass begins at the start; stopping waits for it
      await app.app.workers.overdueInvoices.stop();
      expect((await eventsOf(app, acct)).map((e) => e.type)).toContain('invoice.overdue');
      expect((await acct.api.get(`/v1/invoices/${invoice.id}`)).body.status).toBe('overdue');
    } finally {
      await app.close();
    }
  });
});
