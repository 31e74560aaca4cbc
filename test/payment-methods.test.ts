import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { loggerOptions } from '../src/core/logger.ts';
import { cardBrand, luhnValid, testProcessor } from '../src/modules/payments/index.ts';
import { createTestAccount, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { addCard, CARDS, newCustomer } from './helpers/billing.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ workers: false }));
  return t.close;
});

describe('payment methods', () => {
  it('adds cards with brand and last4 only; the first is the default; is_default moves it', async () => {
    const customer = await newCustomer(acct.api);
    const visa = await addCard(acct.api, customer.id, '4242 4242 4242 4242');
    expect(visa.status).toBe(201);
    expect(visa.body).toEqual({
      id: expect.stringMatching(/^pm_[0-9A-Za-z]{24}$/),
      object: 'payment_method',
      customer_id: customer.id,
      type: 'card',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2040,
      is_default: true,
      created_at: expect.any(String),
    });
    const mc = await addCard(acct.api, customer.id, CARDS.mastercard);
    expect(mc.body).toMatchObject({ brand: 'mastercard', last4: '4444', is_default: false });
    const third = await addCard(acct.api, customer.id, CARDS.declined, { is_default: true });
    expect(third.body.is_default).toBe(true);

    let list = await acct.api.get(`/v1/customers/${customer.id}/payment_methods`);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, per_page: 25, total: 3, total_pages: 1 });
    expect(
      list.body.data.filter((m: { is_default: boolean }) => m.is_default).map((m: { id: string }) => m.id),
    ).toEqual([third.body.id]);

    const moved = await acct.api.patch(`/v1/customers/${customer.id}/payment_methods/${mc.body.id}`, {
      is_default: true,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.is_default).toBe(true);
    const unset = await acct.api.patch(`/v1/customers/${customer.id}/payment_methods/${mc.body.id}`, {
      is_default: false,
    });
    expect(unset.body.error).toMatchObject({ code: 'parameter_invalid', param: 'is_default' });

    const removed = await acct.api.delete(`/v1/customers/${customer.id}/payment_methods/${mc.body.id}`);
    expect(removed.status).toBe(204);
    list = await acct.api.get(`/v1/customers/${customer.id}/payment_methods?per_page=1`);
    expect(list.body.pagination).toEqual({ page: 1, per_page: 1, total: 2, total_pages: 2 });
    // the newest remaining card became the default
    expect(list.body.data[0]).toMatchObject({ id: third.body.id, is_default: true });
    const again = await acct.api.delete(`/v1/customers/${customer.id}/payment_methods/${mc.body.id}`);
    expect(again.status).toBe(404);

    const rows = await query<Record<string, unknown>>(
      t.database.sql,
      sql`select * from payment_methods where customer_id = ${customer.id}`,
    );
    const stored = JSON.stringify(rows);
    for (const number of ['4242424242424242', CARDS.mastercard, CARDS.declined]) {
      expect(stored).not.toContain(number);
      expect(stored).not.toContain(number.slice(0, 12));
    }
    expect(stored).not.toContain('"123"'); // the cvc
  });

  it('refuses numbers failing the Luhn check, expired cards and bad fields', async () => {
    const customer = await newCustomer(acct.api);
    const luhn = await addCard(acct.api, customer.id, '4242424242424241');
    expect(luhn.status).toBe(400);
    expect(luhn.body.error).toMatchObject({ code: 'parameter_invalid', param: 'card.number' });
    const letters = await addCard(acct.api, customer.id, '4242abcd42424242');
    expect(letters.body.error).toMatchObject({ code: 'parameter_invalid', param: 'card.number' });
    const expired = await acct.api.post(`/v1/customers/${customer.id}/payment_methods`, {
      card: { number: CARDS.visa, exp_month: 1, exp_year: 2020, cvc: '123' },
    });
    expect(expired.body.error).toMatchObject({ code: 'parameter_invalid', param: 'card.exp_year' });
    const missing = await acct.api.post(`/v1/customers/${customer.id}/payment_methods`, {
      card: { number: CARDS.visa, exp_month: 1, exp_year: 2040 },
    });
    expect(missing.body.error).toMatchObject({ code: 'missing_required_field', param: 'card.cvc' });
    const unknown = await acct.api.post(`/v1/customers/${customer.id}/payment_methods`, {
      card: { number: CARDS.visa, exp_month: 1, exp_year: 2040, cvc: '123' },
      nickname: 'x',
    });
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'nickname' });
    const list = await acct.api.get(`/v1/customers/${customer.id}/payment_methods`);
    expect(list.body.data).toEqual([]);
  });

  it('answers 404 for unknown or foreign customers and cards', async () => {
    const customer = await newCustomer(acct.api);
    const card = (await addCard(acct.api, customer.id)).body;
    const other = await createTestAccount(t);
    expect((await addCard(other.api, customer.id)).status).toBe(404);
    expect((await other.api.get(`/v1/customers/${customer.id}/payment_methods`)).status).toBe(404);
    expect((await other.api.delete(`/v1/customers/${customer.id}/payment_methods/${card.id}`)).status).toBe(404);
    const otherCustomer = await newCustomer(acct.api);
    const wrongOwner = await acct.api.patch(`/v1/customers/${otherCustomer.id}/payment_methods/${card.id}`, {
      is_default: true,
    });
    expect(wrongOwner.status).toBe(404);
    expect((await addCard(acct.api, 'cust_nope')).status).toBe(404);
  });

  it('live without a configured processor refuses cards with 400 processor_not_configured', async () => {
    const live = await acct.live.post('/v1/customers', { first_name: 'L', last_name: 'P', email: 'lp@example.com' });
    const res = await addCard(acct.live, live.body.id);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'processor_not_configured' });
  });
});

