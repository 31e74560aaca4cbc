// Behind PgBouncer in transaction mode nothing may rest on a session: the time zone is set on
// each new connection (PgBouncer refuses the `options` startup parameter and carries TimeZone to
// whichever server connection a transaction gets), and what needs a session of its own, the
// migrations and the webhook worker's LISTEN, takes DATABASE_DIRECT_URL. PostgreSQL only: PGlite
// is one session in this process, with no pooler and no second URL.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { openDatabase, query, sql, transaction } from '../src/core/db.ts';
import { randomBase62 } from '../src/core/ids.ts';
import { adminStatement, databaseEnv, databaseUrl, onPostgres, openTestDatabase } from './helpers/database.ts';
import { applicationName, withApplicationName } from './helpers/faults.ts';
import { cleanUpAfterAll, startServerProcess } from './helpers/processes.ts';
import { waitFor } from './helpers/webhooks.ts';

const cleanups = cleanUpAfterAll();

interface NamedBackend {
  application_name: string;
  query: string;
  wait_event_type: string | null;
}

describe.skipIf(!onPostgres())('sessions behind PgBouncer (PostgreSQL only: PGlite has no pooler)', () => {
  it('timestamps come back in UTC through DATABASE_URL and directly, whatever the database’s own time zone', async () => {
    // an empty database of its own, set to Auckland before anything (PgBouncer too) connects to it
    const postgres = inject('postgres');
    if (!postgres) throw new Error('no PostgreSQL');
    const adminUrl = postgres.directServerUrl ?? postgres.serverUrl;
    const name = `fieldhand_test_tz_${randomBase62(10).toLowerCase()}`;
    await adminStatement(adminUrl, `create database ${name}`);
    cleanups.push(() => adminStatement(adminUrl, `drop database if exists ${name} with (force)`));
    await adminStatement(adminUrl, `alter database ${name} set timezone to 'Pacific/Auckland'`);
    const urls = [postgres.serverUrl, postgres.directServerUrl].flatMap((url) => (url ? [databaseUrl(url, name)] : []));
    for (const url of urls) {
      // a connection that sets nothing gets Auckland: the check below would see a missing SET
      const bare = new pg.Client({ connectionString: url });
      await bare.connect();
      const { rows } = await bare.query<{ zone: string }>('select current_setting($1) as zone', ['TimeZone']);
      await bare.end();
      expect(rows[0]?.zone).toBe('Pacific/Auckland');

      const opened = await openDatabase({ databaseUrl: url, poolSize: 4 });
      try {
        // side by side, so that several pool connections (and server connections) answer
        const answers = await Promise.all(
          Array.from({ length: 8 }, () =>
            transaction(opened.sql, (tx) =>
              query<{ now: string; zone: string }>(
                tx,
                sql`select now()::text as now, current_setting('TimeZone') as zone`,
              ),
            ),
          ),
        );
        for (const [row] of answers) {
          expect(row?.zone).toBe('UTC');
          expect(row?.now).toMatch(/\+00$/);
        }
      } finally {
        await opened.close();
      }
    }
  }, 60_000);

  it('serve migrates and LISTENs on DATABASE_DIRECT_URL, and serves requests on DATABASE_URL', async () => {
    const database = await openTestDatabase();
    cleanups.push(() => database.close());
    const label = applicationName('paths');
    const pooled = `${label}_pooled`;
    const direct = `${label}_direct`;
    // without PgBouncer in the run, both name the same server: the names tell the paths apart
    const env = databaseEnv(database);
    const directUrl = env.DATABASE_DIRECT_URL ?? env.DATABASE_URL ?? '';
    const backends = () =>
      query<NamedBackend>(
        database.sql,
        sql`select application_name, query, wait_event_type from pg_stat_activity
            where application_name in (${pooled}, ${direct}) and pid <> pg_backend_pid()`,
      );

    // the migrations' first statement waits for this lock: the session that waits is theirs
    const started = await transaction(database.sql, async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(727001)`);
      const server = await startServerProcess(
        {
          DATABASE_URL: withApplicationName(env.DATABASE_URL ?? '', pooled),
          DATABASE_DIRECT_URL: withApplicationName(directUrl, direct),
          RUN_WORKERS: 'true',
        },
        { waitUntilUp: false },
      );
      const migrating = await waitFor(
        async () =>
          (await backends()).find((b) => /pg_advisory_xact_lock/.test(b.query) && b.wait_event_type === 'Lock'),
        { timeoutMs: 60_000, everyMs: 100, what: 'the migrations to wait for the lock' },
      );
      expect(migrating.application_name).toBe(direct);
      return server;
    });
    await started.up();

    const listening = await waitFor(async () => (await backends()).filter((b) => /^listen /i.test(b.query)), {
      timeoutMs: 30_000,
      everyMs: 100,
      what: 'the LISTEN session',
    });
    expect(listening.map((b) => b.application_name)).toEqual([direct]);
    // requests use the pool on DATABASE_URL (its backends take the pooled name, also through
    // PgBouncer, which sets it on whichever server connection it lends: asked again while requests
    // run, as a lent connection can be between clients at the moment of one look)
    await waitFor(
      async () => {
        expect((await fetch(`${started.url}/readyz`)).status).toBe(200);
        return (await backends()).some((b) => b.application_name === pooled);
      },
      { timeoutMs: 10_000, everyMs: 100, what: 'a backend of the pool on DATABASE_URL' },
    );
  }, 120_000);
});
