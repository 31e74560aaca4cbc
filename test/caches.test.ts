// The caches (docs/caching.md): a credential is believed for half a second per process and
// forgotten at once by the process that revokes it; the business setup is read at the catalog
// version that every catalog write moves in its own transaction; a booking list asked for again
// keeps each booking's JSON with its rows' versions. The instance tests run a second server
// process on the same PostgreSQL database, sharing nothing else with the first.
import { beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createApiKey, revokeApiKey } from '../src/modules/accounts/index.ts';
import { exportCatalog, importCatalog } from '../src/modules/catalog/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { customerWithAddress, sofaPickup } from './helpers/bookings.ts';
import { onPostgres, openTestDatabase } from './helpers/database.ts';
import { type Api, apiClient } from './helpers/http.ts';
import { exchangeCode, issueCode, postForm, registerApp } from './helpers/oauth.ts';
import { cleanUpAfterAll, startServerProcess } from './helpers/processes.ts';
import { createStaff, createZone, NO_DAYS, zoneBody } from './helpers/setup.ts';

/** The response's text as sent: a kept list must be byte for byte the list written afresh. */
async function listText(baseUrl: string, key: string, path: string): Promise<string> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.text();
}

/** Asks for `path` three times (written afresh, then kept, then read from what was kept): one answer. */
async function keptList(baseUrl: string, key: string, path: string) {
  const first = await listText(baseUrl, key, path);
  expect(await listText(baseUrl, key, path)).toBe(first);
  expect(await listText(baseUrl, key, path)).toBe(first);
  return JSON.parse(first) as {
    data: { id: string; status: string; notes: string | null; customer: { name: string; email: string } }[];
  };
}

