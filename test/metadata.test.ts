// Metadata (CONTRACT §13) on customers, bookings, invoices and webhook endpoints, over HTTP:
// limits, merge, "" deletes, returned on retrieve, lists and events, and the list filter
// `metadata[key]=value` within one account and environment.
import { describe, expect, it } from 'vitest';
import { createTestAccount } from './helpers/app.ts';
import { newCustomer, newInvoice } from './helpers/billing.ts';
import { mondayInNewYork } from './helpers/bookings.ts';

const scene = mondayInNewYork();
const api = () => scene.acct.api;

function keys(count: number, prefix = 'k') {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, 'v']));
}

async function latestEvent(type: string, id: string) {
  const res = await api().get(`/v1/events?type=${type}&per_page=100`);
  expect(res.status).toBe(200);
  return res.body.data.find((event: any) => event.data.object.id === id);
}

describe('metadata limits', () => {
  it.each([
    ['51 keys', keys(51), 'metadata', /at most 50 keys/],
    ['a 41-character key', { ['k'.repeat(41)]: 'v' }, 'metadata', /1 to 40 characters/],
    ['a key with brackets', { 'a[b]': 'v' }, 'metadata', /square brackets/],
    ['a 501-character value', { note: 'x'.repeat(501) }, 'metadata[note]', /at most 500 characters/],
    ['a number', { count: 3 }, 'metadata[count]', /must be strings/],
    ['a null', { gone: null }, 'metadata[gone]', /must be strings/],
    ['an array', ['a'], 'metadata', /object of string values/],
  ])('refuses %s on create with 400 naming the param', async (_, metadata, param, message) => {
    const res = await api().post('/v1/customers', {
      first_name: 'Limit',
      last_name: 'Test',
      email: `limit-${Math.random()}@example.com`,
      metadata,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param });
    expect(res.body.error.message).toMatch(message);
  });

  it('takes exactly 50 keys, 40-character keys and 500-character values', async () => {
    const metadata = { ...keys(48), ['k'.repeat(40)]: 'v', long: 'x'.repeat(500) };
    const customer = await newCustomer(api(), { metadata });
    const res = await api().get(`/v1/customers/${customer.id}`);
    expect(res.body.metadata).toEqual(metadata);
  });

  it('counts the keys a PATCH leaves, and a refused PATCH changes nothing', async () => {
    const customer = await newCustomer(api(), { metadata: keys(30, 'a') });
    const refused = await api().patch(`/v1/customers/${customer.id}`, { metadata: keys(21, 'b') });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata' });
    expect(refused.body.error.message).toMatch(/this would leave 51/);
    // deleting one key in the same PATCH makes room
    const fits = await api().patch(`/v1/customers/${customer.id}`, { metadata: { ...keys(21, 'b'), a0: '' } });
    expect(fits.status).toBe(200);
    expect(Object.keys(fits.body.metadata)).toHaveLength(50);
  });
});

describe('customers', () => {
  it('merges on PATCH, deletes with "", and shows metadata on retrieve, list and events', async () => {
    const customer = await newCustomer(api(), { metadata: { crm_id: '42', tier: 'gold' } });
    const created = await api().get(`/v1/customers/${customer.id}`);
    expect(created.body.metadata).toEqual({ crm_id: '42', tier: 'gold' });
    expect((await latestEvent('customer.created', customer.id)).data.object.metadata).toEqual(created.body.metadata);

    const patched = await api().patch(`/v1/customers/${customer.id}`, { metadata: { tier: '', region: 'east' } });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual({ crm_id: '42', region: 'east' });
    expect((await latestEvent('customer.updated', customer.id)).data.object).toEqual(patched.body);

    const other = await api().patch(`/v1/customers/${customer.id}`, { phone: '+14155550123' });
    expect(other.body.metadata).toEqual({ crm_id: '42', region: 'east' });

    const list = await api().get(`/v1/customers?ids=${customer.id}`);
    expect(list.body.data[0].metadata).toEqual({ crm_id: '42', region: 'east' });
    const fields = await api().get(`/v1/customers?ids=${customer.id}&fields=id,metadata.crm_id`);
    expect(fields.body.data[0]).toEqual({ id: customer.id, metadata: { crm_id: '42' } });
  });

  it('filters lists by metadata[key]=value, only within the account and environment', async () => {
    const tag = `t${Date.now()}`;
    const a = await newCustomer(api(), { metadata: { campaign: tag, source: 'web' } });
    const b = await newCustomer(api(), { metadata: { campaign: tag, source: 'phone' } });
    await newCustomer(api(), { metadata: { campaign: 'other' } });
    await newCustomer(scene.acct.live, { metadata: { campaign: tag } });
    const stranger = await createTestAccount(scene.t);
    await newCustomer(stranger.api, { metadata: { campaign: tag } });

    const both = await api().get(`/v1/customers?metadata[campaign]=${tag}`);
    expect(both.status).toBe(200);
    expect(both.body.data.map((c: any) => c.id).sort()).toEqual([a.id, b.id].sort());
    expect(both.body.pagination.total).toBe(2);
    const one = await api().get(`/v1/customers?metadata[campaign]=${tag}&metadata%5Bsource%5D=web`);
    expect(one.body.data.map((c: any) => c.id)).toEqual([a.id]);
    const none = await api().get(`/v1/customers?metadata[campaign]=${tag}&metadata[source]=fax`);
    expect(none.body.data).toEqual([]);
    const live = await scene.acct.live.get(`/v1/customers?metadata[campaign]=${tag}`);
    expect(live.body.pagination.total).toBe(1);

    const badKey = await api().get(`/v1/customers?metadata[${'k'.repeat(41)}]=x`);
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.code).toBe('parameter_invalid');
  });
});

