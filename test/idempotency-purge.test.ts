// Idempotency keys are kept 24 hours (CONTRACT §3) and then purged by a scheduled job
// (CONTRACT §12).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { query, sql } from '../src/core/db.ts';
import { idempotencyPurgeWorker } from '../src/core/http/idempotency.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';

const HOUR = 60 * 60 * 1000;
const clock = new ManualClock('2026-06-01T12:00:00Z');
let t: TestApp;
let acct: TestAccount;

beforeAll(async () => {
  t = await startTestApp({ clock, workers: false });
  acct = await createTestAccount(t);
});
afterAll(async () => {
  await t?.close();
});

async function storedKeys(): Promise<string[]> {
  const rows = await query<{ key: string }>(
    t.database.sql,
    sql`select key from idempotency_keys where account_id = ${acct.accountId} order by key`,
  );
  return rows.map((row) => row.key);
}

function createCustomer(key: string, email: string) {
  return acct.api.post(
    '/v1/customers',
    { first_name: 'Ada', last_name: 'Lovelace', email },
    { 'idempotency-key': key },
  );
}

/** Stored keys `created_at` ago, as the API would have left them. */
async function insertKeys(prefix: string, count: number, createdAt: Date): Promise<void> {
  for (let n = 1; n <= count; n++) {
    await query(
      t.database.sql,
      sql`insert into idempotency_keys (account_id, environment, key, fingerprint, state, response_status,
                                        response_body, created_at, locked_at)
          values (${acct.accountId}, 'test', ${`${prefix}-${n}`}, 'f', 'done', 200, '{}', ${createdAt}, ${createdAt})`,
    );
  }
}

describe('idempotency purge', () => {
  it('forgets keys older than 24 hours after one run of the job, and keeps newer ones', async () => {
    const first = await createCustomer('old-key', 'old@example.com');
    expect(first.status).toBe(201);
    clock.advance(24 * HOUR - 60_000);
    expect((await createCustomer('recent-key', 'recent@example.com')).status).toBe(201);
    clock.advance(2 * 60_000); // old-key is now 24 h 1 min old, recent-key 2 min
    expect((await createCustomer('new-key', 'new@example.com')).status).toBe(201);
    expect(await storedKeys()).toEqual(['new-key', 'old-key', 'recent-key']);

    const purged = await t.app.workers.idempotencyPurge.runOnce();
    expect(purged).toBe(1);
    expect(await storedKeys()).toEqual(['new-key', 'recent-key']);

    // the kept one is still replayed; the forgotten one is free for a new request
    const replay = await createCustomer('recent-key', 'recent@example.com');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await createCustomer('old-key', 'old-again@example.com');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);

    // a second run finds nothing more to do
    expect(await t.app.workers.idempotencyPurge.runOnce()).toBe(0);
  });

  it('deletes a backlog in bounded batches until none is left', async () => {
    await insertKeys('backlog', 7, new Date(clock.now().getTime() - 30 * HOUR));
    await insertKeys('young', 2, new Date(clock.now().getTime() - 23 * HOUR));
    expect(await idempotencyPurgeWorker(t.app.deps, { batchSize: 3 }).runOnce()).toBe(7);
    const left = await storedKeys();
    expect(left.filter((key) => key.startsWith('backlog'))).toEqual([]);
    expect(left.filter((key) => key.startsWith('young'))).toEqual(['young-1', 'young-2']);
  });

  it('runs once when the workers start', async () => {
    await insertKeys('before-start', 2, new Date(clock.now().getTime() - 48 * HOUR));
    const second = await startTestApp({ clock, database: t.database, workers: false });
    try {
      second.app.startWorkers();
      // stopping waits for the pass the start began
      await second.app.workers.idempotencyPurge.stop();
      expect((await storedKeys()).some((key) => key.startsWith('before-start'))).toBe(false);
      expect(await storedKeys()).toContain('young-1');
    } finally {
      await second.close();
    }
  });
});
