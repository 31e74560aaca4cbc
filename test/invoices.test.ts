import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { addCard, CARDS, customerStats, eventsOf, newCustomer, newInvoice, threeItems } from './helpers/billing.ts';
import { createdBody } from './helpers/http.ts';

let t: TestApp;
let acct: TestAccount;
const clock = new ManualClock('2030-03-10T12:00:00Z');

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ clock, workers: false }));
  return t.close;
});

const countTypes = (events: { type: string }[]) =>
  events.reduce<Record<string, number>>((counts, e) => {
    counts[e.type] = (counts[e.type] ?? 0) + 1;
    return counts;
  }, {});

describe('creating invoices', () => {
  it('issues a pending, numbered invoice with exact totals, due in 14 days, and an invoice.created event', async () => {
    const other = await createTestAccount(t);
    const customer = await newCustomer(other.api);
    const res = await other.api.post('/v1/invoices', {
      customer_id: customer.id,
      line_items: [
        { description: 'Deep clean', quantity: 1, unit_price: 19999 },
        { description: 'Oven', quantity: 3, unit_price: 1234 },
      ],
      tax_rate: 8.875,
      discount: 1000,
      discount_description: 'Loyalty',
    });
    const invoice = createdBody(res, 'inv');
    // subtotal 23701, taxable 22701, tax 2014.71... -> 2015 (half-up)
    expect(invoice).toMatchObject({
      object: 'invoice',
      number: 'INV-000001',
      status: 'pending',
      customer: { id: customer.id, name: expect.stringContaining('Pat'), email: customer.email },
      booking_id: null,
      currency: 'usd',
      subtotal: 23701,
      discount: 1000,
      discount_description: 'Loyalty',
      tax_rate: 8.875,
      tax: 2015,
      total: 24716,
      amount_paid: 0,
      amount_refunded: 0,
      balance: 24716,
      due_date: '2030-03-24',
      issued_at: '2030-03-10T12:00:00.000Z',
      paid_at: null,
      payment_method: null,
      last_payment_error: null,
      payments: [],
      refunds: [],
    });
    expect(invoice.line_items).toEqual([
      { description: 'Deep clean', quantity: 1, unit_price: 19999, total: 19999 },
      { description: 'Oven', quantity: 3, unit_price: 1234, total: 3702 },
    ]);
    const second = await newInvoice(other.api, customer.id);
    expect(second.number).toBe('INV-000002');
    expect((await other.api.get(`/v1/invoices/${invoice.id}`)).body).toEqual(invoice);

    const events = await eventsOf(t, other);
    expect(
      events
        .filter((e) => e.type === 'invoice.created')
        .map((e) => [e.payload.data.object.id, e.payload.data.object.number]),
    ).toEqual(
      expect.arrayContaining([
        [invoice.id, 'INV-000001'],
        [second.id, 'INV-000002'],
      ]),
    );
    // what receivers get is the stored body, byte for byte: it carries the number too
    const bodies = await query<{ body: string }>(
      t.database.sql,
      sql`select body from events where account_id = ${other.accountId} and type = 'invoice.created'`,
    );
    for (const { body } of bodies) {
      expect(body).toMatch(/"number":"INV-00000[12]"/);
      expect(body).not.toContain('number-pending');
    }
    const live = await other.live.post('/v1/customers', { first_name: 'L', last_name: 'V', email: 'lv@example.com' });
    const liveInvoice = await newInvoice(other.live, live.body.id);
    expect(liveInvoice.number).toBe('INV-000001'); // numbered per environment
  });

  it('validates the request', async () => {
    const customer = await newCustomer(acct.api);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ line_items: threeItems }, 'missing_required_field', 'customer_id'],
      [{ customer_id: customer.id }, 'missing_required_field', 'line_items'],
      [{ customer_id: customer.id, line_items: [] }, 'parameter_invalid', 'line_items'],
      [
        { customer_id: customer.id, line_items: [{ description: 'x', quantity: 0, unit_price: 1 }] },
        'parameter_invalid',
        'line_items.0.quantity',
      ],
      [
        { customer_id: customer.id, line_items: [{ description: 'x', quantity: 1, unit_price: 1.5 }] },
        'parameter_invalid',
        'line_items.0.unit_price',
      ],
      [{ customer_id: customer.id, line_items: threeItems, tax_rate: 8.12345 }, 'parameter_invalid', 'tax_rate'],
      [{ customer_id: customer.id, line_items: threeItems, tax_rate: 101 }, 'parameter_invalid', 'tax_rate'],
      [{ customer_id: customer.id, line_items: threeItems, discount: 999999 }, 'parameter_invalid', 'discount'],
      [{ customer_id: customer.id, line_items: threeItems, due_date: '2030-02-30x' }, 'parameter_invalid', 'due_date'],
      [{ customer_id: customer.id, line_items: threeItems, memo: 'x' }, 'parameter_unknown', 'memo'],
      [
        { customer_id: customer.id, line_items: threeItems, draft: true, auto_charge: true },
        'parameter_invalid',
        'auto_charge',
      ],
      [{ customer_id: customer.id, line_items: threeItems, auto_charge: true }, 'parameter_invalid', 'auto_charge'],
      [{ customer_id: 'cust_missing', line_items: threeItems }, 'resource_not_found', 'customer_id'],
      // the customer is checked before their card, though both are read at once
      [{ customer_id: 'cust_missing', line_items: threeItems, auto_charge: true }, 'resource_not_found', 'customer_id'],
    ];
    for (const [body, code, param] of cases) {
      const res = await acct.api.post('/v1/invoices', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code, param });
    }
    const other = await createTestAccount(t);
    const foreign = await other.api.post('/v1/invoices', { customer_id: customer.id, line_items: threeItems });
    expect(foreign.body.error).toMatchObject({ code: 'resource_not_found', param: 'customer_id' });
    expect((await acct.api.get('/v1/invoices/inv_nope')).status).toBe(404);
    const created = await newInvoice(acct.api, customer.id);
    expect((await other.api.get(`/v1/invoices/${created.id}`)).status).toBe(404);
    expect((await acct.live.get(`/v1/invoices/${created.id}`)).status).toBe(404);
  });

  it('creates drafts without a number; finalize issues them, once', async () => {
    const customer = await newCustomer(acct.api);
    const draft = await newInvoice(acct.api, customer.id, { draft: true, send_email: true });
    expect(draft).toMatchObject({ status: 'draft', number: null, issued_at: null });
    const finalized = await acct.api.post(`/v1/invoices/${draft.id}/finalize`);
    expect(finalized.status).toBe(200);
    expect(finalized.body.status).toBe('pending');
    expect(finalized.body.number).toMatch(/^INV-\d{6}$/);
    expect(finalized.body.issued_at).toBe(clock.now().toISOString());
    const again = await acct.api.post(`/v1/invoices/${draft.id}/finalize`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state_transition');
    const emails = await query<{ kind: string; to_address: string; subject: string }>(
      t.database.sql,
      sql`select kind, to_address, subject from emails where account_id = ${acct.accountId} and kind = 'invoice'`,
    );
    expect(emails).toEqual([
      { kind: 'invoice', to_address: customer.email, subject: expect.stringContaining(finalized.body.number) },
    ]);
    const events = await eventsOf(t, acct);
    expect(
      events
        .filter((e) => e.type === 'invoice.finalized')
        .map((e) => [e.payload.data.object.id, e.payload.data.object.number]),
    ).toEqual([[draft.id, finalized.body.number]]);
  });

  it('sends the invoice e-mail on create with send_email', async () => {
    const other = await createTestAccount(t);
    const customer = await newCustomer(other.api);
    await newInvoice(other.api, customer.id, { send_email: true });
    await newInvoice(other.api, customer.id);
    const emails = await query<{ text_body: string }>(
      t.database.sql,
      sql`select text_body from emails where account_id = ${other.accountId} and kind = 'invoice'`,
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]?.text_body).toContain('INV-000001');
    expect(emails[0]?.text_body).toContain('Standard clean');
  });
});

