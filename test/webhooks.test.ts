import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, sql, transaction } from '../src/core/db.ts';
import { EVENT_TYPES } from '../src/modules/events/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { type Receiver, startReceiver } from './helpers/webhooks.ts';

let t: TestApp;
let acct: TestAccount;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  acct = await createTestAccount(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const jane = { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com' };

async function createEndpoint(account: TestAccount, events: string[], path = `/${Math.random()}`) {
  const res = await account.api.post('/v1/webhooks', { url: receiver.url + path, events, description: 'tests' });
  expect(res.status).toBe(201);
  return { ...res.body, path } as { id: string; secret: string; path: string; url: string };
}

const arrivedAt = (path: string) => receiver.received.filter((r) => r.path === path);
/** One pass of the delivery worker: what is due is sent and its outcome recorded. */
const deliverDue = () => t.app.workers.deliveries.runOnce();

function verify(secret: string, request: { body: string; headers: Record<string, string> }) {
  return new Webhook(secret).verify(request.body, request.headers) as { id: string; type: string };
}

describe('webhook endpoints', () => {
  it('creates an endpoint with a whsec_ secret shown only on creation, then lists, reads, updates and deletes it', async () => {
    const created = await acct.api.post('/v1/webhooks', {
      url: `${receiver.url}/crud`,
      events: ['booking.created', 'invoice.*', 'booking.created'],
      description: 'Zapier bridge',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: `${receiver.url}/crud`,
      events: ['booking.created', 'invoice.*'],
      description: 'Zapier bridge',
      status: 'active',
      disabled_reason: null,
    });
    expect(created.body.id).toMatch(/^wh_[0-9A-Za-z]{24}$/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.body.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const id = created.body.id;

    const fetched = await acct.api.get(`/v1/webhooks/${id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.secret).toBeUndefined();
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(fetched.body).toEqual(withoutSecret);

    const list = await acct.api.get('/v1/webhooks?per_page=1');
    expect(list.status).toBe(200);
    expect(list.body.pagination).toMatchObject({ page: 1, per_page: 1 });
    expect(list.body.data[0].secret).toBeUndefined();
    const ids = await acct.api.get(`/v1/webhooks?ids=${id}&fields=id,status`);
    expect(ids.body.data).toEqual([{ id, status: 'active' }]);

    const patched = await acct.api.patch(`/v1/webhooks/${id}`, {
      events: ['*'],
      description: null,
      status: 'disabled',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      events: ['*'],
      description: null,
      status: 'disabled',
      disabled_reason: 'manual',
    });
    const enabled = await acct.api.patch(`/v1/webhooks/${id}`, { status: 'active' });
    expect(enabled.body).toMatchObject({ status: 'active', disabled_reason: null });

    const other = await createTestAccount(t);
    expect((await other.api.get(`/v1/webhooks/${id}`)).status).toBe(404);
    expect((await acct.live.get(`/v1/webhooks/${id}`)).status).toBe(404);
    expect((await other.api.delete(`/v1/webhooks/${id}`)).status).toBe(404);

    const deleted = await acct.api.delete(`/v1/webhooks/${id}`);
    expect(deleted.status).toBe(204);
    const gone = await acct.api.get(`/v1/webhooks/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('resource_not_found');
  });

  it('validates events and fields', async () => {
    const post = (body: unknown) => acct.api.post('/v1/webhooks', body);
    for (const events of [['booking.exploded'], ['bogus.*'], ['booking.*.x'], ['booking'], ['*.*']]) {
      const res = await post({ url: `${receiver.url}/v`, events });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'events' });
    }
    expect((await post({ url: `${receiver.url}/v`, events: [] })).body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'events',
    });
    expect((await post({ events: ['*'] })).body.error).toMatchObject({ code: 'missing_required_field', param: 'url' });
    expect((await post({ url: `${receiver.url}/v` })).body.error).toMatchObject({
      code: 'missing_required_field',
      param: 'events',
    });
    expect((await post({ url: `${receiver.url}/v`, events: ['*'], secret: 'x' })).body.error).toMatchObject({
      code: 'parameter_unknown',
      param: 'secret',
    });
    expect((await post({ url: 'not a url', events: ['*'] })).body.error).toMatchObject({
      code: 'parameter_invalid',
      param: 'url',
    });
    const created = await createEndpoint(acct, ['*']);
    const bad = await acct.api.patch(`/v1/webhooks/${created.id}`, { events: ['customer.nope'] });
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'events' });
    const badStatus = await acct.api.patch(`/v1/webhooks/${created.id}`, { status: 'paused' });
    expect(badStatus.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
    const test = await acct.api.post(`/v1/webhooks/${created.id}/test`, { event_type: 'booking.*' });
    expect(test.body.error).toMatchObject({ code: 'parameter_invalid', param: 'event_type' });
    expect((await acct.api.post(`/v1/webhooks/${created.id}/test`, { event: 'x' })).body.error.code).toBe(
      'parameter_unknown',
    );
    const anonymous = await fetch(`${t.url}/v1/webhooks`);
    expect(anonymous.status).toBe(401);
  });
});

