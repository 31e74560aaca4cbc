import { beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { createdBody } from './helpers/http.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount());
  return t.close;
});

const jane = {
  first_name: 'Jane',
  last_name: 'Doe',
  email: 'jane.doe@example.com',
  phone: '+14155550123',
  address: { label: 'Home', street: '12 Main St', city: 'New York', state: 'NY', zip: '10001' },
};

describe('customers', () => {
  it('creates a customer with its default address, stats, preferences and an invitation e-mail', async () => {
    const res = await acct.api.post('/v1/customers', jane);
    const customer = createdBody(res, 'cust');
    expect(customer).toMatchObject({
      first_name: 'Jane',
      last_name: 'Doe',
      email: 'jane.doe@example.com',
      phone: '+14155550123',
      status: 'active',
      stats: { total_bookings: 0, total_spent: 0, last_booking_at: null, active_subscription: false },
      preferences: { preferred_contact: 'email', marketing_opt_in: false },
      credit_balance: 0,
    });
    expect(customer.addresses).toHaveLength(1);
    expect(customer.addresses[0]).toMatchObject({ street: '12 Main St', is_default: true, label: 'Home' });
    expect(customer.addresses[0].id).toMatch(/^addr_/);
    expect(new Date(customer.created_at).toISOString()).toBe(customer.created_at);

    const emails = await query<{ to_address: string; kind: string; status: string }>(
      t.database.sql,
      sql`select to_address, kind, status from emails where account_id = ${acct.accountId}`,
    );
    expect(emails).toEqual([{ to_address: 'jane.doe@example.com', kind: 'customer_invitation', status: 'kept' }]);

    const fetched = await acct.api.get(`/v1/customers/${customer.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(customer);
  });

  it('requires first_name, last_name and email, and refuses a duplicate e-mail whatever its case', async () => {
    for (const field of ['first_name', 'last_name', 'email']) {
      const body: Record<string, unknown> = { ...jane, email: `x-${field}@example.com` };
      delete body[field];
      const res = await acct.api.post('/v1/customers', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'missing_required_field',
        param: field,
      });
    }
    const first = await acct.api.post('/v1/customers', { ...jane, email: 'dup@example.com' });
    expect(first.status).toBe(201);
    const dup = await acct.api.post('/v1/customers', { ...jane, email: 'DUP@Example.com' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'resource_already_exists', param: 'email' });
  });

  it('validates phone (E.164), e-mail and address fields', async () => {
    const phone = await acct.api.post('/v1/customers', { ...jane, email: 'p@example.com', phone: '555-0123' });
    expect(phone.status).toBe(400);
    expect(phone.body.error).toMatchObject({ code: 'parameter_invalid', param: 'phone' });
    expect(phone.body.error.message).toBe(
      'Invalid phone: must be in E.164 format: a + and the country code, then the number, digits only (e.g. +14155550123).',
    );
    const email = await acct.api.post('/v1/customers', { ...jane, email: 'not-an-email' });
    expect(email.body.error).toMatchObject({ code: 'parameter_invalid', param: 'email' });
    const street = await acct.api.post('/v1/customers', {
      ...jane,
      email: 'a@example.com',
      address: { city: 'X', state: 'NY', zip: '10001' },
    });
    expect(street.body.error).toMatchObject({ code: 'missing_required_field', param: 'address.street' });
    const unknown = await acct.api.post('/v1/customers', { ...jane, email: 'u@example.com', nickname: 'JJ' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'nickname' });
  });

  it('updates fields, merges preferences key by key, and moves status between active and inactive', async () => {
    const created = (await acct.api.post('/v1/customers', { ...jane, email: 'patch@example.com' })).body;
    const first = await acct.api.patch(`/v1/customers/${created.id}`, {
      phone: '+442071234567',
      preferences: { preferred_contact: 'sms' },
    });
    expect(first.status).toBe(200);
    expect(first.body.phone).toBe('+442071234567');
    expect(first.body.preferences).toEqual({ preferred_contact: 'sms', marketing_opt_in: false });
    const second = await acct.api.patch(`/v1/customers/${created.id}`, {
      preferences: { marketing_opt_in: true },
      status: 'inactive',
      first_name: 'Janet',
    });
    expect(second.body.preferences).toEqual({ preferred_contact: 'sms', marketing_opt_in: true });
    expect(second.body).toMatchObject({ status: 'inactive', first_name: 'Janet' });
    expect(new Date(second.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(created.updated_at).getTime());

    const badPhone = await acct.api.patch(`/v1/customers/${created.id}`, { phone: '+1 415 555 0123' });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.error).toMatchObject({ code: 'parameter_invalid', param: 'phone' });
    expect(badPhone.body.error.message).toContain('E.164');
    const badStatus = await acct.api.patch(`/v1/customers/${created.id}`, { status: 'deactivated' });
    expect(badStatus.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
    const badPref = await acct.api.patch(`/v1/customers/${created.id}`, { preferences: { preferred_contact: 'fax' } });
    expect(badPref.body.error).toMatchObject({ code: 'parameter_invalid', param: 'preferences.preferred_contact' });
    const unknown = await acct.api.patch(`/v1/customers/${created.id}`, { stats: {} });
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'stats' });
  });

  it('deactivates a customer; PATCH cannot bring it back', async () => {
    const created = (await acct.api.post('/v1/customers', { ...jane, email: 'deact@example.com' })).body;
    const res = await acct.api.post(`/v1/customers/${created.id}/deactivate`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('deactivated');
    const again = await acct.api.post(`/v1/customers/${created.id}/deactivate`);
    expect(again.status).toBe(200);
    const revive = await acct.api.patch(`/v1/customers/${created.id}`, { status: 'active' });
    expect(revive.status).toBe(409);
    expect(revive.body.error.code).toBe('invalid_state_transition');
  });

  it('adds addresses with one default, and removes them', async () => {
    const created = (await acct.api.post('/v1/customers', { ...jane, email: 'addr@example.com', address: undefined }))
      .body;
    expect(created.addresses).toEqual([]);
    const first = await acct.api.post(`/v1/customers/${created.id}/addresses`, {
      street: '1 First Ave',
      city: 'New York',
      state: 'NY',
      zip: '10002',
      access_notes: 'Key under the mat',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ label: 'Home', is_default: true, access_notes: 'Key under the mat' });
    const second = await acct.api.post(`/v1/customers/${created.id}/addresses`, {
      label: 'Office',
      street: '2 Second Ave',
      city: 'New York',
      state: 'NY',
      zip: '10003',
      is_default: true,
    });
    expect(second.body.is_default).toBe(true);
    let customer = (await acct.api.get(`/v1/customers/${created.id}`)).body;
    expect(
      customer.addresses.filter((a: { is_default: boolean }) => a.is_default).map((a: { id: string }) => a.id),
    ).toEqual([second.body.id]);
    const missing = await acct.api.post(`/v1/customers/${created.id}/addresses`, {
      city: 'X',
      state: 'Y',
      zip: '10001',
    });
    expect(missing.body.error).toMatchObject({ code: 'missing_required_field', param: 'street' });

    const removed = await acct.api.delete(`/v1/customers/${created.id}/addresses/${second.body.id}`);
    expect(removed.status).toBe(204);
    customer = (await acct.api.get(`/v1/customers/${created.id}`)).body;
    expect(customer.addresses).toHaveLength(1);
    expect(customer.addresses[0]).toMatchObject({ id: first.body.id, is_default: true });
    const again = await acct.api.delete(`/v1/customers/${created.id}/addresses/${second.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('resource_not_found');
  });

  it('lists with search over names, e-mail and phone digits, and every filter', async () => {
    const other = await createTestAccount(t);
    const make = (first: string, last: string, email: string, phone?: string) =>
      other.api.post('/v1/customers', { first_name: first, last_name: last, email, phone });
    const alice = (await make('Alice', 'Zephyr', 'alice@zephyr.io', '+12125550199')).body;
    await make('Bob', 'Stone', 'bob@stone.io');
    const carol = (await make('Carol', 'Zeph', 'carol@example.com')).body;
    await other.api.patch(`/v1/customers/${carol.id}`, { status: 'inactive' });

    const search = async (term: string) =>
      (await other.api.get(`/v1/customers?search=${encodeURIComponent(term)}`)).body.data.map(
        (c: { first_name: string }) => c.first_name,
      );
    expect(await search('zeph')).toEqual(['Carol', 'Alice']);
    expect(await search('ALICE ZEPHYR')).toEqual(['Alice']);
    expect(await search('stone.io')).toEqual(['Bob']);
    // a term of letters only goes through the name index, and still finds e-mail addresses
    expect(await search('example')).toEqual(['Carol']);
    expect(await search("o'neil-x")).toEqual([]);
    expect(await search('(212) 555-0199')).toEqual(['Alice']);
    expect(await search('5550199')).toEqual(['Alice']);
    expect(await search('100%')).toEqual([]);
    // paged search: the total counts every match, on every page and past the last one
    for (const [page, names] of [
      [1, ['Carol']],
      [2, ['Alice']],
      [3, []],
    ] as const) {
      const res = await other.api.get(`/v1/customers?search=zeph&per_page=1&page=${page}`);
      expect(res.body.data.map((c: { first_name: string }) => c.first_name)).toEqual(names);
      expect(res.body.pagination).toEqual({ page, per_page: 1, total: 2, total_pages: 2 });
    }
    const filtered = await other.api.get('/v1/customers?search=zeph&status=active&fields=id,addresses');
    expect(filtered.body).toEqual({
      data: [{ id: alice.id, addresses: [] }],
      pagination: { page: 1, per_page: 25, total: 1, total_pages: 1 },
    });

    const inactive = await other.api.get('/v1/customers?status=inactive');
    expect(inactive.body.data.map((c: { id: string }) => c.id)).toEqual([carol.id]);
    const future = await other.api.get('/v1/customers?created_after=2999-01-01');
    expect(future.body.pagination.total).toBe(0);
    const updated = await other.api.get(`/v1/customers?updated_after=${encodeURIComponent(alice.created_at)}`);
    expect(updated.body.data.map((c: { id: string }) => c.id)).toContain(carol.id);
    const subs = await other.api.get('/v1/customers?has_subscription=true');
    expect(subs.body.data).toEqual([]);
    const all = await other.api.get('/v1/customers?has_subscription=false');
    expect(all.body.pagination.total).toBe(3);
    const badDate = await other.api.get('/v1/customers?created_after=yesterday');
    expect(badDate.body.error).toMatchObject({ code: 'parameter_invalid', param: 'created_after' });
  });

  it('writes customer events in the same transaction as the change', async () => {
    const other = await createTestAccount(t);
    const created = (await other.api.post('/v1/customers', { ...jane, email: 'ev@example.com' })).body;
    await other.api.patch(`/v1/customers/${created.id}`, { first_name: 'Eve' });
    await other.api.post(`/v1/customers/${created.id}/deactivate`);
    await other.api.post('/v1/customers', { ...jane, email: 'ev@example.com' }); // 409: no event
    const events = await query<{ type: string; payload: { data: { object: { id: string; first_name: string } } } }>(
      t.database.sql,
      sql`select type, body::jsonb as payload from events where account_id = ${other.accountId} order by created_at, id`,
    );
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated', 'customer.deactivated']);
    expect(events[1]?.payload.data.object).toMatchObject({ id: created.id, first_name: 'Eve' });
  });
});
