// Migrations carry what is stored forward: a database at an older version keeps its rows' meaning
// after the newer migrations run on it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { migrate } from '../src/core/migrate.ts';
import { openTestDatabase, type TestDatabase } from './helpers/database.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.close());

it('0019 keeps each event once, as the text delivered, and still tells Send Test samples apart', async () => {
  // the events table as 0018 left it: the payload as jsonb and, since 0006, as text
  for (const statement of [
    'alter table events drop column sample',
    'alter table events alter column body drop not null',
    'alter table events add column payload jsonb',
    `insert into accounts (id, name) values ('acct_migration', 'Migration Co')`,
    `insert into events (id, account_id, environment, type, payload, body, created_at) values
       ('evt_sent', 'acct_migration', 'test', 'customer.created', '{"id":"evt_sent","test":false}', '{"id":"evt_sent","test":false}', now()),
       ('evt_sample', 'acct_migration', 'test', 'customer.created', '{"id":"evt_sample","test":true}', '{"id":"evt_sample","test":true}', now()),
       ('evt_before_0006', 'acct_migration', 'live', 'booking.created', '{"id":"evt_before_0006"}', null, now())`,
    `delete from schema_migrations where version = '0019_event_body_once'`,
  ]) {
    await db.sql.execute(sql.raw(statement));
  }
  expect(await migrate(db.sql)).toEqual(['0019_event_body_once']);
  const events = await query<{ id: string; body: string; sample: boolean }>(
    db.sql,
    sql`select id, body, sample from events where account_id = 'acct_migration' order by id`,
  );
  expect(events).toEqual([
    { id: 'evt_before_0006', body: '{"id": "evt_before_0006"}', sample: false },
    { id: 'evt_sample', body: '{"id":"evt_sample","test":true}', sample: true },
    { id: 'evt_sent', body: '{"id":"evt_sent","test":false}', sample: false },
  ]);
});
