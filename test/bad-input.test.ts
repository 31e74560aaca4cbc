// Bad input is a 4xx in the contract's shape, never a 500 (CONTRACT §12): one row per input,
// each checked for status, code, type, param and Request-Id; then the deep-nesting cases of the
// unauthenticated endpoints, and the rate-limit headers on every answer to a valid credential.
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { ERRORS, type ErrorCode } from '../src/core/errors.ts';
import { createTestAccount, startTestApp, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { formClient } from './helpers/forms.ts';
import { exchangeCode, issueCode, registerApp } from './helpers/oauth.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ workers: false }, { demo: true }));
  return t.close;
});

const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** `{"first_name": [[…]]}`: the body object plus `depth - 1` arrays. */
const nestedField = (depth: number) => `{"first_name":${deepArrays(depth - 1)}}`;

const JSON_TYPE = { 'content-type': 'application/json' };
const booking = (scheduledAt: string) =>
  JSON.stringify({
    customer_id: 'cust_x',
    industry: 'residential-cleaning',
    configuration: { bedrooms: 1, bathrooms: 1 },
    scheduled_at: scheduledAt,
    address_id: 'addr_x',
  });
const invoice = (dueDate: string) =>
  JSON.stringify({
    customer_id: 'cust_x',
    line_items: [{ description: 'Cleaning', quantity: 1, unit_price: 100 }],
    due_date: dueDate,
  });
const availability = (date: string) => `/v1/services/availability?zip=10001&industry=residential-cleaning&date=${date}`;

interface Row {
  name: string;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Blob;
  status: number;
  code: ErrorCode;
  param?: string;
}