/** A Monday two to three weeks ahead (the demo zones work Monday to Saturday, 08:00-18:00). */
function mondayAhead(): string {
  const day = new Date(Date.now() + 14 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
  return day.toISOString().slice(0, 10);
}
const MONDAY = mondayAhead();

async function catalogVersion(t: TestApp, acct: TestAccount): Promise<string | null> {
  const rows = await query<{ version: string }>(
    t.database.sql,
    sql`select version::text as version from catalog_versions
        where account_id = ${acct.accountId} and environment = 'test'`,
  );
  return rows[0]?.version ?? null;
}

async function firstProduct(api: Api, industry = 'junk-removal'): Promise<string> {
  const res = await api.get(`/v1/services/industries/${industry}/products`);
  return res.body.categories[0].products[0].id as string;
}

const quote = (api: Api, productId: string, more: Record<string, unknown> = {}) =>
  api.post('/v1/services/pricing', {
    industry: 'junk-removal',
    zip: '10001',
    configuration: { items: [{ product_id: productId, quantity: 1 }] },
    ...more,
  });

const slots = (api: Api, zip: string) =>
  api.get(`/v1/services/availability?zip=${zip}&industry=junk-removal&date=${MONDAY}&duration=20`);

describe('catalog version', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await startTestApp({ workers: false });
    acct = await createTestAccount(t, { demo: true });
    return t.close;
  });

  it('is set by the demo seeder and moved by every business-setup write, by none that fails', async () => {
    expect(await catalogVersion(t, acct)).not.toBeNull();
    const api = acct.api;
    const product = await firstProduct(api);
    const extras = await api.get('/v1/services/industries/junk-removal/extras');
    const zone = await createZone(api);
    const member = await createStaff(api, [zone.id]);
    const writes: [string, () => Promise<{ status: number }>][] = [
      ['POST industry', () => api.post('/v1/services/industries', { name: 'Pools', configuration_type: 'item_based' })],
      ['PATCH industry', () => api.patch('/v1/services/industries/pools', { description: 'Pool care' })],
      ['POST category', () => api.post('/v1/services/industries/pools/categories', { name: 'Pumps' })],
      ['PATCH product', () => api.patch(`/v1/services/products/${product}`, { base_price: 12_345 })],
      ['PATCH extra', () => api.patch(`/v1/services/extras/${extras.body.data[0].id}`, { price: 777 })],
      ['POST zone', () => api.post('/v1/zones', zoneBody())],
      ['PATCH zone', () => api.patch(`/v1/zones/${zone.id}`, { zips: [...zone.zips, '49999'] })],
      ['POST staff', () => createStaff(api, [zone.id]).then(() => ({ status: 201 }))],
      ['PATCH staff', () => api.patch(`/v1/staff/${member.id}`, { hours: NO_DAYS })],
      ['DELETE staff', () => api.delete(`/v1/staff/${member.id}`)],
      ['DELETE zone', () => api.delete(`/v1/zones/${zone.id}`)],
      ['PATCH settings', () => api.patch('/v1/settings', { frequency_discounts: { weekly: 12 } })],
      [
        'catalog import',
        async () => {
          const file = await exportCatalog(t.app.deps, acct.tenant());
          await importCatalog(t.app.deps, acct.tenant(), JSON.stringify(file));
          return { status: 200 };
        },
      ],
    ];
    for (const [what, write] of writes) {
      const before = await catalogVersion(t, acct);
      const res = await write();
      expect(res.status, what).toBeLessThan(300);
      expect(await catalogVersion(t, acct), what).not.toBe(before);
    }
    const before = await catalogVersion(t, acct);
    expect((await api.patch(`/v1/services/products/${product}`, { base_price: -1 })).status).toBe(400);
    expect(await catalogVersion(t, acct)).toBe(before);
  });

  it('prices and lists with a change on the next request, after the cache was warm', async () => {
    const product = await firstProduct(acct.api);
    const first = await quote(acct.api, product);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await quote(acct.api, product);
    expect((await acct.api.patch(`/v1/services/products/${product}`, { base_price: 31_400 })).status).toBe(200);
    expect((await quote(acct.api, product)).body).not.toEqual(first.body);
    expect(JSON.stringify((await quote(acct.api, product)).body)).toContain('31400');

    await acct.api.get('/v1/services/industries');
    await acct.api.patch('/v1/services/industries/junk-removal', { name: 'Hauling' });
    const listed = await acct.api.get('/v1/services/industries');
    expect(listed.body.data.map((industry: { name: string }) => industry.name)).toContain('Hauling');
  });

  it('lists bookings with every change on the next request, once the list is kept', async () => {
    const customer = await customerWithAddress(acct.api);
    const first = await sofaPickup(acct.api, MONDAY, { time: '09:00', customer });
    const second = await sofaPickup(acct.api, MONDAY, { time: '11:00', customer });
    const otherCustomer = await customerWithAddress(acct.api);
    const others = await sofaPickup(acct.api, MONDAY, { time: '13:00', customer: otherCustomer });
    const list = (path = '/v1/bookings?per_page=100') => keptList(t.url, acct.testKey, path);
    const byId = async (id: string, path?: string) => (await list(path)).data.find((booking) => booking.id === id);
    let fresh = 0;
    /** The kept list's bookings are byte for byte those of a list this process writes afresh. */
    const sameAsFresh = async () => {
      const kept = await listText(t.url, acct.testKey, '/v1/bookings?per_page=100');
      const written = await listText(t.url, acct.testKey, `/v1/bookings?per_page=${90 + ++fresh}`);
      const data = (text: string) => text.slice(0, text.lastIndexOf(',"pagination":'));
      expect(data(kept)).toBe(data(written));
    };
    expect((await list()).data.map((booking) => booking.id)).toEqual(
      expect.arrayContaining([first.id, second.id, others.id]),
    );
    await sameAsFresh();

    // the booking's own row
    expect((await acct.api.patch(`/v1/bookings/${first.id}`, { notes: 'Gate code 4411' })).status).toBe(200);
    expect((await byId(first.id))?.notes).toBe('Gate code 4411');
    expect((await byId(second.id))?.notes).toBe(second.notes);
    await sameAsFresh();

    // the customer's row, through the API and straight in the database
    expect((await acct.api.patch(`/v1/customers/${customer.id}`, { first_name: 'Beatrix' })).status).toBe(200);
    for (const id of [first.id, second.id]) expect((await byId(id))?.customer.name).toMatch(/^Beatrix /);
    await query(t.database.sql, sql`update customers set email = 'moved@example.com' where id = ${customer.id}`);
    expect((await byId(second.id))?.customer.email).toBe('moved@example.com');
    expect((await byId(others.id))?.customer.email).toBe(otherCustomer.email);
    await sameAsFresh();

    // a status, on the whole list, a filtered one and the customer's
    const confirmed = '/v1/bookings?status=confirmed&per_page=100';
    expect((await list(confirmed)).data.map((booking) => booking.id)).toContain(first.id);
    expect((await acct.api.post(`/v1/bookings/${first.id}/cancel`, {})).status).toBe(200);
    expect((await list(confirmed)).data.map((booking) => booking.id)).not.toContain(first.id);
    expect((await byId(first.id))?.status).toBe('cancelled');
    expect((await byId(first.id, `/v1/customers/${customer.id}/bookings`))?.status).toBe('cancelled');
    await sameAsFresh();
  });

  it('forgets a key revoked by this process at once', async () => {
    const { key, id } = await createApiKey(t.app.deps, acct.tenant());
    const api = apiClient(t.url, key);
    expect((await api.get('/v1/customers')).status).toBe(200);
    await revokeApiKey(t.app.deps, acct.tenant(), id);
    expect((await api.get('/v1/customers')).status).toBe(401);
  });
});

