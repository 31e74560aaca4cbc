// The environment's settings through /v1/settings (CONTRACT §11): key-by-key merges, prices
// following the discounts from the next request, the currency fixed once an invoice exists, and
// each environment with its own.
import { describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount } from './helpers/app.ts';
import { newCustomer, newInvoice } from './helpers/billing.ts';
import { mondayInNewYork } from './helpers/bookings.ts';

const scene = mondayInNewYork();

function price(api = scene.acct.api, frequency = 'weekly') {
  return api.post('/v1/services/pricing', {
    industry: 'junk-removal',
    zip: '10001',
    configuration: scene.sofa(frequency),
  });
}

describe('settings API', () => {
  it("answers the demo environment's settings with the account's name and currency", async () => {
    const res = await scene.acct.api.get('/v1/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: 'settings',
      business: { name: expect.stringMatching(/^Test Co \d+$/), email: null, phone: null },
      currency: 'usd',
      frequency_discounts: { 'one-time': 0, weekly: 20, 'bi-weekly': 15, monthly: 10 },
      cancellation_policy: {
        free_cancellation_hours: 24,
        late_cancellation_fee_percent: 50,
        in_progress_fee_percent: 100,
      },
    });
  });

  it('merges key by key, nested objects too', async () => {
    const patched = await scene.acct.api.patch('/v1/settings', { frequency_discounts: { weekly: 25 } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.frequency_discounts).toEqual({ 'one-time': 0, weekly: 25, 'bi-weekly': 15, monthly: 10 });
    const business = await scene.acct.api.patch('/v1/settings', {
      business: { name: 'Sparkle & Haul', phone: '+1 212 555 0100' },
      cancellation_policy: { free_cancellation_hours: 48 },
    });
    expect(business.status).toBe(200);
    expect(business.body).toMatchObject({
      business: { name: 'Sparkle & Haul', email: null, phone: '+1 212 555 0100' },
      frequency_discounts: { weekly: 25 },
      cancellation_policy: {
        free_cancellation_hours: 48,
        late_cancellation_fee_percent: 50,
        in_progress_fee_percent: 100,
      },
    });
    const email = await scene.acct.api.patch('/v1/settings', { business: { email: 'hello@sparkle.example' } });
    expect(email.body.business).toEqual({
      name: 'Sparkle & Haul',
      email: 'hello@sparkle.example',
      phone: '+1 212 555 0100',
    });
    const cleared = await scene.acct.api.patch('/v1/settings', { business: { phone: null } });
    expect(cleared.body.business.phone).toBeNull();
    expect((await scene.acct.api.get('/v1/settings')).body).toEqual(cleared.body);
    // an empty PATCH changes nothing
    expect((await scene.acct.api.patch('/v1/settings', {})).body).toEqual(cleared.body);
  });

  it('applies a frequency discount change to prices on the next request; bookings keep theirs', async () => {
    await scene.acct.api.patch('/v1/settings', { frequency_discounts: { weekly: 20 } });
    const before = await price();
    expect(before.body.discounts).toContainEqual(expect.objectContaining({ type: 'frequency' }));
    const customer = await scene.customer();
    const booked = await scene.book({
      customer_id: customer.id,
      address_id: customer.addressId,
      industry: 'junk-removal',
      configuration: scene.sofa('weekly'),
      scheduled_at: await scene.slotAt('junk-removal', '2026-06-03', '11:00', before.body.estimated_duration),
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);

    expect((await scene.acct.api.patch('/v1/settings', { frequency_discounts: { weekly: 50 } })).status).toBe(200);
    const after = await price();
    expect(after.body.discount).toBe(Math.round(after.body.subtotal * 0.5));
    expect(after.body.discount).toBeGreaterThan(before.body.discount);
    const kept = await scene.acct.api.get(`/v1/bookings/${booked.body.id}`);
    expect(kept.body.pricing).toEqual(booked.body.pricing);
    await scene.acct.api.patch('/v1/settings', { frequency_discounts: { weekly: 20 } });
  });

  it('changes the currency until the environment has an invoice, then refuses (409)', async () => {
    const other = await createTestAccount(scene.t, { demo: true });
    const changed = await other.api.patch('/v1/settings', { currency: 'eur' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.currency).toBe('eur');
    // live keeps the account's currency: environments are apart
    expect((await other.live.get('/v1/settings')).body.currency).toBe('usd');

    const customer = await newCustomer(other.api);
    const invoice = await newInvoice(other.api, customer.id);
    expect(invoice.currency).toBe('eur');
    const locked = await other.api.patch('/v1/settings', { currency: 'gbp' });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toMatchObject({ code: 'resource_in_use', param: 'currency' });
    expect(locked.body.error.message).toContain(invoice.id);
    // the same currency, and everything else, may still be sent
    const same = await other.api.patch('/v1/settings', { currency: 'eur', business: { name: 'Euro Cleaners' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ currency: 'eur', business: { name: 'Euro Cleaners' } });
    // the other environment has no invoice yet
    expect((await other.live.patch('/v1/settings', { currency: 'cad' })).status).toBe(200);
  });

  it('prices in the environment currency', async () => {
    const other = await createTestAccount(scene.t, { demo: true });
    await other.api.patch('/v1/settings', { currency: 'jpy' });
    const industries = await other.api.get('/v1/services/industries/junk-removal/products');
    const sofaId = industries.body.categories[0].products[0].id;
    const priced = await other.api.post('/v1/services/pricing', {
      industry: 'junk-removal',
      zip: '10001',
      configuration: { items: [{ product_id: sofaId, quantity: 1 }] },
    });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(priced.body.currency).toBe('jpy');
    expect((await price()).body.currency).toBe('usd');
  });

  it('answers bad input with 400 naming the field, and changes nothing', async () => {
    const before = (await scene.acct.api.get('/v1/settings')).body;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ currency: 'xyz' }, 'currency', 'parameter_invalid'],
      [{ currency: 'USD' }, 'currency', 'parameter_invalid'],
      [{ currency: 'dollars' }, 'currency', 'parameter_invalid'],
      [{ frequency_discounts: { weekly: 101 } }, 'frequency_discounts.weekly', 'parameter_invalid'],
      [{ frequency_discounts: { weekly: -1 } }, 'frequency_discounts.weekly', 'parameter_invalid'],
      [{ frequency_discounts: { weekly: 10.1234 } }, 'frequency_discounts.weekly', 'parameter_invalid'],
      [{ frequency_discounts: { daily: 5 } }, 'frequency_discounts.daily', 'parameter_unknown'],
      [
        { cancellation_policy: { free_cancellation_hours: 1.5 } },
        'cancellation_policy.free_cancellation_hours',
        'parameter_invalid',
      ],
      [
        { cancellation_policy: { late_cancellation_fee_percent: 33.33333 } },
        'cancellation_policy.late_cancellation_fee_percent',
        'parameter_invalid',
      ],
      [{ business: { name: '' } }, 'business.name', 'parameter_invalid'],
      [{ business: { email: 'not an e-mail' } }, 'business.email', 'parameter_invalid'],
      [{ business: { name: null } }, 'business.name', 'parameter_invalid'],
      [{ object: 'settings' }, 'object', 'parameter_unknown'],
      [{ frequency_discounts: { weekly: 30 }, currency: 'zzz' }, 'currency', 'parameter_invalid'],
    ];
    for (const [body, param, code] of cases) {
      const res = await scene.acct.api.patch('/v1/settings', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatchObject({ code, param });
    }
    expect((await scene.acct.api.get('/v1/settings')).body).toEqual(before);
  });

  it('keeps each environment and account to its own settings', async () => {
    await scene.acct.api.patch('/v1/settings', {
      business: { name: 'Test-side name' },
      frequency_discounts: { monthly: 11 },
    });
    const live = await scene.acct.live.get('/v1/settings');
    expect(live.body.business.name).not.toBe('Test-side name');
    expect(live.body.frequency_discounts.monthly).not.toBe(11);
    const other = await createTestAccount(scene.t);
    const fresh = await other.api.get('/v1/settings');
    expect(fresh.body).toMatchObject({
      business: { name: expect.stringMatching(/^Test Co/) },
      frequency_discounts: { 'one-time': 0, weekly: 0, 'bi-weekly': 0, monthly: 0 },
    });
    expect(fresh.body.business.name).not.toBe('Test-side name');
    // a first PATCH in an environment without settings starts from the defaults
    const first = await other.live.patch('/v1/settings', { frequency_discounts: { weekly: 5 } });
    expect(first.body.frequency_discounts).toEqual({ 'one-time': 0, weekly: 5, 'bi-weekly': 0, monthly: 0 });
    const rows = await query<{ environment: string }>(
      scene.t.database.sql,
      sql`select environment from catalog_settings where account_id = ${other.accountId}`,
    );
    expect(rows.map((row) => row.environment)).toEqual(['live']);
  });

  it('names the business of the settings in the e-mails customers get', async () => {
    await scene.acct.api.patch('/v1/settings', { business: { name: 'Mail Name Co' } });
    const customer = await newCustomer(scene.acct.api);
    const [mail] = await query<{ subject: string }>(
      scene.t.database.sql,
      sql`select subject from emails where account_id = ${scene.acct.accountId} and to_address = ${customer.email}`,
    );
    expect(mail?.subject).toContain('Mail Name Co');
  });
});