// biome-ignore format: one input per line reads as the table it is
const rows: Row[] = [
  // JSON nested deeper than 32 levels, on every kind of route that reads JSON
  { name: '20,000 nested arrays', method: 'POST', path: '/v1/customers', headers: JSON_TYPE, body: deepArrays(20_000), status: 400, code: 'parameter_invalid' },
  { name: '20,000 nested objects', method: 'POST', path: '/v1/customers', headers: JSON_TYPE, body: deepObjects(20_000), status: 400, code: 'parameter_invalid' },
  { name: '33 levels', method: 'POST', path: '/v1/customers', headers: JSON_TYPE, body: nestedField(33), status: 400, code: 'parameter_invalid' },
  { name: '32 levels reach validation', method: 'PATCH', path: '/v1/customers/cust_x', headers: JSON_TYPE, body: nestedField(32), status: 400, code: 'parameter_invalid', param: 'first_name' },
  { name: 'deep PATCH', method: 'PATCH', path: '/v1/customers/cust_x', headers: JSON_TYPE, body: deepArrays(5_000), status: 400, code: 'parameter_invalid' },
  { name: 'deep pricing', method: 'POST', path: '/v1/services/pricing', headers: JSON_TYPE, body: deepObjects(100), status: 400, code: 'parameter_invalid' },
  { name: 'deep +json', method: 'POST', path: '/v1/bookings', headers: { 'content-type': 'application/vnd.api+json' }, body: deepArrays(40), status: 400, code: 'parameter_invalid' },
  { name: 'deep with a charset', method: 'POST', path: '/v1/invoices', headers: { 'content-type': 'application/json; charset=utf-8' }, body: deepArrays(40), status: 400, code: 'parameter_invalid' },

  // NUL characters: in the path nothing can match (404), in the query or body a 400 naming the field
  { name: 'NUL in a path id', path: '/v1/customers/cust_%00abc', status: 404, code: 'resource_not_found' },
  { name: 'NUL as the whole path id', path: '/v1/invoices/%00', status: 404, code: 'resource_not_found' },
  { name: 'NUL in a slug', path: '/v1/services/industries/residential%00cleaning/products', status: 404, code: 'resource_not_found' },
  { name: 'NUL in a second path id', method: 'DELETE', path: '/v1/customers/cust_x/addresses/addr_%00', status: 404, code: 'resource_not_found' },
  { name: 'NUL in the query', path: '/v1/customers?search=a%00b', status: 400, code: 'parameter_invalid', param: 'search' },
  { name: 'NUL in a body field', method: 'POST', path: '/v1/customers', headers: JSON_TYPE, body: '{"first_name":"a\\u0000"}', status: 400, code: 'parameter_invalid', param: 'first_name' },
  { name: 'NUL in a body key', method: 'POST', path: '/v1/customers', headers: JSON_TYPE, body: '{"address":{"x\\u0000":1}}', status: 400, code: 'parameter_invalid', param: 'address.x\u0000' },

  // path ids outside [A-Za-z0-9_] name nothing
  { name: 'dash in an id', path: '/v1/customers/cust-abc', status: 404, code: 'resource_not_found' },
  { name: 'dot in an id', path: '/v1/bookings/bk.abc', status: 404, code: 'resource_not_found' },
  { name: 'accented id', path: '/v1/webhooks/%C3%A9', status: 404, code: 'resource_not_found' },
  { name: 'emoji id', path: '/v1/invoices/inv_%F0%9F%98%80', status: 404, code: 'resource_not_found' },
  { name: 'encoded slash in an id', method: 'POST', path: '/v1/bookings/bk%2F1/cancel', status: 404, code: 'resource_not_found' },
  { name: 'space in an id', method: 'POST', path: '/v1/webhooks/wh_x/deliveries/whd%20x/retry', status: 404, code: 'resource_not_found' },
  { name: '300-character id', path: `/v1/customers/${'a'.repeat(300)}`, status: 404, code: 'resource_not_found' },
  { name: '5,000-character id', path: `/v1/customers/cust_x/payment_methods/${'b'.repeat(5_000)}`, method: 'DELETE', status: 404, code: 'resource_not_found' },
  { name: 'slug with a space', path: '/v1/services/industries/residential%20cleaning/extras', status: 404, code: 'resource_not_found' },
  { name: 'unknown slug', path: '/v1/services/industries/no-such-industry/products', status: 404, code: 'resource_not_found' },

  // page numbers and sizes
  { name: 'page=1e308', path: '/v1/customers?page=1e308', status: 400, code: 'parameter_invalid', param: 'page' },
  { name: 'page above 1,000,000', path: '/v1/bookings?page=1000001', status: 400, code: 'parameter_invalid', param: 'page' },
  { name: 'page with 400 digits', path: `/v1/invoices?page=${'9'.repeat(400)}`, status: 400, code: 'parameter_invalid', param: 'page' },
  { name: 'page=Infinity', path: '/v1/webhooks?page=Infinity', status: 400, code: 'parameter_invalid', param: 'page' },
  { name: 'page=-1e308', path: '/v1/customers?page=-1e308', status: 400, code: 'parameter_invalid', param: 'page' },
  { name: 'per_page=1e3', path: '/v1/customers?per_page=1e3', status: 400, code: 'parameter_invalid', param: 'per_page' },
  { name: 'min_amount=1e30', path: '/v1/invoices?min_amount=1e30', status: 400, code: 'parameter_invalid', param: 'min_amount' },
  { name: 'huge amount in a body', method: 'POST', path: '/v1/invoices/inv_x/pay', headers: JSON_TYPE, body: '{"amount":1e300}', status: 400, code: 'parameter_invalid', param: 'amount' },

  // dates and timestamps: no real calendar date, or outside 1970-9999, in query and body
  { name: 'date_from 2026-13-45', path: '/v1/bookings?date_from=2026-13-45', status: 400, code: 'parameter_invalid', param: 'date_from' },
  { name: 'date_to 9999-99-99', path: '/v1/bookings?date_to=9999-99-99', status: 400, code: 'parameter_invalid', param: 'date_to' },
  { name: 'created_after year 0', path: '/v1/customers?created_after=0000-01-01', status: 400, code: 'parameter_invalid', param: 'created_after' },
  { name: 'updated_after 30 February', path: '/v1/customers?updated_after=2026-02-30', status: 400, code: 'parameter_invalid', param: 'updated_after' },
  { name: 'date_from 1969', path: '/v1/invoices?date_from=1969-12-31', status: 400, code: 'parameter_invalid', param: 'date_from' },
  { name: 'date_to year 10000', path: '/v1/invoices?date_to=10000-01-01', status: 400, code: 'parameter_invalid', param: 'date_to' },
  { name: 'date_from hour 25', path: '/v1/invoices?date_from=2026-06-01T25:00', status: 400, code: 'parameter_invalid', param: 'date_from' },
  { name: 'date_from before 1970 in UTC', path: '/v1/invoices?date_from=1970-01-01T00:30:00%2B01:00', status: 400, code: 'parameter_invalid', param: 'date_from' },
  { name: 'date_to an hour offset JavaScript cannot read', path: '/v1/customers/cust_x/bookings?date_to=2026-06-01T10:00:00%2B05', status: 400, code: 'parameter_invalid', param: 'date_to' },
  { name: 'availability 29 February 2026', path: availability('2026-02-29'), status: 400, code: 'parameter_invalid', param: 'date' },
  { name: 'availability year 0', path: availability('0000-01-01'), status: 400, code: 'parameter_invalid', param: 'date' },
  { name: 'scheduled_at 30 February', method: 'POST', path: '/v1/bookings', headers: JSON_TYPE, body: booking('2026-02-30T10:00:00Z'), status: 400, code: 'parameter_invalid', param: 'scheduled_at' },
  { name: 'scheduled_at year 0', method: 'POST', path: '/v1/bookings', headers: JSON_TYPE, body: booking('0000-01-01T00:00:00Z'), status: 400, code: 'parameter_invalid', param: 'scheduled_at' },
  { name: 'scheduled_at leap second', method: 'POST', path: '/v1/bookings', headers: JSON_TYPE, body: booking('2026-06-30T23:59:60Z'), status: 400, code: 'parameter_invalid', param: 'scheduled_at' },
  { name: 'scheduled_at past 9999 in UTC', method: 'POST', path: '/v1/bookings', headers: JSON_TYPE, body: booking('9999-12-31T23:00:00-05:00'), status: 400, code: 'parameter_invalid', param: 'scheduled_at' },
  { name: 'PATCH scheduled_at month 13', method: 'PATCH', path: '/v1/bookings/bk_x', headers: JSON_TYPE, body: '{"scheduled_at":"2026-13-01T10:00:00Z"}', status: 400, code: 'parameter_invalid', param: 'scheduled_at' },
  { name: 'due_date 31 April', method: 'POST', path: '/v1/invoices', headers: JSON_TYPE, body: invoice('2026-04-31'), status: 400, code: 'parameter_invalid', param: 'due_date' },
  { name: 'due_date 9999-99-99', method: 'POST', path: '/v1/invoices', headers: JSON_TYPE, body: invoice('9999-99-99'), status: 400, code: 'parameter_invalid', param: 'due_date' },

  // malformed URLs, answered in our shape
  { name: 'truncated UTF-8 escape in a path id', path: '/v1/customers/%E0%A4%A', status: 400, code: 'parameter_invalid' },
  { name: 'invalid UTF-8 in a path id', path: '/v1/bookings/%FF', status: 400, code: 'parameter_invalid' },
  { name: 'lone percent in a path id', method: 'PATCH', path: '/v1/customers/%', headers: JSON_TYPE, body: '{}', status: 400, code: 'parameter_invalid' },
  { name: 'malformed unknown route', path: '/v1/%E0%A4%A', status: 400, code: 'parameter_invalid' },

  // a /v1 body that is not JSON
  { name: 'text/plain', method: 'POST', path: '/v1/customers', headers: { 'content-type': 'text/plain' }, body: '{"first_name":"Ada"}', status: 415, code: 'unsupported_media_type' },
  { name: "curl -d's form type", method: 'POST', path: '/v1/customers', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '{"first_name":"Ada"}', status: 415, code: 'unsupported_media_type' },
  { name: 'a body without a Content-Type', method: 'POST', path: '/v1/customers', body: new Blob(['{"first_name":"Ada"}']), status: 415, code: 'unsupported_media_type' },
  { name: 'multipart', method: 'POST', path: '/v1/webhooks', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--', status: 415, code: 'unsupported_media_type' },
  { name: 'text/plain PATCH', method: 'PATCH', path: '/v1/customers/cust_x', headers: { 'content-type': 'text/plain' }, body: 'x', status: 415, code: 'unsupported_media_type' },
  { name: 'text/plain DELETE with a body', method: 'DELETE', path: '/v1/webhooks/wh_x', headers: { 'content-type': 'text/plain' }, body: 'x', status: 415, code: 'unsupported_media_type' },
  { name: 'json-ish but not JSON', method: 'POST', path: '/v1/customers', headers: { 'content-type': 'application/jsonx' }, body: '{}', status: 415, code: 'unsupported_media_type' },
  // …while an action POST without body or Content-Type is still accepted (and finds no booking)
  { name: 'cancel without a body', method: 'POST', path: '/v1/bookings/bk_x/cancel', status: 404, code: 'resource_not_found' },
  { name: 'merge-patch+json is JSON', method: 'PATCH', path: '/v1/customers/cust_x', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"first_name":"Ada"}', status: 404, code: 'resource_not_found' },
];

describe('bad input on /v1', () => {
  it.each(rows)('$name: $status $code', async (row) => {
    const response = await fetch(t.url + row.path, {
      method: row.method ?? 'GET',
      headers: { authorization: `Bearer ${acct.testKey}`, ...row.headers },
      body: row.body,
    });
    const body = await response.json();
    expect(response.status).toBe(row.status);
    expect(response.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toEqual({
      type: ERRORS[row.code].type,
      code: row.code,
      message: expect.any(String),
      ...(row.param === undefined ? {} : { param: row.param }),
    });
    if (row.status === 415) expect(body.error.message).toContain('application/json');
  });

  it('still accepts what was fine: a 32-level-deep value is validated, real dates and JSON with a charset pass', async () => {
    const control = [
      availability('2028-02-29'),
      '/v1/bookings?date_from=2026-06-01&date_to=2026-06-01T10:00',
      '/v1/invoices?date_from=1970-01-01T00:00:00Z&date_to=9999-12-31',
      '/v1/bookings?date_to=9999-12-31T23:59:59.999Z',
      '/v1/customers?created_after=2026-06-01T10:00:00.123456%2B05:30',
      '/v1/customers?page=1000000&search=%7B%5B%22',
      '/v1/services/industries/residential-cleaning/products',
    ];
    for (const path of control) expect((await acct.api.get(path)).status, path).toBe(200);
    const created = await acct.api.raw('/v1/customers', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ first_name: '[[[[{{{{', last_name: 'Brackets', email: `b-${Date.now()}@example.com` }),
    });
    expect(created.status).toBe(201);
  });
});

