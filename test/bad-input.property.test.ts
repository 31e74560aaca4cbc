// Random bad input against representative routes: whatever the path id, query string or body
// (random unicode, % escapes, NULs, huge numbers, deep arrays and objects, any media type), the
// answer is never a 5xx, always carries a Request-Id, and its error is in the contract's shape
// (/v1, CONTRACT §2) or in RFC 6749's (/oauth/token).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/core/errors.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';

let t: TestApp;
let acct: TestAccount;
let customerId: string;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  acct = await createTestAccount(t, { demo: true });
  customerId = (
    await acct.api.post('/v1/customers', { first_name: 'Prop', last_name: 'Erty', email: 'prop@example.com' })
  ).body.id;
});
afterAll(() => t.close());

const RUNS = { numRuns: 150 };

/** Every byte percent-encoded: any string (lone surrogates included) becomes a valid URL part. */
const percentEncoded = (value: string) =>
  [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');

const unicode = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }));
const hugeNumber = fc.oneof(
  fc.constantFrom('1e308', '-1e308', '1e400', 'NaN', 'Infinity', '-0', '0x10', '9'.repeat(400), '1.5', ' 1'),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
);
const dateLike = fc
  .tuple(
    fc.integer({ min: 0, max: 99_999 }),
    fc.integer({ min: 0, max: 99 }),
    fc.integer({ min: 0, max: 99 }),
    fc.option(
      fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 })),
    ),
    fc.constantFrom('', 'Z', '+05', '+05:30', '-24:00', '+0100'),
  )
  .map(([year, month, day, time, zone]) => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
    return time ? `${date}T${pad(time[0])}:${pad(time[1])}:${pad(time[2])}${zone}` : date;
  });
/** URL-ready fragments: broken escapes, NULs, separators. */
const escapes = fc
  .array(
    fc.constantFrom(
      '%',
      '%E0',
      '%A4',
      '%E0%A4%A',
      '%00',
      '%FF',
      '%2F',
      '%25',
      '%C3%A9',
      '%F0%9F%98%80',
      'cust_',
      'a',
      '-',
      '.',
      '+',
      '~',
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(''));

/** A value for a query parameter or a path segment, ready to go in a URL. */
const urlValue = fc.oneof(
  unicode.map(percentEncoded),
  hugeNumber.map(encodeURIComponent),
  dateLike.map(encodeURIComponent),
  escapes,
  fc.constantFrom('', 'cust_doesnotexist', 'x'.repeat(2_000), '%00', 'residential-cleaning', '10001', '2026-06-02'),
);

const QUERY_NAMES = [
  'page',
  'per_page',
  'fields',
  'ids',
  'search',
  'status',
  'created_after',
  'updated_after',
  'date_from',
  'date_to',
  'min_amount',
  'max_amount',
  'sort',
  'zip',
  'industry',
  'date',
  'duration',
  'has_subscription',
  'zone_id',
];
const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), escapes), urlValue), { maxLength: 6 })
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));

/** JSON nested `depth` levels deep, of arrays, objects or both. */
const deepJson = fc
  .tuple(
    fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 25_000 })),
    fc.constantFrom('[', '{"a":', '[{"b":'),
  )
  .map(([depth, open]) => {
    const close = open === '[' ? ']' : open === '{"a":' ? '}' : '}]';
    return `${open.repeat(depth)}1${close.repeat(depth)}`;
  });
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  unicode,
  dateLike,
  fc.constantFrom('a\u0000b', '\u0000', 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.5, -1, true, null, [], {}),
  fc.jsonValue({ maxDepth: 4 }),
);
const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'address',
  'status',
  'industry',
  'zip',
  'configuration',
  'coupon_code',
  'scheduled_at',
  'due_date',
  'amount',
  'grant_type',
  'code',
  'client_id',
  'refresh_token',
];
const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
  deepJson,
  fc
    .dictionary(fc.oneof(fc.constantFrom(...FIELDS), unicode), nastyValue, { maxKeys: 6 })
    .map((value) => JSON.stringify(value)),
  hugeNumber.map((number) => `{"amount":${number},"configuration":{"bedrooms":${number}}}`),
  fc.string({ unit: 'binary', maxLength: 60 }),
);
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json, text/plain',
  '',
];
const body = fc.record({
  text: fc.oneof(
    jsonBody,
    fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  ),
  contentType: fc.constantFrom(...CONTENT_TYPES),
});

interface Call {
  method: string;
  path: string;
  body?: { text: string; contentType: string };
  authorized?: boolean;
}