describe('auto_charge and payments', () => {
  it('auto_charge pays with the default card: paid, payment_method, payments[], total_spent, events', async () => {
    const other = await createTestAccount(t);
    const customer = await newCustomer(other.api);
    await addCard(other.api, customer.id, CARDS.visa);
    const invoice = await newInvoice(other.api, customer.id, { auto_charge: true, tax_rate: 10 });
    expect(invoice).toMatchObject({
      status: 'paid',
      total: 20350,
      amount_paid: 20350,
      balance: 0,
      paid_at: clock.now().toISOString(),
      payment_method: { type: 'card', brand: 'visa', last4: '4242' },
      last_payment_error: null,
    });
    expect(invoice.payments).toHaveLength(1);
    expect(invoice.payments[0]).toMatchObject({ object: 'payment', amount: 20350, status: 'succeeded', failure: null });
    expect(await customerStats(t, customer.id)).toEqual({ total_spent: 20350, credit_balance: 0 });
    expect(countTypes(await eventsOf(t, other))).toMatchObject({
      'invoice.created': 1,
      'payment.succeeded': 1,
      'invoice.paid': 1,
    });
    const paidEvent = (await eventsOf(t, other)).find((e) => e.type === 'invoice.paid');
    expect(paidEvent?.payload.data.object).toMatchObject({ number: invoice.number, status: 'paid' });
    const customerView = await other.api.get(`/v1/customers/${customer.id}`);
    expect(customerView.body.stats.total_spent).toBe(20350);
  });

  it('numbers past INV-999999 with more digits', async () => {
    const other = await createTestAccount(t);
    const customer = await newCustomer(other.api);
    await newInvoice(other.api, customer.id);
    await query(
      t.database.sql,
      sql`update invoice_counters set last_number = 999999 where account_id = ${other.accountId}`,
    );
    expect((await newInvoice(other.api, customer.id)).number).toBe('INV-1000000');
  });

  it('a declined auto_charge still creates the invoice: 201, pending, last_payment_error, payment.failed', async () => {
    for (const [number, code] of [
      [CARDS.declined, 'card_declined'],
      [CARDS.insufficientFunds, 'insufficient_funds'],
    ] as const) {
      const other = await createTestAccount(t);
      const customer = await newCustomer(other.api);
      expect((await addCard(other.api, customer.id, number)).status).toBe(201); // declines happen when charged
      const res = await other.api.post('/v1/invoices', {
        customer_id: customer.id,
        line_items: threeItems,
        auto_charge: true,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: 'pending',
        amount_paid: 0,
        payment_method: null,
        last_payment_error: { code, message: expect.any(String), at: clock.now().toISOString() },
      });
      expect(res.body.payments).toEqual([
        expect.objectContaining({ status: 'failed', failure: { code, message: expect.any(String) } }),
      ]);
      expect(await customerStats(t, customer.id)).toEqual({ total_spent: 0, credit_balance: 0 });
      const types = countTypes(await eventsOf(t, other));
      expect(types).toMatchObject({ 'invoice.created': 1, 'payment.failed': 1 });
      expect(types['invoice.paid']).toBeUndefined();
    }
  });

  it('/pay with a declined card is 402 with only the failure recorded; a good card then pays it', async () => {
    const customer = await newCustomer(acct.api);
    const bad = (await addCard(acct.api, customer.id, CARDS.declined)).body;
    const poor = (await addCard(acct.api, customer.id, CARDS.insufficientFunds)).body;
    const good = (await addCard(acct.api, customer.id, CARDS.mastercard)).body;
    const invoice = await newInvoice(acct.api, customer.id);

    const declined = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { payment_method_id: bad.id });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ type: 'card_error', code: 'card_declined' });
    let current = (await acct.api.get(`/v1/invoices/${invoice.id}`)).body;
    expect(current).toMatchObject({ status: 'pending', amount_paid: 0, last_payment_error: { code: 'card_declined' } });

    const insufficient = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { payment_method_id: poor.id });
    expect(insufficient.status).toBe(402);
    expect(insufficient.body.error).toMatchObject({ type: 'card_error', code: 'insufficient_funds' });
    current = (await acct.api.get(`/v1/invoices/${invoice.id}`)).body;
    expect(current.last_payment_error.code).toBe('insufficient_funds');
    expect(current.payments.map((p: { status: string }) => p.status)).toEqual(['failed', 'failed']);
    expect(await customerStats(t, customer.id)).toEqual({ total_spent: 0, credit_balance: 0 });

    const paid = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { payment_method_id: good.id });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      status: 'paid',
      amount_paid: invoice.total,
      balance: 0,
      last_payment_error: null,
      payment_method: { type: 'card', brand: 'mastercard', last4: '4444' },
    });
    const again = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { method: 'cash' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invoice_already_paid');
  });

  it('takes partial and offline payments, refuses over-payment, and fills payment_method', async () => {
    const customer = await newCustomer(acct.api);
    const invoice = await newInvoice(acct.api, customer.id); // total 18500
    const first = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { method: 'cash', amount: 5000 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'pending',
      amount_paid: 5000,
      balance: 13500,
      paid_at: null,
      payment_method: { type: 'cash', brand: null, last4: null },
    });
    const over = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { method: 'check', amount: 13501 });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    const both = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { method: 'check', payment_method_id: 'pm_x' });
    expect(both.body.error).toMatchObject({ code: 'parameter_invalid' });
    const noCard = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, {});
    expect(noCard.body.error).toMatchObject({ code: 'missing_required_field', param: 'payment_method_id' });
    const otherCustomer = await newCustomer(acct.api);
    const foreignCard = (await addCard(acct.api, otherCustomer.id)).body;
    const wrongCard = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { payment_method_id: foreignCard.id });
    expect(wrongCard.status).toBe(400);
    expect(wrongCard.body.error).toMatchObject({ code: 'resource_not_found', param: 'payment_method_id' });

    const rest = await acct.api.post(`/v1/invoices/${invoice.id}/pay`, { method: 'check' });
    expect(rest.body).toMatchObject({
      status: 'paid',
      amount_paid: 18500,
      balance: 0,
      payment_method: { type: 'check' },
      paid_at: clock.now().toISOString(),
    });
    expect(rest.body.payments.map((p: { amount: number }) => p.amount)).toEqual([5000, 13500]);
    expect(await customerStats(t, customer.id)).toEqual({ total_spent: 18500, credit_balance: 0 });
  });

  it('refuses to pay drafts and void invoices', async () => {
    const other = await createTestAccount(t);
    const customer = await newCustomer(other.api);
    const draft = await newInvoice(other.api, customer.id, { draft: true });
    const payDraft = await other.api.post(`/v1/invoices/${draft.id}/pay`, { method: 'cash' });
    expect(payDraft.status).toBe(409);
    expect(payDraft.body.error.code).toBe('invalid_state_transition');
    await other.api.post(`/v1/invoices/${draft.id}/void`);
    const payVoid = await other.api.post(`/v1/invoices/${draft.id}/pay`, { method: 'cash' });
    expect(payVoid.body.error.code).toBe('invalid_state_transition');
  });
});