describe('every /v1 path parameter', () => {
  it('has a pattern, so that a segment that cannot be an id is a 404 before any query', () => {
    const loose: string[] = [];
    let checked = 0;
    for (const route of t.app.routes) {
      if (!route.url.startsWith('/v1/')) continue;
      const params = (route.schema?.params ?? {}) as { properties?: Record<string, { pattern?: string }> };
      for (const [, name] of route.url.matchAll(/:([A-Za-z_]+)/g)) {
        checked += 1;
        if (!params.properties?.[name as string]?.pattern) loose.push(`${route.method} ${route.url} :${name}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(loose).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('states the limits: page maximum, the id alphabet, the date formats, 415 on bodies', async () => {
    const doc = (await acct.api.get('/v1/openapi.json')).body;
    const list = doc.paths['/v1/customers'].get.parameters;
    expect(list.find((p: { name: string }) => p.name === 'page').schema).toMatchObject({
      minimum: 1,
      maximum: 1_000_000,
    });
    expect(list.find((p: { name: string }) => p.name === 'created_after').schema.format).toBe('date-or-date-time');
    const one = doc.paths['/v1/customers/{id}'].get.parameters;
    expect(one.find((p: { name: string }) => p.name === 'id').schema.pattern).toBe('^[A-Za-z0-9_]+$');
    expect(Object.keys(doc.paths['/v1/customers'].post.responses)).toContain('415');
    expect(Object.keys(doc.paths['/v1/customers'].get.responses)).not.toContain('415');
  });
});

describe('deep nesting without credentials', () => {
  it('/oauth/token refuses it in the RFC 6749 shape', async () => {
    for (const body of [deepArrays(20_000), deepObjects(20_000)]) {
      const res = await fetch(`${t.url}/oauth/token`, { method: 'POST', headers: JSON_TYPE, body });
      expect(res.status).toBe(400);
      expect(res.headers.get('request-id')).toMatch(/^req_/);
      expect(await res.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    }
  });

  it('/dashboard/login refuses it with a 4xx and keeps answering', async () => {
    const res = await fetch(`${t.url}/dashboard/login`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: deepArrays(20_000),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const page = await fetch(`${t.url}/dashboard/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sign in');
  });

  it('costs little: a 20,000-deep body is refused well under 100 ms', async () => {
    const body = deepArrays(20_000);
    const timings: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await fetch(`${t.url}/oauth/token`, { method: 'POST', headers: JSON_TYPE, body });
      await res.arrayBuffer();
      timings.push(performance.now() - started);
      expect(res.status).toBe(400);
    }
    // the fastest of five: one slow run on a busy machine says nothing about the server
    expect(Math.min(...timings)).toBeLessThan(100);
  });
});

describe('bad input on dashboard pages', () => {
  it('answers a path id that cannot exist with the 404 page and an impossible date filter with the unfiltered list', async () => {
    // its own client address, so that other tests' failed sign-ins do not throttle it
    const admin = formClient(t.url, { 'x-forwarded-for': '10.13.0.1' });
    expect((await admin.signIn(acct.adminEmail, acct.adminPassword)).status).toBe(303);
    for (const path of [
      '/dashboard/customers/cust_%00x',
      '/dashboard/bookings/bk%00',
      '/dashboard/webhooks/wh_%00/edit',
    ]) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('text/html');
    }
    for (const path of [
      '/dashboard/invoices?from=0000-01-01&to=9999-99-99',
      '/dashboard/bookings?date_from=0000-01-01',
    ]) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(200);
    }
  });
});