describe('delivery', () => {
  it('delivers customer.created, customer.updated and customer.deactivated, signed per Standard Webhooks', async () => {
    const other = await createTestAccount(t);
    const endpoint = await createEndpoint(other, ['customer.*']);
    const created = (await other.api.post('/v1/customers', jane)).body;
    const updated = (await other.api.patch(`/v1/customers/${created.id}`, { first_name: 'Janet' })).body;
    const deactivated = (await other.api.post(`/v1/customers/${created.id}/deactivate`)).body;

    expect(await deliverDue()).toBe(3);
    const received = arrivedAt(endpoint.path);
    expect(received).toHaveLength(3);
    const byType = Object.fromEntries(received.map((r) => [r.json.type, r]));
    for (const [type, object] of [
      ['customer.created', created],
      ['customer.updated', updated],
      ['customer.deactivated', deactivated],
    ] as const) {
      const request = byType[type];
      if (!request) throw new Error(`no ${type}`);
      const verified = verify(endpoint.secret, request);
      expect(verified.type).toBe(type);
      expect(request.headers['webhook-id']).toBe(request.json.id);
      expect(request.json.id).toMatch(/^evt_/);
      expect(request.json).toMatchObject({ type, environment: 'test', test: false });
      // the resource exactly as the API returned it, in the same key order
      expect(JSON.stringify(request.json.data.object)).toBe(JSON.stringify(object));
      expect(request.headers['content-type']).toBe('application/json');
      expect(() => verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request)).toThrow();
    }

    const deliveries = await other.api.get(`/v1/webhooks/${endpoint.id}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data.every((d: { status: string }) => d.status === 'succeeded')).toBe(true);
    expect(deliveries.body.pagination.total).toBe(3);
    const record = deliveries.body.data[0];
    expect(Object.keys(record).sort()).toEqual(
      [
        'id',
        'event_id',
        'event_type',
        'attempt',
        'status',
        'response_code',
        'response_time_ms',
        'error',
        'attempted_at',
        'next_attempt_at',
      ].sort(),
    );
    expect(record).toMatchObject({
      attempt: 1,
      status: 'succeeded',
      response_code: 200,
      error: null,
      next_attempt_at: null,
    });
    expect(record.id).toMatch(/^whd_/);
    expect(record.response_time_ms).toBeGreaterThanOrEqual(0);
    expect(deliveries.body.data.map((d: { event_type: string }) => d.event_type)).toEqual([
      'customer.deactivated',
      'customer.updated',
      'customer.created',
    ]);
  });

  it('queues one attempt per event and subscribed endpoint, each with an id of its own, in the publishing statement', async () => {
    const other = await createTestAccount(t);
    // more endpoints than a few: every first attempt is written by the statement storing the events
    const all = await Promise.all(Array.from({ length: 11 }, () => createEndpoint(other, ['invoice.*'])));
    const paidOnly = await createEndpoint(other, ['invoice.paid']);
    const { payloads } = await transaction(t.database.sql, (tx) =>
      t.app.deps.events.publishAll(
        tx,
        other.tenant(),
        [
          { type: 'invoice.created', object: { id: 'inv_many' } },
          { type: 'invoice.paid', object: { id: 'inv_many' } },
        ],
        t.clock.now(),
      ),
    );
    const queued = await query<{ event_id: string; endpoint_id: string }>(
      t.database.sql,
      sql`select event_id, endpoint_id from webhook_deliveries
          where event_id in (${payloads[0]!.id}, ${payloads[1]!.id})`,
    );
    expect(queued).toHaveLength(11 * 2 + 1);
    const ids = await query<{ id: string }>(
      t.database.sql,
      sql`select id from webhook_deliveries where event_id in (${payloads[0]!.id}, ${payloads[1]!.id})`,
    );
    for (const { id } of ids) expect(id).toMatch(/^whd_[0-9A-Za-z]{24}$/);
    expect(new Set(ids.map((row) => row.id)).size).toBe(ids.length);
    expect(new Set(queued.map((row) => `${row.event_id} ${row.endpoint_id}`)).size).toBe(queued.length);
    await deliverDue();
    for (const endpoint of all) {
      expect(arrivedAt(endpoint.path).map((r) => r.json.type)).toEqual(
        expect.arrayContaining(['invoice.created', 'invoice.paid']),
      );
      expect(arrivedAt(endpoint.path)).toHaveLength(2);
    }
    expect(arrivedAt(paidOnly.path).map((r) => r.json.type)).toEqual(['invoice.paid']);
  });

  it('delivers every event type of the catalog to the endpoints subscribed to it, and only when the transaction commits', async () => {
    const other = await createTestAccount(t);
    const everything = await createEndpoint(other, ['*']);
    const invoices = await createEndpoint(other, ['invoice.*', 'payment.refunded']);
    const disabled = await createEndpoint(other, ['*']);
    await other.api.patch(`/v1/webhooks/${disabled.id}`, { status: 'disabled' });
    const liveOnly = await createEndpoint(other, ['*']);
    await t.database.sql.execute(sql`update webhook_endpoints set environment = 'live' where id = ${liveOnly.id}`);

    const tenant = other.tenant();
    const published: string[] = [];
    for (const type of EVENT_TYPES) {
      await transaction(t.database.sql, async (tx) => {
        const event = await t.app.deps.events.publish(tx, tenant, type, { id: `obj_${type}`, type }, t.clock.now());
        published.push(event.id);
      });
    }
    // an event whose transaction rolls back never existed: nothing is delivered for it
    await transaction(t.database.sql, async (tx) => {
      await t.app.deps.events.publish(tx, tenant, 'booking.created', { id: 'rolled_back' }, t.clock.now());
      throw new Error('roll back');
    }).catch(() => {});

    await deliverDue();
    expect(arrivedAt(everything.path)).toHaveLength(EVENT_TYPES.length);
    const expectedInvoices = EVENT_TYPES.filter((type) => type.startsWith('invoice.') || type === 'payment.refunded');
    expect(arrivedAt(invoices.path)).toHaveLength(expectedInvoices.length);
    for (const request of arrivedAt(everything.path)) verify(everything.secret, request);
    expect(
      arrivedAt(everything.path)
        .map((r) => r.json.type)
        .sort(),
    ).toEqual([...EVENT_TYPES].sort());
    expect(
      arrivedAt(invoices.path)
        .map((r) => r.json.type)
        .sort(),
    ).toEqual([...expectedInvoices].sort());

    const rows = await query<{ endpoint_id: string; event_id: string }>(
      t.database.sql,
      sql`select endpoint_id, event_id from webhook_deliveries where account_id = ${other.accountId}`,
    );
    expect(
      rows
        .filter((r) => r.endpoint_id === everything.id)
        .map((r) => r.event_id)
        .sort(),
    ).toEqual([...published].sort());
    expect(rows.some((r) => r.endpoint_id === disabled.id || r.endpoint_id === liveOnly.id)).toBe(false);
    expect(rows).toHaveLength(EVENT_TYPES.length + expectedInvoices.length);
    expect(arrivedAt(disabled.path)).toHaveLength(0);
  });

  it('sends a test event with test: true and answers 202 with its pending delivery record', async () => {
    const endpoint = await createEndpoint(acct, ['invoice.*']);
    const res = await acct.api.post(`/v1/webhooks/${endpoint.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      event_type: 'invoice.created',
      attempt: 1,
      status: 'pending',
      response_code: null,
      error: null,
      attempted_at: null,
    });
    await deliverDue();
    const request = arrivedAt(endpoint.path)[0];
    if (!request) throw new Error('no test event');
    expect(verify(endpoint.secret, request)).toMatchObject({ type: 'invoice.created' });
    expect(request.json).toMatchObject({ id: res.body.event_id, test: true, environment: 'test' });
    expect(request.json.data.object.id).toMatch(/^inv_/);

    const chosen = await acct.api.post(`/v1/webhooks/${endpoint.id}/test`, { event_type: 'booking.cancelled' });
    expect(chosen.body.event_type).toBe('booking.cancelled');
    await deliverDue();
    expect(arrivedAt(endpoint.path)).toHaveLength(2);
    expect(arrivedAt(endpoint.path)[1]?.json.data.object.status).toBe('cancelled');
    const list = await acct.api.get(`/v1/webhooks/${endpoint.id}/deliveries?event_id=${res.body.event_id}`);
    expect(list.body.data[0]).toMatchObject({ id: res.body.id, status: 'succeeded', response_code: 200 });
  });

  it('redelivers by hand: POST retry answers 202 with the new attempt, sent with the same webhook-id', async () => {
    const endpoint = await createEndpoint(acct, ['customer.created']);
    await acct.api.post('/v1/customers', { ...jane, email: 'retry@example.com' });
    await deliverDue();
    const first = arrivedAt(endpoint.path)[0];
    if (!first) throw new Error('not delivered');
    const list = (await acct.api.get(`/v1/webhooks/${endpoint.id}/deliveries`)).body;
    expect(list.data[0]?.status).toBe('succeeded');
    const retry = await acct.api.post(`/v1/webhooks/${endpoint.id}/deliveries/${list.data[0].id}/retry`);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ event_id: list.data[0].event_id, attempt: 2, status: 'pending' });
    expect(retry.body.id).not.toBe(list.data[0].id);
    await deliverDue();
    const second = arrivedAt(endpoint.path)[1];
    if (!second) throw new Error('not redelivered');
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    verify(endpoint.secret, second);
    const missing = await acct.api.post(`/v1/webhooks/${endpoint.id}/deliveries/whd_nope/retry`);
    expect(missing.status).toBe(404);
  });

  it('pages the deliveries list, newest first', async () => {
    const other = await createTestAccount(t);
    const endpoint = await createEndpoint(other, ['customer.created']);
    for (let i = 0; i < 5; i++) await other.api.post('/v1/customers', { ...jane, email: `page${i}@example.com` });
    await deliverDue();
    expect(arrivedAt(endpoint.path)).toHaveLength(5);
    const page1 = await other.api.get(`/v1/webhooks/${endpoint.id}/deliveries?per_page=2`);
    const page3 = await other.api.get(`/v1/webhooks/${endpoint.id}/deliveries?per_page=2&page=3`);
    expect(page1.body.pagination).toEqual({ page: 1, per_page: 2, total: 5, total_pages: 3 });
    expect(page3.body.data).toHaveLength(1);
    const all = (await other.api.get(`/v1/webhooks/${endpoint.id}/deliveries`)).body.data;
    const emails = all.map((d: { event_id: string }) => {
      const request = arrivedAt(endpoint.path).find((r) => r.json.id === d.event_id);
      return request?.json.data.object.email;
    });
    expect(emails).toEqual([4, 3, 2, 1, 0].map((i) => `page${i}@example.com`));
    const bad = await other.api.get(`/v1/webhooks/${endpoint.id}/deliveries?per_page=101`);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'per_page' });
  });
});