describe('bookings', () => {
  it('takes metadata on create, merges it on PATCH in any status, and filters the list', async () => {
    const customer = await scene.customer();
    const tag = `job${Date.now()}`;
    const res = await scene.book({
      customer_id: customer.id,
      address_id: customer.addressId,
      industry: 'junk-removal',
      configuration: scene.sofa(),
      scheduled_at: await scene.slotAt('junk-removal', '2026-06-02', '10:00', 20),
      metadata: { order: tag, batch: 'b1' },
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ batch: 'b1', order: tag });
    const id = res.body.id;
    // inserted and read back by one statement, the event built from it: keys as GET prints them
    const created = await latestEvent('booking.created', id);
    const retrieved = await api().get(`/v1/bookings/${id}`);
    expect(Object.keys(retrieved.body.metadata)).toEqual(['batch', 'order']);
    expect(JSON.stringify(created.data.object.metadata)).toBe(JSON.stringify(retrieved.body.metadata));

    expect((await api().post(`/v1/bookings/${id}/cancel`, {})).status).toBe(200);
    const patched = await api().patch(`/v1/bookings/${id}`, { metadata: { batch: '', refund: 'no' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ status: 'cancelled', metadata: { order: tag, refund: 'no' } });
    expect((await latestEvent('booking.updated', id)).data.object.metadata).toEqual({ order: tag, refund: 'no' });
    // anything else still needs a confirmed booking
    const notes = await api().patch(`/v1/bookings/${id}`, { notes: 'x', metadata: { a: 'b' } });
    expect(notes.status).toBe(409);
    expect((await api().get(`/v1/bookings/${id}`)).body.metadata).toEqual({ order: tag, refund: 'no' });

    const list = await api().get(`/v1/bookings?metadata[order]=${tag}`);
    expect(list.body.data.map((b: any) => b.id)).toEqual([id]);
    expect(list.body.pagination.total).toBe(1);
    const bad = await api().patch(`/v1/bookings/${id}`, { metadata: { n: 1 } });
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata[n]' });
  });
});

describe('invoices', () => {
  it('takes metadata on create and PATCH (metadata only), and filters the list', async () => {
    const customer = await newCustomer(api());
    const tag = `po${Date.now()}`;
    const invoice = await newInvoice(api(), customer.id, { metadata: { po: tag, z: '1', a: '2' } });
    expect(invoice.metadata).toEqual({ a: '2', po: tag, z: '1' });
    const created = await latestEvent('invoice.created', invoice.id);
    const retrieved = await api().get(`/v1/invoices/${invoice.id}`);
    // the event was built before the row was read back: the same JSON all the same
    expect(JSON.stringify(created.data.object.metadata)).toBe(JSON.stringify(retrieved.body.metadata));

    const patched = await api().patch(`/v1/invoices/${invoice.id}`, { metadata: { z: '' } });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual({ a: '2', po: tag });
    expect(patched.body.status).toBe(invoice.status);
    const other = await api().patch(`/v1/invoices/${invoice.id}`, { status: 'void' });
    expect(other.body.error).toMatchObject({ code: 'parameter_unknown', param: 'status' });
    const foreign = await scene.acct.live.patch(`/v1/invoices/${invoice.id}`, { metadata: { a: 'b' } });
    expect(foreign.status).toBe(404);

    const list = await api().get(`/v1/invoices?metadata[po]=${tag}`);
    expect(list.body.data.map((i: any) => i.id)).toEqual([invoice.id]);
  });
});

describe('webhook endpoints', () => {
  it('takes metadata on create and PATCH, and filters the list', async () => {
    const tag = `hook${Date.now()}`;
    const res = await api().post('/v1/webhooks', {
      url: 'https://example.com/hook',
      events: ['*'],
      metadata: { owner: tag },
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ owner: tag });
    const patched = await api().patch(`/v1/webhooks/${res.body.id}`, { metadata: { team: 'ops' } });
    expect(patched.body.metadata).toEqual({ owner: tag, team: 'ops' });
    const list = await api().get(`/v1/webhooks?metadata[owner]=${tag}`);
    expect(list.body.data.map((w: any) => w.id)).toEqual([res.body.id]);
    expect(list.body.data[0].metadata).toEqual({ owner: tag, team: 'ops' });
  });
});
