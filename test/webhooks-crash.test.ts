// Real server processes (`fieldhand serve`) delivering to a local receiver: a kill -9 in the
// middle loses no event, and two instances on one PostgreSQL never attempt one delivery at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase, query, sql, transaction } from '../src/core/db.ts';
import { migrate } from '../src/core/migrate.ts';
import { createAccount, createApiKey } from '../src/modules/accounts/index.ts';
import { createWebhook } from '../src/modules/webhooks/index.ts';
import { depsFor } from './helpers/app.ts';
import { databaseEnv, onPostgres, openTestDatabase } from './helpers/database.ts';
import { cleanUpAfterAll, exited, startServerProcess } from './helpers/processes.ts';
import { type Receiver, startReceiver, waitFor } from './helpers/webhooks.ts';

const EVENTS = 1_000;
const cleanups = cleanUpAfterAll();

function startServer(env: Record<string, string>) {
  return startServerProcess({ ...env, RUN_WORKERS: 'true', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
}

/** An account, an endpoint on the receiver for every event, and `count` published events. */
async function seed(database: Database, receiver: Receiver, count: number) {
  // deps as a server builds them: events published here fan out to webhooks the same way
  const deps = depsFor(database);
  const db = database.sql;
  const { account_id } = await createAccount(deps, {
    name: 'Crash Co',
    adminEmail: `crash-${Date.now()}-${Math.random()}@example.com`,
    adminPassword: 'correct horse battery staple',
  });
  const tenant = { accountId: account_id, environment: 'test' as const };
  const key = await createApiKey(deps, tenant);
  const endpoint = await createWebhook(deps, tenant, {
    url: `${receiver.url}/hook`,
    events: ['*'],
  });
  return {
    endpoint,
    /** Attempts not yet made, as the server reports them. */
    pending: async (serverUrl: string) => {
      const res = await fetch(`${serverUrl}/v1/webhooks/${endpoint.id}/deliveries?status=pending&per_page=1`, {
        headers: { authorization: `Bearer ${key.key}` },
      });
      return ((await res.json()) as { pagination: { total: number } }).pagination.total;
    },
    publish: async () => {
      const ids: string[] = [];
      for (let batch = 0; batch < count / 100; batch++) {
        await transaction(db, async (tx) => {
          for (let i = 0; i < 100; i++) {
            const event = await deps.events.publish(
              tx,
              tenant,
              'customer.updated',
              { id: `cust_${batch}_${i}` },
              new Date(),
            );
            ids.push(event.id);
          }
        });
      }
      return ids;
    },
  };
}

const distinct = (receiver: Receiver) => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size;

describe('delivery survives a crash', () => {
  it('kill -9 in the middle of 1,000 deliveries, restart: every event reaches the receiver', async () => {
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 40 }));
    cleanups.push(() => receiver.close());
    let env: Record<string, string>;
    let database: Database;
    let eventIds: string[];
    let pending: (serverUrl: string) => Promise<number>;
    const ownDatabase = await openTestDatabase();
    if (ownDatabase.url) {
      cleanups.push(() => ownDatabase.close());
      database = ownDatabase;
      env = databaseEnv(ownDatabase);
      const seeded = await seed(database, receiver, EVENTS);
      pending = seeded.pending;
      eventIds = await seeded.publish();
    } else {
      // the embedded database belongs to one process: seed it, close it, hand it over
      await ownDatabase.close();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-crash-'));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      database = await openDatabase({ dataDir });
      await migrate(database.sql);
      const seeded = await seed(database, receiver, EVENTS);
      pending = seeded.pending;
      eventIds = await seeded.publish();
      await database.close();
      env = { DATA_DIR: dataDir };
    }
    expect(eventIds).toHaveLength(EVENTS);

    const { child: first } = await startServer(env);
    await waitFor(() => distinct(receiver) >= 200, { timeoutMs: 60_000, what: '200 deliveries' });
    const inFlightAtKill = receiver.inFlight.size;
    first.kill('SIGKILL');
    await exited(first);
    const deliveredBeforeKill = distinct(receiver);
    expect(deliveredBeforeKill).toBeLessThan(EVENTS);
    expect(inFlightAtKill).toBeGreaterThan(0);

    const second = await startServer(env);
    await waitFor(() => distinct(receiver) === EVENTS, { timeoutMs: 120_000, everyMs: 200, what: 'every event' });
    // the attempts the killed server had in flight are made again once its leases expire
    await waitFor(async () => (await pending(second.url)) === 0, {
      timeoutMs: 60_000,
      everyMs: 500,
      what: 'no attempt left pending',
    });
    second.child.kill('SIGTERM');
    await exited(second.child);

    const received = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(eventIds.filter((id) => !received.has(id))).toEqual([]);
    if (ownDatabase.url) {
      const rows = await query<{ status: string; count: number }>(
        database.sql,
        sql`select status, count(*) as count from webhook_deliveries group by status`,
      );
      expect(rows).toEqual([{ status: 'succeeded', count: EVENTS }]);
    }
  }, 240_000);
});

describe.skipIf(!onPostgres())('several instances on one PostgreSQL', () => {
  it('two servers deliver 1,000 events, never attempting the same delivery at the same time', async () => {
    // 50 ms a delivery: one instance alone holds at most 200 attempts (its capacity), a second of
    // sending, so the other's polls (every 100 ms) find work even on a loaded machine; at 10 ms the
    // first to poll after each commit could take everything and the other never take part
    const receiver = await startReceiver(() => ({ status: 200, delayMs: 50 }));
    cleanups.push(() => receiver.close());
    const database = await openTestDatabase();
    cleanups.push(() => database.close());
    const env = databaseEnv(database);
    const { publish } = await seed(database, receiver, EVENTS);
    const servers = await Promise.all([startServer(env), startServer(env)]);

    const eventIds = await publish();
    await waitFor(() => distinct(receiver) === EVENTS, { timeoutMs: 120_000, everyMs: 100, what: 'every event' });
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => exited(server.child)));

    expect(receiver.overlaps).toEqual([]);
    expect(receiver.received).toHaveLength(EVENTS);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set(eventIds));
    const attempts = await query<{ attempts: number; owners: number; succeeded: number }>(
      database.sql,
      sql`select count(*) as attempts, count(distinct lease_owner) as owners,
                   count(*) filter (where status = 'succeeded') as succeeded from webhook_deliveries`,
    );
    // both instances took part, and each delivery was attempted once
    expect(attempts).toEqual([{ attempts: EVENTS, owners: 2, succeeded: EVENTS }]);
  }, 240_000);
});