describe('void', () => {
  it('voids drafts and pending invoices with nothing collected, and refuses the rest', async () => {
    const customer = await newCustomer(acct.api);
    const pending = await newInvoice(acct.api, customer.id);
    const voided = await acct.api.post(`/v1/invoices/${pending.id}/void`, { reason: 'Duplicate' });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({
      status: 'void',
      void_reason: 'Duplicate',
      voided_at: clock.now().toISOString(),
    });
    const twice = await acct.api.post(`/v1/invoices/${pending.id}/void`);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('invalid_state_transition');
    const finalizeVoid = await acct.api.post(`/v1/invoices/${pending.id}/finalize`);
    expect(finalizeVoid.body.error.code).toBe('invalid_state_transition');

    const draft = await newInvoice(acct.api, customer.id, { draft: true });
    expect((await acct.api.post(`/v1/invoices/${draft.id}/void`)).body).toMatchObject({ status: 'void', number: null });

    const partly = await newInvoice(acct.api, customer.id);
    await acct.api.post(`/v1/invoices/${partly.id}/pay`, { method: 'cash', amount: 100 });
    const partlyVoid = await acct.api.post(`/v1/invoices/${partly.id}/void`);
    expect(partlyVoid.status).toBe(409);
    expect(partlyVoid.body.error.code).toBe('invoice_already_paid');

    const paid = await newInvoice(acct.api, customer.id);
    await acct.api.post(`/v1/invoices/${paid.id}/pay`, { method: 'cash' });
    const paidVoid = await acct.api.post(`/v1/invoices/${paid.id}/void`);
    expect(paidVoid.status).toBe(409);
    expect(paidVoid.body.error.code).toBe('invoice_already_paid');
    expect((await acct.api.get(`/v1/invoices/${paid.id}`)).body.status).toBe('paid');

    const events = await eventsOf(t, acct);
    expect(
      events
        .filter((e) => e.type === 'invoice.voided')
        .map((e) => e.payload.data.object.id)
        .sort(),
    ).toEqual([pending.id, draft.id].sort());
  });
});

