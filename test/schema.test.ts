// Tenancy is enforced by the schema: every table carries account_id and environment, except
// the few that exist above a tenant (listed here, each with its reason).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

const ABOVE_TENANTS: Record<string, string> = {
  schema_migrations: 'bookkeeping of the migration runner',
  accounts: 'the tenant itself',
  users: "an account's people; they sign in to both environments (account_id only)",
  login_throttles: 'failed sign-ins counted before any account is known (keyed by hashed e-mail or IP)',
  login_devices: 'browsers a user signed in from; users sign in to both environments (account_id only)',
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ workers: false });
});
afterAll(() => t.close());

it('gives every table account_id and environment columns', async () => {
  const columns = await query<{ table_name: string; column_name: string; is_nullable: string }>(
    t.database.sql,
    sql`select c.table_name, c.column_name, c.is_nullable from information_schema.columns c
        join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE'`,
  );
  const tables = new Map<string, Map<string, string>>();
  for (const column of columns) {
    const table = tables.get(column.table_name) ?? new Map<string, string>();
    table.set(column.column_name, column.is_nullable);
    tables.set(column.table_name, table);
  }
  expect(tables.size).toBeGreaterThan(5);
  const missing: string[] = [];
  for (const [table, cols] of tables) {
    if (table in ABOVE_TENANTS) continue;
    for (const required of ['account_id', 'environment']) {
      if (cols.get(required) !== 'NO') missing.push(`${table}.${required}`);
    }
  }
  expect(missing).toEqual([]);
  expect(tables.get('users')?.get('account_id')).toBe('NO');
});
