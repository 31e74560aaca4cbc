// The API conventions of CONTRACT §2-3 that every route shares, checked over HTTP.
import { beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { revokeApiKey } from '../src/modules/accounts/index.ts';
import { createTestAccount, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { apiClient } from './helpers/http.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount());
  return t.close;
});

const customer = (email: string) => ({ first_name: 'Ada', last_name: 'Lovelace', email });

/** POSTs a customer body as it is, with its own content type. */
function postCustomerAs(contentType: string, body: string) {
  return acct.api.raw('/v1/customers', { method: 'POST', headers: { 'content-type': contentType }, body });
}

describe('errors', () => {
  it('answers 401 without, with malformed, with unknown and with revoked credentials', async () => {
    const anonymous = apiClient(t.url);
    const none = await anonymous.get('/v1/customers');
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ type: 'authentication_error', code: 'authentication_required' });
    expect(none.headers.get('www-authenticate')).toContain('Bearer');

    for (const header of [
      'Basic abc',
      'Bearer',
      'Bearer svc_test_sk_short',
      `Bearer ${acct.testKey}x`,
      'svc_test_sk_x',
    ]) {
      const res = await anonymous.get('/v1/customers', { authorization: header });
      expect(res.status, header).toBe(401);
      expect(res.body.error.type).toBe('authentication_error');
    }

    const other = await createTestAccount(t);
    expect((await other.api.get('/v1/customers')).status).toBe(200);
    const keys = await query<{ id: string }>(
      t.database.sql,
      sql`select id from api_keys where account_id = ${other.accountId} and environment = 'test'`,
    );
    await revokeApiKey(t.app.deps, other.tenant('test'), keys[0]!.id);
    const revoked = await other.api.get('/v1/customers');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('invalid_credentials');
    expect(revoked.body.error.message).toMatch(/^This API key has been revoked: create a new key/);
  });

  it('says what is wrong with a credential, never echoing it', async () => {
    const anonymous = apiClient(t.url);
    const unknownKey = `svc_test_sk_${'0'.repeat(32)}`;
    for (const [header, message] of [
      [acct.testKey, /^Send the key as `Authorization: Bearer <key>`/],
      [`Basic ${Buffer.from(`${acct.testKey}:`).toString('base64')}`, /^Send the key as `Authorization: Bearer <key>`/],
      ['Bearer', /^Send the key as `Authorization: Bearer <key>`/],
      [`Bearer ${unknownKey}`, /^Invalid API key provided: check that the whole key was copied/],
      [`Bearer ${acct.testKey.slice(0, -3)}`, /^Invalid API key provided/],
      [
        'Bearer pk_test_51Habc',
        /^That is not a key this API issues: send a secret API key \(svc_test_sk_… or svc_live_sk_…\) or an OAuth access token/,
      ],
    ] as const) {
      const res = await anonymous.get('/v1/customers', { authorization: header });
      expect(res.status, header).toBe(401);
      expect(res.body.error.code, header).toBe('invalid_credentials');
      expect(res.body.error.message, header).toMatch(message);
      expect(res.body.error.message).not.toContain(acct.testKey.slice(12));
      expect(res.headers.get('www-authenticate'), header).toContain('invalid_token');
    }
  });

  it('gives every response a Request-Id and hides internals', async () => {
    const res = await acct.api.get('/v1/customers/cust_doesnotexist');
    expect(res.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{24}$/);
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({
      type: 'invalid_request_error',
      code: 'resource_not_found',
      message: expect.any(String),
    });
  });

  it('maps unknown routes and methods to 404 route_not_found', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['PUT', '/v1/customers'],
      ['DELETE', '/v1/customers'],
    ] as const) {
      const res = await acct.api.raw(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'route_not_found' });
    }
  });

  it('refuses malformed JSON, other media types, oversized bodies, non-object bodies and unknown fields', async () => {
    const bad = await postCustomerAs('application/json', '{"first_name": "Ada",');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });

    const xml = await postCustomerAs('application/xml', '<customer/>');
    expect(xml.status).toBe(415);
    expect(xml.body.error.code).toBe('unsupported_media_type');

    const huge = await acct.api.post('/v1/customers', {
      ...customer('big@example.com'),
      last_name: 'x'.repeat(1_100_000),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('request_too_large');

    const array = await acct.api.post('/v1/customers', [1, 2]);
    expect(array.status).toBe(400);
    expect(array.body.error.code).toBe('parameter_invalid');

    const unknown = await acct.api.post('/v1/customers', { ...customer('u@example.com'), vip: true });
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'vip' });
    const nested = await acct.api.post('/v1/customers', {
      ...customer('n@example.com'),
      address: { street: 'a', city: 'b', state: 'c', zip: '10001', floor: 3 },
    });
    expect(nested.body.error).toMatchObject({ code: 'parameter_unknown', param: 'address.floor' });
    const wrongType = await acct.api.post('/v1/customers', { ...customer('w@example.com'), first_name: 42 });
    expect(wrongType.body.error).toMatchObject({ code: 'parameter_invalid', param: 'first_name' });
    const count = await query<{ n: number }>(
      t.database.sql,
      sql`select count(*) as n from customers where account_id = ${acct.accountId}`,
    );
    expect(count[0]?.n).toBe(0);
  });
});