async function send(call: Call) {
  const headers: Record<string, string> = {};
  if (call.authorized !== false) headers.authorization = `Bearer ${acct.testKey}`;
  if (call.body?.contentType) headers['content-type'] = call.body.contentType;
  const response = await fetch(t.url + call.path, {
    method: call.method,
    headers,
    body: call.body === undefined ? undefined : new Blob([call.body.text]),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the assertions below say so
  }
  return { status: response.status, requestId: response.headers.get('request-id'), text, json };
}

/** The §2 error shape, with the status its code maps to. */
function expectApiAnswer(call: Call, res: Awaited<ReturnType<typeof send>>) {
  const label = `${call.method} ${call.path} ${call.body ? `[${call.body.contentType}] ${call.body.text.slice(0, 80)}` : ''}`;
  expect(res.status, label).toBeLessThan(500);
  expect(res.requestId, label).toMatch(/^req_/);
  if (res.status < 400) return;
  const error = (res.json as { error?: Record<string, unknown> } | null)?.error;
  expect(Object.keys(res.json ?? {}), `${label}: ${res.text.slice(0, 200)}`).toEqual(['error']);
  expect(error, label).toEqual({
    type: expect.any(String),
    code: expect.any(String),
    message: expect.any(String),
    ...(error && 'param' in error ? { param: expect.any(String) } : {}),
  });
  const code = error?.code as ErrorCode;
  expect(Object.keys(ERRORS), label).toContain(code);
  expect(error?.type, label).toBe(ERRORS[code].type);
  const status = code === 'resource_not_found' && error?.param !== undefined ? 400 : ERRORS[code].status;
  expect(res.status, label).toBe(status);
}

it('customers: GET with any query, GET/PATCH any id, POST any body', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        queryString.map((query): Call => ({ method: 'GET', path: `/v1/customers?${query}` })),
        urlValue.map((id): Call => ({ method: 'GET', path: `/v1/customers/${id}` })),
        fc
          .tuple(fc.oneof(fc.constant(null), urlValue), body)
          .map(
            ([id, payload]): Call => ({ method: 'PATCH', path: `/v1/customers/${id ?? customerId}`, body: payload }),
          ),
        body.map((payload): Call => ({ method: 'POST', path: '/v1/customers', body: payload })),
      ),
      async (call) => expectApiAnswer(call, await send(call)),
    ),
    RUNS,
  );
}, 180_000);

it('bookings and invoices lists with any query, and any id', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('bookings', 'invoices'),
      fc.boolean(),
      queryString,
      fc.oneof(fc.constant(null), urlValue),
      async (resource, ofCustomer, query, id) => {
        const base = ofCustomer ? `/v1/customers/${id ?? customerId}/${resource}` : `/v1/${resource}`;
        const list: Call = { method: 'GET', path: `${base}?${query}` };
        expectApiAnswer(list, await send(list));
        if (id !== null) {
          const one: Call = { method: 'GET', path: `/v1/${resource}/${id}` };
          expectApiAnswer(one, await send(one));
        }
      },
    ),
    RUNS,
  );
}, 180_000);

it('availability with any query, pricing with any body', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.tuple(queryString, fc.oneof(dateLike, unicode), fc.boolean()).map(
          ([query, date, base]): Call => ({
            method: 'GET',
            path: `/v1/services/availability?${base ? `zip=10001&industry=residential-cleaning&date=${percentEncoded(date)}&` : ''}${query}`,
          }),
        ),
        body.map((payload): Call => ({ method: 'POST', path: '/v1/services/pricing', body: payload })),
        urlValue.map((slug): Call => ({ method: 'GET', path: `/v1/services/industries/${slug}/extras` })),
      ),
      async (call) => expectApiAnswer(call, await send(call)),
    ),
    RUNS,
  );
}, 180_000);

it('/oauth/token answers any body in the RFC 6749 shape, without credentials', async () => {
  const OAUTH_ERRORS = [
    'invalid_request',
    'invalid_client',
    'invalid_grant',
    'unsupported_grant_type',
    'invalid_scope',
  ];
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        body,
        fc
          .dictionary(fc.oneof(fc.constantFrom(...FIELDS), unicode), fc.oneof(unicode, dateLike, hugeNumber), {
            maxKeys: 5,
          })
          .map((fields) => ({
            text: new URLSearchParams(fields).toString(),
            contentType: 'application/x-www-form-urlencoded',
          })),
      ),
      async (payload) => {
        const call: Call = { method: 'POST', path: '/oauth/token', body: payload, authorized: false };
        const res = await send(call);
        const label = `[${payload.contentType}] ${payload.text.slice(0, 80)}`;
        expect(res.status, label).toBeLessThan(500);
        expect(res.requestId, label).toMatch(/^req_/);
        expect(res.status, label).toBeGreaterThanOrEqual(400);
        expect(Object.keys(res.json ?? {}).sort(), `${label}: ${res.text.slice(0, 200)}`).toEqual([
          'error',
          'error_description',
        ]);
        expect(OAUTH_ERRORS, label).toContain((res.json as { error: string }).error);
      },
    ),
    RUNS,
  );
}, 180_000);
