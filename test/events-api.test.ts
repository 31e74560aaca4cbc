// GET /v1/events and /v1/events/:id (CONTRACT §13): the payloads webhooks carried, 30 days,
// filtered by type (with resource.*) and creation time, per account and environment, with
// scope events:read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { createTestAccount, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { newCustomer } from './helpers/billing.ts';
import { exchangeCode, issueCode, registerApp } from './helpers/oauth.ts';

const clock = new ManualClock('2026-03-01T12:00:00Z');
let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ clock, workers: false }));
});
afterAll(() => t?.close());

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((event) => event.id);

describe('events', () => {
  let first: { id: string };
  let customerEvents: any[];

  it('lists what happened, newest first, as webhooks carried it', async () => {
    first = await newCustomer(acct.api, { metadata: { crm: '1' } });
    clock.advance(60_000);
    const patched = await acct.api.patch(`/v1/customers/${first.id}`, { phone: '+14155550123' });
    clock.advance(60_000);
    const list = await acct.api.get('/v1/events');
    expect(list.status).toBe(200);
    customerEvents = list.body.data;
    expect(customerEvents.map((e: any) => e.type)).toEqual(['customer.updated', 'customer.created']);
    expect(customerEvents[0]).toMatchObject({ environment: 'test', test: false });
    expect(customerEvents[0].id).toMatch(/^evt_/);
    expect(customerEvents[0].data.object).toEqual(patched.body);
    expect(list.body.pagination).toEqual({ page: 1, per_page: 25, total: 2, total_pages: 1 });

    const one = await acct.api.get(`/v1/events/${customerEvents[1].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(customerEvents[1]);
  });

  it('filters by type, resource.* and time', async () => {
    const invoice = await acct.api.post('/v1/invoices', {
      customer_id: first.id,
      line_items: [{ description: 'Visit', quantity: 1, unit_price: 1000 }],
    });
    expect(invoice.status).toBe(201);
    const created = (await acct.api.get('/v1/events?type=customer.created')).body.data;
    expect(created.map((e: any) => e.type)).toEqual(['customer.created']);
    const customers = await acct.api.get('/v1/events?type=customer.*');
    expect(ids(customers)).toEqual(customerEvents.map((e) => e.id));
    const invoices = await acct.api.get('/v1/events?type=invoice.*');
    expect(invoices.body.data.map((e: any) => e.type)).toEqual(['invoice.created']);
    expect((await acct.api.get('/v1/events?type=*')).body.pagination.total).toBe(3);

    const createdAt = customerEvents[1].timestamp;
    const after = await acct.api.get(`/v1/events?created_after=${createdAt}`);
    expect(after.body.data.map((e: any) => e.type)).toEqual(['invoice.created', 'customer.updated']);
    const before = await acct.api.get(`/v1/events?created_before=${customerEvents[0].timestamp}`);
    expect(before.body.data.map((e: any) => e.type)).toEqual(['customer.created']);

    for (const type of ['booking', 'nothing.*', 'customer.created.*', 'customer.nope']) {
      const bad = await acct.api.get(`/v1/events?type=${type}`);
      expect(bad.status, type).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
    }
  });

  it('leaves out Send Test samples', async () => {
    const hook = await acct.api.post('/v1/webhooks', { url: 'https://example.com/h', events: ['*'] });
    const sent = await acct.api.post(`/v1/webhooks/${hook.body.id}/test`, {});
    expect(sent.status).toBe(202);
    expect((await acct.api.get('/v1/events')).body.pagination.total).toBe(3);
    expect((await acct.api.get(`/v1/events/${sent.body.event_id}`)).status).toBe(404);
  });

  it('is 404 for another account or environment', async () => {
    const id = customerEvents[0].id;
    const stranger = await createTestAccount(t);
    for (const api of [stranger.api, acct.live]) {
      const res = await api.get(`/v1/events/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_not_found');
      expect((await api.get('/v1/events')).body.data).toEqual([]);
    }
  });

  it('needs events:read', async () => {
    const app = await registerApp(t, acct);
    const token = async (scopes: any[]) =>
      (await exchangeCode(t, app, await issueCode(t, app, acct.userId, { scopes }))).body.access_token;
    const without = await fetch(`${t.url}/v1/events`, {
      headers: { authorization: `Bearer ${await token(['customers:read'])}` },
    });
    expect(without.status).toBe(403);
    expect((await without.json()).error.code).toBe('insufficient_scope');
    const withScope = await fetch(`${t.url}/v1/events`, {
      headers: { authorization: `Bearer ${await token(['events:read'])}` },
    });
    expect(withScope.status).toBe(200);
  });

  it('keeps events 30 days', async () => {
    const id = customerEvents[1].id;
    clock.advance(30 * 86_400_000 - 3 * 60_000);
    expect((await acct.api.get(`/v1/events/${id}`)).status).toBe(200);
    clock.advance(2 * 86_400_000);
    expect((await acct.api.get(`/v1/events/${id}`)).status).toBe(404);
    expect((await acct.api.get('/v1/events')).body.pagination.total).toBe(0);
  });
});