describe('pagination, fields and ids', () => {
  let list: TestAccount;
  const ids: string[] = [];

  beforeAll(async () => {
    list = await createTestAccount(t);
    for (let i = 0; i < 7; i++) {
      ids.push((await list.api.post('/v1/customers', customer(`p${i}@example.com`))).body.id);
    }
  });

  it('pages newest first with totals, and refuses out-of-range parameters', async () => {
    const first = await list.api.get('/v1/customers?per_page=3');
    expect(first.body.pagination).toEqual({ page: 1, per_page: 3, total: 7, total_pages: 3 });
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([ids[6], ids[5], ids[4]]);
    const last = await list.api.get('/v1/customers?per_page=3&page=3');
    expect(last.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    const past = await list.api.get('/v1/customers?per_page=3&page=9');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], pagination: { page: 9, per_page: 3, total: 7, total_pages: 3 } });
    const defaults = await list.api.get('/v1/customers');
    expect(defaults.body.pagination).toMatchObject({ page: 1, per_page: 25 });

    for (const [query, param] of [
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
    ]) {
      const res = await list.api.get(`/v1/customers?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param });
    }
    const hundred = await list.api.get('/v1/customers?per_page=100');
    expect(hundred.status).toBe(200);
  });

  it('returns only the requested fields, nested paths included', async () => {
    const res = await list.api.get('/v1/customers?per_page=2&fields=id,stats.total_spent,preferences');
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toEqual({
      id: ids[6],
      stats: { total_spent: 0 },
      preferences: { preferred_contact: 'email', marketing_opt_in: false },
    });
    const bad = await list.api.get('/v1/customers?fields=id,,');
    expect(bad.status).toBe(200);
    const invalid = await list.api.get('/v1/customers?fields=id;drop');
    expect(invalid.body.error).toMatchObject({ code: 'parameter_invalid', param: 'fields' });
  });

  it('fetches a known set with ids', async () => {
    const res = await list.api.get(`/v1/customers?ids=${ids[1]},${ids[3]},cust_unknown`);
    expect(res.body.data.map((c: { id: string }) => c.id).sort()).toEqual([ids[1], ids[3]].sort());
    expect(res.body.pagination.total).toBe(2);
    const many = Array.from({ length: 101 }, (_, i) => `cust_${i}`).join(',');
    const tooMany = await list.api.get(`/v1/customers?ids=${many}`);
    expect(tooMany.body.error).toMatchObject({ code: 'parameter_invalid', param: 'ids' });
  });
});

describe('idempotency', () => {
  it('replays the first response with Idempotent-Replayed, and refuses the key with another body', async () => {
    const key = { 'idempotency-key': `idem-${Date.now()}` };
    const first = await acct.api.post('/v1/customers', customer('idem@example.com'), key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await acct.api.post('/v1/customers', customer('idem@example.com'), key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);

    const reused = await acct.api.post('/v1/customers', customer('other@example.com'), key);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });

    // keys belong to one environment: the live key may use the same key for its own request
    const live = await acct.live.post('/v1/customers', customer('idem@example.com'), key);
    expect(live.status).toBe(201);
    expect(live.body.id).not.toBe(first.body.id);
  });

  it('keeps errors the request itself produced (not validation failures), and refuses keys over 255 characters', async () => {
    await acct.api.post('/v1/customers', customer('taken@example.com'));
    const key = { 'idempotency-key': `idem-4xx-${Date.now()}` };
    const first = await acct.api.post('/v1/customers', customer('taken@example.com'), key);
    expect(first.status).toBe(409);
    const again = await acct.api.post('/v1/customers', customer('taken@example.com'), key);
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    // a request that failed validation never started: the key stays free for the corrected request
    const invalidKey = { 'idempotency-key': `idem-invalid-${Date.now()}` };
    expect((await acct.api.post('/v1/customers', { first_name: 'x' }, invalidKey)).status).toBe(400);
    expect((await acct.api.post('/v1/customers', customer('fixed@example.com'), invalidKey)).status).toBe(201);
    const long = await acct.api.post('/v1/customers', customer('long@example.com'), {
      'idempotency-key': 'k'.repeat(256),
    });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
  });

  it('creates one customer for concurrent requests with one key', async () => {
    const other = await createTestAccount(t);
    const key = { 'idempotency-key': 'concurrent-key' };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => other.api.post('/v1/customers', customer('race@example.com'), key)),
    );
    const statuses = responses.map((r) => r.status);
    for (const status of statuses) expect([201, 409]).toContain(status);
    expect(statuses).toContain(201);
    for (const res of responses.filter((r) => r.status === 409)) {
      expect(res.body.error.code).toBe('idempotency_key_in_use');
    }
    const created = responses.filter((r) => r.status === 201).map((r) => r.body.id);
    expect(new Set(created).size).toBe(1);
    const rows = await query<{ n: number }>(
      t.database.sql,
      sql`select count(*) as n from customers where account_id = ${other.accountId}`,
    );
    expect(rows[0]?.n).toBe(1);
  });
});

describe('isolation', () => {
  it('keeps test and live apart, and accounts apart', async () => {
    const a = await createTestAccount(t);
    const b = await createTestAccount(t);
    const testCustomer = (await a.api.post('/v1/customers', customer('iso@example.com'))).body;
    const liveCustomer = (await a.live.post('/v1/customers', customer('iso@example.com'))).body;

    expect((await a.api.get(`/v1/customers/${liveCustomer.id}`)).status).toBe(404);
    expect((await a.live.get(`/v1/customers/${testCustomer.id}`)).status).toBe(404);
    expect((await a.api.get('/v1/customers')).body.data.map((c: { id: string }) => c.id)).toEqual([testCustomer.id]);
    expect((await a.live.get('/v1/customers')).body.data.map((c: { id: string }) => c.id)).toEqual([liveCustomer.id]);

    const foreign = await b.api.get(`/v1/customers/${testCustomer.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('resource_not_found');
    expect((await b.api.patch(`/v1/customers/${testCustomer.id}`, { first_name: 'X' })).status).toBe(404);
    expect((await b.api.post(`/v1/customers/${testCustomer.id}/deactivate`)).status).toBe(404);
    expect((await b.api.get(`/v1/customers?ids=${testCustomer.id}`)).body.data).toEqual([]);
    expect((await a.api.get(`/v1/customers/${testCustomer.id}`)).body.first_name).toBe('Ada');
  });
});

describe('operations', () => {
  it('serves health, readiness, and the OpenAPI document at /v1/openapi.json and /docs', async () => {
    const anonymous = apiClient(t.url);
    expect((await anonymous.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await anonymous.get('/readyz')).body).toMatchObject({ status: 'ok' });
    const doc = (await anonymous.get('/v1/openapi.json')).body;
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toContain('/v1/customers/{id}');
    const create = doc.paths['/v1/customers'].post;
    expect(create['x-required-scope']).toBe('customers:write');
    expect(create.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    const docs = await fetch(`${t.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<html');
  });
});

describe('lenient where it is harmless', () => {
  it('takes an empty JSON body as no body, and ignores a trailing slash', async () => {
    const created = (await acct.api.post('/v1/customers', customer(`empty-${Date.now()}@example.com`))).body;
    const res = await acct.api.raw(`/v1/customers/${created.id}/deactivate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('deactivated');
    const missing = await postCustomerAs('application/json', '');
    expect(missing.status).toBe(400);
    expect(missing.body.error.type).toBe('invalid_request_error');
    expect((await acct.api.get('/v1/customers/')).status).toBe(200);
  });
});
