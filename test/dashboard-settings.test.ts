// Settings > Coupons, Policies, Business and Catalog file over HTTP: the forms call the same
// services as /v1 and show their refusals next to the field; the catalog file downloads as an
// attachment and an upload with a mistake lists it by line and changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { query, sql } from '../src/core/db.ts';
import { EMPTY_COUPON } from '../src/modules/dashboard/coupons.view.ts';
import { createTestAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { newCustomer, newInvoice } from './helpers/billing.ts';
import { csrfFrom, errorNextTo, type FormClient, signedInClient, startSignedIn } from './helpers/forms.ts';

const clock = new ManualClock('2026-06-01T12:00:00Z');
let t: TestApp;
let acct: TestAccount;
let browser: FormClient;
let csrf: string;

function signedIn(account: TestAccount): Promise<FormClient> {
  return signedInClient(t.url, account);
}

beforeAll(async () => {
  ({ t, acct, browser, csrf } = await startSignedIn({ clock, workers: false }));
  return t.close;
});

const COUPONS = '/dashboard/settings/coupons';

// The add form as a browser posts it: every text field, empty unless given (unchecked boxes are not sent).
const { industries: _industries, is_active: _isActive, ...EMPTY_FIELDS } = EMPTY_COUPON;

function couponFields(fields: Record<string, string | string[]>) {
  return { _csrf: csrf, ...EMPTY_FIELDS, ...fields };
}

describe('Settings > Coupons', () => {
  it('lists the coupons with discount, validity and redemptions, in the nav under Settings', async () => {
    const page = await browser.get(COUPONS);
    expect(page.status).toBe(200);
    expect(page.text).toContain('WELCOME10');
    expect(page.text).toContain('10% off');
    expect(page.text).toContain('$20.00 off');
    expect(page.text).toMatch(/<a href="\/dashboard\/settings\/coupons" aria-current="page">Coupons<\/a>/);
  });

  it('adds a coupon; a duplicate code is shown next to the code field, keeping what was typed', async () => {
    const added = await browser.post(
      COUPONS,
      couponFields({ code: 'FALL15', percent_off: '15', valid_until: '2026-11-30', industries: ['junk-removal'] }),
    );
    expect(added.status).toBe(303);
    const api = await acct.api.get('/v1/coupons?per_page=100');
    const fall = api.body.data.find((c: { code: string }) => c.code === 'FALL15');
    expect(fall).toMatchObject({
      percent_off: 15,
      amount_off: null,
      valid_until: '2026-11-30T23:59:59.000Z',
      industries: ['junk-removal'],
      is_active: true,
    });

    const duplicate = await browser.post(
      COUPONS,
      couponFields({ code: 'fall15', amount_off: '5.50', description: 'Typed' }),
    );
    expect(duplicate.status).toBe(400);
    expect(errorNextTo(duplicate.text, 'code')).toMatch(/already exists/);
    expect(duplicate.text).toMatch(/id="coupon-code" name="code" value="fall15"[^>]*aria-invalid="true"/);
    expect(duplicate.text).toContain('value="5.50"');

    const bad = await browser.post(COUPONS, couponFields({ code: 'BOTH', percent_off: '10', amount_off: '3' }));
    expect(bad.status).toBe(400);
    expect(errorNextTo(bad.text, 'percent_off')).toMatch(/exactly one/);
    const words = await browser.post(COUPONS, couponFields({ code: 'WORDS', amount_off: 'ten dollars' }));
    expect(errorNextTo(words.text, 'amount_off')).toBeTruthy();
    const window = await browser.post(
      COUPONS,
      couponFields({ code: 'WINDOW', percent_off: '5', valid_from: '2026-07-02', valid_until: '2026-07-01' }),
    );
    expect(errorNextTo(window.text, 'valid_until')).toMatch(/after valid_from/);
    const stale = await browser.post(
      COUPONS,
      couponFields({ code: 'STALE', percent_off: '5', industries: ['pool-care'] }),
    );
    expect(errorNextTo(stale.text, 'industries')).toMatch(/pool-care/);
  });

  it('edits a coupon, then archives it after a confirmation step', async () => {
    const coupon = (await acct.api.post('/v1/coupons', { code: 'EDITME', amount_off: 1000 })).body;
    const page = await browser.get(`${COUPONS}/${coupon.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="10.00"');
    const saved = await browser.post(
      `${COUPONS}/${coupon.id}`,
      couponFields({ code: 'EDITME', amount_off: '12.50', max_redemptions: '3', description: 'Edited' }),
    );
    expect(saved.status).toBe(303);
    expect((await acct.api.get(`/v1/coupons/${coupon.id}`)).body).toMatchObject({
      amount_off: 1250,
      max_redemptions: 3,
      description: 'Edited',
      is_active: false, // the box was not ticked
    });

    const confirm = await browser.get(`${COUPONS}/${coupon.id}/archive`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Archive EDITME?');
    expect((await acct.api.get(`/v1/coupons/${coupon.id}`)).status).toBe(200);
    const archived = await browser.post(`${COUPONS}/${coupon.id}/archive`, { _csrf: csrf });
    expect(archived.status).toBe(303);
    expect((await acct.api.get(`/v1/coupons/${coupon.id}`)).status).toBe(404);
    expect((await browser.get(`${COUPONS}/${coupon.id}`)).status).toBe(404);
    // without the CSRF token nothing happens
    const other = (await acct.api.post('/v1/coupons', { code: 'KEEPME', amount_off: 100 })).body;
    expect((await browser.post(`${COUPONS}/${other.id}/archive`, {})).status).toBe(403);
    expect((await acct.api.get(`/v1/coupons/${other.id}`)).status).toBe(200);
  });

  it("shows another account's or environment's coupon as not found", async () => {
    const live = (await acct.live.post('/v1/coupons', { code: 'LIVEONLY', percent_off: 5 })).body;
    expect((await browser.get(`${COUPONS}/${live.id}`)).status).toBe(404);
    expect((await browser.post(`${COUPONS}/${live.id}/archive`, { _csrf: csrf })).status).toBe(404);
    expect((await acct.live.get(`/v1/coupons/${live.id}`)).status).toBe(200);
    expect((await browser.get(COUPONS)).text).not.toContain('LIVEONLY');
  });
});

describe('Settings > Policies and Business', () => {
  const POLICIES = '/dashboard/settings/policies';
  const policy = (fields: Record<string, string> = {}) => ({
    _csrf: csrf,
    'frequency_discounts.one-time': '0',
    'frequency_discounts.weekly': '22.5',
    'frequency_discounts.bi-weekly': '15',
    'frequency_discounts.monthly': '10',
    'cancellation_policy.free_cancellation_hours': '36',
    'cancellation_policy.late_cancellation_fee_percent': '40',
    'cancellation_policy.in_progress_fee_percent': '100',
    ...fields,
  });

  it('saves the policies, and shows a bad value next to its field', async () => {
    const page = await browser.get(POLICIES);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="frequency_discounts.weekly"');
    const saved = await browser.post(POLICIES, policy());
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${POLICIES}?saved=1`);
    const settings = (await acct.api.get('/v1/settings')).body;
    expect(settings.frequency_discounts.weekly).toBe(22.5);
    expect(settings.cancellation_policy).toEqual({
      free_cancellation_hours: 36,
      late_cancellation_fee_percent: 40,
      in_progress_fee_percent: 100,
    });
    expect((await browser.get(`${POLICIES}?saved=1`)).text).toContain('value="22.5"');

    const bad = await browser.post(POLICIES, policy({ 'frequency_discounts.monthly': '120' }));
    expect(bad.status).toBe(400);
    expect(errorNextTo(bad.text, 'frequency_discounts.monthly')).toBeTruthy();
    const words = await browser.post(POLICIES, policy({ 'cancellation_policy.free_cancellation_hours': 'a day' }));
    expect(errorNextTo(words.text, 'cancellation_policy.free_cancellation_hours')).toBeTruthy();
    expect((await acct.api.get('/v1/settings')).body).toEqual(settings);
  });

  it('saves the business details; the currency is refused once an invoice exists', async () => {
    const BUSINESS = '/dashboard/settings/business';
    const other = await createTestAccount(t);
    const client = await signedIn(other);
    const token = csrfFrom((await client.get(BUSINESS)).text);
    const saved = await client.post(BUSINESS, {
      _csrf: token,
      name: 'Tidy Homes',
      email: 'hi@tidy.example',
      phone: '',
      currency: 'eur',
    });
    expect(saved.status).toBe(303);
    expect((await other.api.get('/v1/settings')).body).toMatchObject({
      business: { name: 'Tidy Homes', email: 'hi@tidy.example', phone: null },
      currency: 'eur',
    });
    const badEmail = await client.post(BUSINESS, { _csrf: token, name: 'Tidy', email: 'nope', currency: 'eur' });
    expect(errorNextTo(badEmail.text, 'business.email')).toBeTruthy();

    await newInvoice(other.api, (await newCustomer(other.api)).id);
    const locked = await client.post(BUSINESS, { _csrf: token, name: 'Tidy Homes', email: '', currency: 'usd' });
    expect(locked.status).toBe(400);
    expect(errorNextTo(locked.text, 'currency')).toMatch(/fixed/);
    expect((await other.api.get('/v1/settings')).body.currency).toBe('eur');
  });
});

describe('Settings > Catalog file', () => {
  const CATALOG = '/dashboard/settings/catalog-file';

  function upload(text: string, fields: Record<string, string> = { confirm: '1' }, name = 'catalog.json') {
    const form = new FormData();
    form.append('_csrf', csrf);
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([text], { type: 'application/json' }), name);
    return browser.postMultipart(CATALOG, form);
  }

  it('downloads the export as an attachment', async () => {
    const res = await browser.get(`${CATALOG}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="fieldhand-catalog-test-2026-06-01.json"',
    );
    const file = JSON.parse(res.text);
    expect(file.format).toBe('fieldhand-catalog/1');
    expect(file.coupons.map((c: { code: string }) => c.code)).toContain('WELCOME10');
  });

  it('shows the problems of an upload by line and changes nothing; a good file imports with a summary', async () => {
    const exported = (await browser.get(`${CATALOG}/export`)).text;
    const broken = exported.replace(/"base_price": 8900/, '"base_price": "lots"');
    const brokenLine = broken.split('\n').findIndex((line) => line.includes('"lots"')) + 1;
    const failed = await upload(broken);
    expect(failed.status).toBe(400);
    expect(failed.text).toContain('catalog.json has 1 problem');
    expect(failed.text).toContain('Nothing was changed');
    expect(failed.text).toMatch(
      new RegExp(
        `<td class="num">${brokenLine}</td>\\s*<td class="problem-cell"><code>industries\\[\\d\\]\\.categories\\[\\d\\]\\.products\\[\\d\\]\\.base_price</code><div>must be integer</div>`,
      ),
    );
    expect((await browser.get(`${CATALOG}/export`)).text).toBe(exported);

    const unconfirmed = await upload(exported, {});
    expect(unconfirmed.status).toBe(400);
    expect(errorNextTo(unconfirmed.text, 'confirm')).toBeTruthy();
    const empty = new FormData();
    empty.append('_csrf', csrf);
    empty.append('confirm', '1');
    expect(errorNextTo((await browser.postMultipart(CATALOG, empty)).text, 'file')).toMatch(/Choose/);

    const file = JSON.parse(exported);
    file.coupons.push({ code: 'FROMFILE', percent_off: 3 });
    const imported = await upload(JSON.stringify(file, null, 2));
    expect(imported.status).toBe(200);
    expect(imported.text).toContain('Imported catalog.json');
    expect(imported.text).toMatch(/<div class="label">Coupons<\/div><div class="value">\d+<\/div>/);
    const codes = (await acct.api.get('/v1/coupons?per_page=100')).body.data.map((c: { code: string }) => c.code);
    expect(codes).toContain('FROMFILE');
  });

  it('takes a catalog file larger than a logo', async () => {
    const file = JSON.parse((await browser.get(`${CATALOG}/export`)).text);
    file.industries[0].description = 'x'.repeat(1900);
    // padding in whitespace: JSON allows it, and it makes the file ~300 KB
    const text = JSON.stringify(file, null, 2) + ' '.repeat(300 * 1024);
    const imported = await upload(text);
    expect(imported.status, imported.text.slice(0, 500)).toBe(200);
    const rows = await query<{ description: string }>(
      t.database.sql,
      sql`select description from industries where account_id = ${acct.accountId} and environment = 'test'
          and archived_at is null order by position limit 1`,
    );
    expect(rows[0]?.description).toHaveLength(1900);
  });
});