describe('SSRF protection (WEBHOOK_ALLOW_PRIVATE_URLS=false)', () => {
  let strict: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    strict = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }, workers: false });
    account = await createTestAccount(strict);
  });
  afterAll(() => strict.close());

  it.each([
    'https://127.0.0.1/hook',
    'https://127.1.2.3:8443/hook',
    'https://[::1]/hook',
    'https://10.0.0.1/hook',
    'https://172.16.5.4/hook',
    'https://192.168.1.10/hook',
    'https://100.64.0.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:169.254.169.254]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://2130706433/hook',
    'https://localhost/hook',
    'https://localhost./hook',
    'http://example.com/hook',
  ])('refuses %s with 400 parameter_invalid on url', async (url) => {
    const res = await account.api.post('/v1/webhooks', { url, events: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'url' });
    // the refusal says how to allow such a URL on a development server
    expect(res.body.error.message).toContain('start the server with WEBHOOK_ALLOW_PRIVATE_URLS=true');
  });

  it('checks the URL again when it is changed', async () => {
    const [row] = await query<{ id: string }>(
      strict.database.sql,
      sql`insert into webhook_endpoints (id, account_id, environment, url, events, secret, created_at, updated_at)
          values ('wh_ssrfpatch', ${account.accountId}, 'test', 'https://hooks.example.com/x', '{*}', 'whsec_AAAA', now(), now())
          returning id`,
    );
    const res = await account.api.patch(`/v1/webhooks/${row?.id}`, { url: 'https://[::1]/hook' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
  });
});