describe.skipIf(!onPostgres())('two instances on one database', () => {
  const cleanups = cleanUpAfterAll();
  let a: TestApp;
  let b: { url: string };
  let acct: TestAccount;
  beforeAll(async () => {
    const database = await openTestDatabase();
    cleanups.push(() => database.close());
    a = await startTestApp({ database, workers: false });
    cleanups.push(() => a.close());
    acct = await createTestAccount(a, { demo: true });
    b = await startServerProcess({ DATABASE_URL: database.url!, RATE_LIMIT_MAX: '100000' });
  }, 180_000);

  /** Polls until `refused` holds; fails if that took more than a second. */
  async function refusedWithinASecond(request: () => Promise<{ status: number }>) {
    const start = Date.now();
    for (;;) {
      const status = (await request()).status;
      if (status === 401) return Date.now() - start;
      expect(Date.now() - start, 'still accepted after 1 s').toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('refuses a key revoked through instance A on A at once and on B within 1 s', async () => {
    const { key, id } = await createApiKey(a.app.deps, acct.tenant());
    const onA = apiClient(a.url, key);
    const onB = apiClient(b.url, key);
    for (let i = 0; i < 3; i++) expect((await onB.get('/v1/customers')).status).toBe(200);
    expect((await onA.get('/v1/customers')).status).toBe(200);
    await revokeApiKey(a.app.deps, acct.tenant(), id);
    expect((await onA.get('/v1/customers')).status).toBe(401);
    await refusedWithinASecond(() => onB.get('/v1/customers'));
  });

  it('refuses an OAuth access token revoked through instance A on A at once and on B within 1 s', async () => {
    const app = await registerApp(a, acct);
    const code = await issueCode(a, app, acct.userId);
    const tokens = await exchangeCode(a, app, code);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const onA = apiClient(a.url, tokens.body.access_token);
    const onB = apiClient(b.url, tokens.body.access_token);
    expect((await onB.get('/v1/customers')).status).toBe(200);
    expect((await onA.get('/v1/customers')).status).toBe(200);
    const revoked = await postForm(
      a,
      '/oauth/revoke',
      { token: tokens.body.access_token },
      { id: app.clientId, secret: app.clientSecret! },
    );
    expect(revoked.status).toBe(200);
    expect((await onA.get('/v1/customers')).status).toBe(401);
    await refusedWithinASecond(() => onB.get('/v1/customers'));
  });

  it("lists on B a booking's change made through A on the next request, once B keeps the list", async () => {
    const customer = await customerWithAddress(acct.api);
    const booking = await sofaPickup(acct.api, MONDAY, { time: '15:00', customer });
    const path = `/v1/customers/${customer.id}/bookings`;
    expect((await keptList(b.url, acct.testKey, path)).data.map((kept) => kept.notes)).toEqual([booking.notes]);
    expect((await acct.api.patch(`/v1/bookings/${booking.id}`, { notes: 'Ring twice' })).status).toBe(200);
    expect((await keptList(b.url, acct.testKey, path)).data.map((kept) => kept.notes)).toEqual(['Ring twice']);
    expect((await acct.api.patch(`/v1/customers/${customer.id}`, { last_name: 'Moved' })).status).toBe(200);
    expect((await keptList(b.url, acct.testKey, path)).data[0]?.customer.name).toMatch(/ Moved$/);
  });

  it('answers the next request on B with a catalog change made through A', async () => {
    const onB = apiClient(b.url, acct.testKey);
    const product = await firstProduct(acct.api);

    // a price
    const before = await quote(onB, product);
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect((await acct.api.patch(`/v1/services/products/${product}`, { base_price: 27_100 })).status).toBe(200);
    expect(JSON.stringify((await quote(onB, product)).body)).toContain('27100');

    // a coupon
    const coupon = await acct.api.post('/v1/coupons', { code: 'CACHE5', description: 'Five', percent_off: 5 });
    expect(coupon.status, JSON.stringify(coupon.body)).toBe(201);
    const withFive = await quote(onB, product, { coupon_code: 'CACHE5' });
    expect(withFive.status, JSON.stringify(withFive.body)).toBe(200);
    expect((await acct.api.patch(`/v1/coupons/${coupon.body.id}`, { percent_off: 50 })).status).toBe(200);
    expect((await quote(onB, product, { coupon_code: 'CACHE5' })).body.total).toBeLessThan(withFive.body.total);

    // a zone's ZIPs
    const zone = await createZone(acct.api);
    const member = await createStaff(acct.api, [zone.id]);
    expect((await slots(onB, '49998')).body.zone).toBeNull();
    expect((await acct.api.patch(`/v1/zones/${zone.id}`, { zips: [...zone.zips, '49998'] })).status).toBe(200);
    const served = await slots(onB, '49998');
    expect(served.body.zone?.id).toBe(zone.id);
    expect(served.body.available_slots.length).toBeGreaterThan(0);

    // a staff member's hours
    expect((await acct.api.patch(`/v1/staff/${member.id}`, { hours: NO_DAYS })).status).toBe(200);
    expect((await slots(onB, '49998')).body.available_slots).toEqual([]);
  });
});