describe('rate-limit headers on every answer to a valid credential', () => {
  const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit'];

  it('are on 404s, 400s, 403s and 415s, and each of them counts', async () => {
    // a clock that stands still, so that no window ends between the requests
    const limited = await startTestApp({ workers: false, clock: new ManualClock('2026-11-22T10:00:01.000Z') });
    const own = await createTestAccount(limited);
    const oauthApp = await registerApp(limited, own);
    const code = await issueCode(limited, oauthApp, own.userId, { scopes: ['customers:read'] });
    const token = (await exchangeCode(limited, oauthApp, code)).body.access_token as string;
    const cases: { name: string; init: RequestInit; path: string; status: number; bearer?: string }[] = [
      { name: 'unknown route', path: '/v1/no-such-thing', init: {}, status: 404 },
      { name: 'unsupported method', path: '/v1/customers', init: { method: 'PUT' }, status: 404 },
      { name: 'unknown id', path: '/v1/customers/cust_doesnotexist', init: {}, status: 404 },
      { name: 'id that cannot be one', path: '/v1/customers/not-an-id', init: {}, status: 404 },
      { name: 'validation error', path: '/v1/customers?per_page=0', init: {}, status: 400 },
      {
        name: 'deep JSON',
        path: '/v1/customers',
        init: { method: 'POST', headers: JSON_TYPE, body: deepArrays(50) },
        status: 400,
      },
      {
        name: 'not JSON',
        path: '/v1/customers',
        init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
        status: 415,
      },
      { name: 'insufficient scope', path: '/v1/invoices', init: {}, status: 403, bearer: token },
    ];
    const remaining = new Map<string, number[]>();
    for (const each of cases) {
      const bearer = each.bearer ?? own.testKey;
      const res = await fetch(limited.url + each.path, {
        ...each.init,
        headers: { ...(each.init.headers as Record<string, string>), authorization: `Bearer ${bearer}` },
      });
      expect(res.status, each.name).toBe(each.status);
      for (const header of HEADERS) expect(res.headers.get(header), `${each.name}: ${header}`).not.toBeNull();
      expect(res.headers.get('ratelimit-policy'), each.name).toBe(`"default";q=${limited.config.rateLimitMax};w=10`);
      const seen = remaining.get(bearer) ?? [];
      seen.push(Number(res.headers.get('x-ratelimit-remaining')));
      remaining.set(bearer, seen);
    }
    // every one of them was counted against its credential's budget
    const byKey = remaining.get(own.testKey) ?? [];
    expect(byKey).toEqual(byKey.map((_, i) => limited.config.rateLimitMax - 1 - i));
    await limited.close();
  });

  it('an unknown route is 404 without credentials (no headers) and 401 with bad ones', async () => {
    const anonymous = await fetch(`${t.url}/v1/no-such-thing`);
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get('x-ratelimit-limit')).toBeNull();
    const bad = await fetch(`${t.url}/v1/no-such-thing`, { headers: { authorization: 'Bearer svc_test_sk_nope' } });
    expect(bad.status).toBe(401);
    expect((await bad.json()).error.code).toBe('invalid_credentials');
    expect(bad.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
