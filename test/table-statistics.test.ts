// The planner's statistics are kept for tables nothing else analyses (the embedded database runs
// no autovacuum): without them a read by id may walk the tenant's search index instead of the
// primary key (docs/performance.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { refreshTableStatistics } from '../src/core/table-statistics.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { newCustomer } from './helpers/billing.ts';

let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  acct = await createTestAccount(t);
});
afterAll(() => t?.close());

/** As of the table's last ANALYZE (tuples -1: never), and its size now, in pages. */
async function statistics(table: string) {
  const [row] = await query<{ tuples: number; pages: number; now: number }>(
    t.database.sql,
    sql`select reltuples as tuples, relpages as pages,
               pg_relation_size(oid) / current_setting('block_size')::int as now
        from pg_class where relname = ${table}`,
  );
  return { tuples: Number(row?.tuples), pages: Number(row?.pages), now: Number(row?.now) };
}

const addCustomers = async (count: number) =>
  (await Promise.all(Array.from({ length: count }, () => newCustomer(acct.api)))) as { id: string }[];

it('analyses a table once it has rows, again only when it has doubled, and reads a customer by its key', async () => {
  const customers = [];
  for (let batch = 0; batch < 15; batch++) customers.push(...(await addCustomers(20)));
  expect((await statistics('customers')).tuples).toBeLessThan(300);
  expect(await refreshTableStatistics(t.database.sql)).toContain('customers');
  const analysed = await statistics('customers');
  expect(analysed.tuples).toBeGreaterThanOrEqual(300);
  // nothing has grown since: the pass is one catalog read
  expect(await refreshTableStatistics(t.database.sql)).toEqual([]);

  const plan = await query<{ 'QUERY PLAN': string }>(
    t.database.sql,
    sql`explain select * from customers
        where account_id = ${acct.accountId} and environment = 'test' and id = ${customers[150]!.id}`,
  );
  expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toContain('customers_pkey');

  // growing, the table is analysed again only once it has twice the pages
  while ((await statistics('customers')).now < 2 * analysed.pages) {
    expect(await refreshTableStatistics(t.database.sql)).not.toContain('customers');
    await addCustomers(20);
  }
  expect(await t.app.workers.tableStatistics.runOnce()).toBeGreaterThanOrEqual(1);
  expect((await statistics('customers')).tuples).toBeGreaterThan(analysed.tuples);
});