describe('cards and the test processor', () => {
  it('detects brands', () => {
    expect(cardBrand('4242424242424242')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('2223003122003222')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardBrand('6011111111111117')).toBe('discover');
    expect(cardBrand('6500000000000002')).toBe('discover');
    expect(cardBrand('3530111333300000')).toBe('unknown');
  });

  it('Luhn: every number with its check digit passes, and changing one digit fails', () => {
    const withCheckDigit = (body: string) => {
      for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
      throw new Error('no check digit');
    };
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{14,17}$/),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (body, position, delta) => {
          const number = withCheckDigit(body);
          expect(luhnValid(number)).toBe(true);
          const i = position % number.length;
          const changed = number.slice(0, i) + ((Number(number[i]) + delta) % 10) + number.slice(i + 1);
          expect(luhnValid(changed)).toBe(false);
        },
      ),
    );
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
  });

  it('declines the decline test cards when charged, and keeps nothing of the number in the token', async () => {
    const charge = async (number: string) => {
      const card = await testProcessor.addCard({ number, expMonth: 1, expYear: 2040, cvc: '123' });
      expect(card.token).not.toContain(number.slice(0, 12));
      return testProcessor.charge({ token: card.token, amount: 100, currency: 'usd' });
    };
    expect((await charge(CARDS.visa)).ok).toBe(true);
    expect((await charge(CARDS.mastercard)).ok).toBe(true);
    expect(await charge(CARDS.declined)).toMatchObject({ ok: false, code: 'card_declined' });
    expect(await charge(CARDS.insufficientFunds)).toMatchObject({ ok: false, code: 'insufficient_funds' });
  });

  it('the logger redacts card numbers and cvc wherever a card appears', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const options = loggerOptions('info') as pino.LoggerOptions;
    const log = pino(options, sink);
    log.info({ body: { card: { number: CARDS.visa, cvc: '987', exp_month: 1 } } }, 'request');
    expect(lines.join('')).not.toContain(CARDS.visa);
    // read as JSON: the line's time and pid are digits too, and may hold "987" by chance
    expect(lines.map((line) => JSON.parse(line).body)).toEqual([
      { card: { number: '[redacted]', cvc: '[redacted]', exp_month: 1 } },
    ]);
  });
});
