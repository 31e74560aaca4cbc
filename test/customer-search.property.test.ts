// Search finds exactly the customers whose text contains the term, whichever index answers it.
// A name term goes through trigram keys hashed with the tenant (migrations/0020), a filter that
// must never drop a match: here any piece of a name (inside a word, across a space, with
// letters pg_trgm stores hashed) must find its customer, and `total` must equal a count made
// without any index. Two tenants share the names, so neither may see the other's customers.
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';

let t: TestApp;
let acct: TestAccount;
let other: TestAccount;
const customers: { id: string; name: string }[] = [];

// lower-case already, so that JavaScript's and PostgreSQL's lower-casing cannot differ
const letters = [...'abcdeilmnorstyzéñłøßжя李龍'];
const word = fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 9 }).map((chars) => chars.join(''));
const name = fc.tuple(word, fc.constantFrom(' ', '-', "'"), word).map(([a, glue, b]) => `${a}${glue}${b}`);

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  acct = await createTestAccount(t);
  other = await createTestAccount(t);
  const names = fc.sample(fc.tuple(word, name), { numRuns: 40, seed: 16 });
  for (const [i, [first, last]] of names.entries()) {
    const body = { first_name: first, last_name: last, email: `c${i}@example.com` };
    const made = await acct.api.post('/v1/customers', body);
    expect(made.status).toBe(201);
    await other.api.post('/v1/customers', body);
    customers.push({ id: made.body.id, name: `${first} ${last}` });
  }
  return t.close;
});

async function sqlCount(term: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    t.database.sql,
    sql`select count(*)::int as n from customers
        where account_id = ${acct.accountId} and environment = 'test' and strpos(search_text, ${term}) > 0`,
  );
  return row!.n;
}

it('finds every customer whose name holds the term, and counts as a scan would', async () => {
  const piece = fc
    .tuple(fc.nat(customers.length - 1), fc.nat(40), fc.integer({ min: 1, max: 12 }))
    .map(([i, start, length]) => {
      const { id, name } = customers[i]!;
      const from = start % name.length;
      return { id, term: name.slice(from, from + length).trim() };
    })
    .filter(({ term }) => term.length > 0);
  await fc.assert(
    fc.asyncProperty(piece, async ({ id, term }) => {
      const res = await acct.api.get(`/v1/customers?search=${encodeURIComponent(term)}&per_page=100`);
      expect(res.status).toBe(200);
      const ids = res.body.data.map((c: { id: string }) => c.id);
      expect(ids).toContain(id);
      expect(res.body.pagination.total).toBe(await sqlCount(term));
      expect(ids.every((found: string) => customers.some((c) => c.id === found))).toBe(true);
    }),
    { numRuns: 150 },
  );
}, 120_000);