describe('refunds', () => {
  it('refunds partly and fully, to the card or to account credit, never more than collected', async () => {
    const customer = await newCustomer(acct.api);
    await addCard(acct.api, customer.id);
    const invoice = await newInvoice(acct.api, customer.id, { auto_charge: true }); // 18500 paid

    const partial = await acct.api.post(`/v1/invoices/${invoice.id}/refund`, { amount: 3000, reason: 'Missed a room' });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({
      object: 'refund',
      invoice_id: invoice.id,
      amount: 3000,
      reason: 'Missed a room',
      refund_to: 'original_payment_method',
      status: 'succeeded',
      created_at: clock.now().toISOString(),
    });
    expect(partial.body.id).toMatch(/^re_/);
    const credit = await acct.api.post(`/v1/invoices/${invoice.id}/refund`, {
      amount: 2000,
      refund_to: 'account_credit',
    });
    expect(credit.status).toBe(201);
    expect(await customerStats(t, customer.id)).toEqual({ total_spent: 15500, credit_balance: 2000 });
    expect((await acct.api.get(`/v1/customers/${customer.id}`)).body.credit_balance).toBe(2000);

    const tooMuch = await acct.api.post(`/v1/invoices/${invoice.id}/refund`, { amount: 13501 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error).toMatchObject({ code: 'refund_exceeds_amount_paid', param: 'amount' });
    const rest = await acct.api.post(`/v1/invoices/${invoice.id}/refund`, {});
    expect(rest.body.amount).toBe(13500);
    const nothingLeft = await acct.api.post(`/v1/invoices/${invoice.id}/refund`);
    expect(nothingLeft.status).toBe(400);
    expect(nothingLeft.body.error.code).toBe('refund_exceeds_amount_paid');

    const after = (await acct.api.get(`/v1/invoices/${invoice.id}`)).body;
    expect(after).toMatchObject({ status: 'paid', amount_paid: 18500, amount_refunded: 18500, balance: 0 });
    expect(after.refunds.map((r: { amount: number }) => r.amount)).toEqual([3000, 2000, 13500]);
    expect(after.payments[0].amount_refunded).toBe(16500); // what went back to the card
    expect(await customerStats(t, customer.id)).toEqual({ total_spent: 2000, credit_balance: 2000 });
    const events = await eventsOf(t, acct);
    expect(
      events.filter((e) => e.type === 'payment.refunded' && e.payload.data.object.invoice_id === invoice.id),
    ).toHaveLength(3);
  });

  it('refuses refunds of invoices with nothing collected (409 invoice_not_paid)', async () => {
    const customer = await newCustomer(acct.api);
    const pending = await newInvoice(acct.api, customer.id);
    const draft = await newInvoice(acct.api, customer.id, { draft: true });
    for (const id of [pending.id, draft.id]) {
      const res = await acct.api.post(`/v1/invoices/${id}/refund`, { amount: 100 });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('invoice_not_paid');
    }
    const bad = await acct.api.post(`/v1/invoices/${pending.id}/refund`, { refund_to: 'bank' });
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'refund_to' });
  });
});

describe('environments', () => {
  it('live without a processor: cards are 400 processor_not_configured, offline payments work', async () => {
    const live = await newCustomer(acct.live, { first_name: 'Live', last_name: 'One', email: 'live1@example.com' });
    const card = await addCard(acct.live, live.id);
    expect(card.status).toBe(400);
    expect(card.body.error.code).toBe('processor_not_configured');
    const autoCharge = await acct.live.post('/v1/invoices', {
      customer_id: live.id,
      line_items: threeItems,
      auto_charge: true,
    });
    expect(autoCharge.body.error.code).toBe('processor_not_configured');
    const invoice = await newInvoice(acct.live, live.id);
    const byCard = await acct.live.post(`/v1/invoices/${invoice.id}/pay`, { payment_method_id: 'pm_x' });
    expect(byCard.body.error.code).toBe('processor_not_configured');
    const cash = await acct.live.post(`/v1/invoices/${invoice.id}/pay`, { method: 'cash' });
    expect(cash.status).toBe(200);
    expect(cash.body).toMatchObject({ status: 'paid', payment_method: { type: 'cash' } });
    const refund = await acct.live.post(`/v1/invoices/${invoice.id}/refund`, { amount: 500 });
    expect(refund.status).toBe(201);
  });
});
