// Random bodies to POST /v1/customers never produce a 5xx and never leave a partial row.
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ workers: false }));
  return t.close;
});

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, fc.jsonValue());

const body = fc.oneof(
  fc.jsonValue(),
  fc.record({
    first_name: fc.string({ minLength: 1 }),
    last_name: fc.string({ minLength: 1 }),
    email: fc.emailAddress(),
  }),
  fc.record(
    {
      first_name: maybe(fc.string({ maxLength: 120 })),
      last_name: maybe(fc.string({ maxLength: 120 })),
      email: maybe(fc.oneof(fc.emailAddress(), fc.string())),
      phone: maybe(fc.oneof(fc.constant('+14155550123'), fc.string({ maxLength: 20 }))),
      address: maybe(
        fc.record(
          {
            street: maybe(fc.string({ maxLength: 210 })),
            city: maybe(fc.string()),
            state: maybe(fc.string()),
            zip: maybe(fc.oneof(fc.constant('10001'), fc.string({ maxLength: 12 }))),
            label: maybe(fc.string()),
            access_notes: maybe(fc.string()),
          },
          { requiredKeys: [] },
        ),
      ),
      preferences: maybe(
        fc.record(
          {
            preferred_contact: maybe(fc.constantFrom('email', 'sms', 'phone', 'fax')),
            marketing_opt_in: maybe(fc.boolean()),
          },
          { requiredKeys: [] },
        ),
      ),
      [fc.sample(fc.string({ minLength: 1, maxLength: 8 }), 1)[0] ?? 'extra']: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

async function counts() {
  const rows = await query<{ customers: number; addresses: number; events: number }>(
    t.database.sql,
    sql`select (select count(*) from customers where account_id = ${acct.accountId}) as customers,
               (select count(*) from addresses where account_id = ${acct.accountId}) as addresses,
               (select count(*) from events where account_id = ${acct.accountId}) as events`,
  );
  return rows[0]!;
}

it('answers every body with 201 or a 4xx in the contract shape, and writes all or nothing', async () => {
  let created = 0;
  await fc.assert(
    fc.asyncProperty(body, async (payload) => {
      const before = await counts();
      const res = await acct.api.post('/v1/customers', payload);
      const after = await counts();
      expect(res.status).toBeLessThan(500);
      if (res.status === 201) {
        expect(after.customers).toBe(before.customers + 1);
        expect(after.events).toBe(before.events + 1);
        const hasAddress = typeof payload === 'object' && payload !== null && 'address' in payload;
        expect(after.addresses).toBe(before.addresses + (hasAddress ? 1 : 0));
        expect(res.body.id).toMatch(/^cust_/);
        created += 1;
      } else {
        expect([400, 409]).toContain(res.status);
        expect(res.body.error).toMatchObject({
          type: expect.any(String),
          code: expect.any(String),
          message: expect.any(String),
        });
        expect(after).toEqual(before);
      }
    }),
    { numRuns: 120 },
  );
  expect(created).toBeGreaterThan(0);
}, 180_000);

it('refuses NUL characters in bodies and queries with 400, not a database error', async () => {
  const body = await acct.api.post('/v1/customers', {
    first_name: 'a\u0000b',
    last_name: 'x',
    email: 'nul@example.com',
  });
  expect(body.status).toBe(400);
  expect(body.body.error).toMatchObject({ code: 'parameter_invalid', param: 'first_name' });
  const search = await acct.api.get('/v1/customers?search=a%00b');
  expect(search.status).toBe(400);
  expect(search.body.error).toMatchObject({ code: 'parameter_invalid', param: 'search' });
});
