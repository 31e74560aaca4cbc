// CONTRACT §12: a PostgreSQL connection dropped under a server (pg_terminate_backend of every
// backend it holds, again and again, under concurrent writes) never ends the process; the
// requests that were using one answer 503 in the contract's shape, nothing acknowledged is lost,
// and the server works again at once. Its log holds no SQL parameters or secrets.
import { describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { onPostgres } from './helpers/database.ts';
import {
  applicationName,
  backendsOf,
  everythingQueuedGoesOut,
  expectNoSecrets,
  expectOnlyCleanFailures,
  faultScene,
  faultServerEnv,
  missingAcknowledged,
  mostOfOneKindPer10s,
  namedDatabaseEnv,
  problemsBetween,
  startWriters,
  terminateBackends,
} from './helpers/faults.ts';
import { cleanUpAfterAll, startServerProcess } from './helpers/processes.ts';
import { waitFor } from './helpers/webhooks.ts';

const cleanups = cleanUpAfterAll();

const ROUNDS = 5;

describe.skipIf(!onPostgres())(
  'pg_terminate_backend under write load (PostgreSQL only: PGlite has no server connections to drop)',
  () => {
    it('the process stays up, failures are 503 with Retry-After, every 2xx row exists, recovery is immediate', async () => {
      const { receiver, smtp, database, db, seeded } = await faultScene(cleanups, { receiverDelayMs: 20 });
      const name = applicationName('terminate');
      const server = await startServerProcess(faultServerEnv(namedDatabaseEnv(database, name), 8, smtp?.url));
      const writers = await startWriters(server.url, seeded.key);

      // terminate every backend of this server (pool, LISTEN) every 1.5 s under the load
      const startedAt = Date.now();
      let terminated = 0;
      let lastTerminateAt = 0;
      for (let round = 0; round < ROUNDS; round++) {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        terminated += await terminateBackends(db, name);
        lastTerminateAt = Date.now();
        expect(server.child.exitCode).toBeNull();
      }
      // the first success after the last round, however long the load takes to get one in
      const recovered = await waitFor(
        () => writers.outcomes.find((o) => o.at > lastTerminateAt && o.status >= 200 && o.status < 300)?.at,
        { timeoutMs: 10_000, what: 'a write to succeed after the last terminate' },
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await writers.stop();
      const endedAt = Date.now();

      expect(server.child.exitCode).toBeNull();
      expect(server.child.signalCode).toBeNull();
      expect(terminated).toBeGreaterThanOrEqual(ROUNDS);
      const outcomes = writers.outcomes;
      const statuses = countBy(outcomes.map((o) => o.status));
      console.log(
        `terminate: ${terminated} backends in ${ROUNDS} rounds; answers ${JSON.stringify(statuses)}; ` +
          `first success ${recovered - lastTerminateAt} ms after the last round`,
      );
      expectOnlyCleanFailures(outcomes);
      expect(outcomes.filter((o) => o.status >= 200 && o.status < 300).length).toBeGreaterThan(50);
      expect(recovered - lastTerminateAt).toBeLessThan(5_000);
      expect(await missingAcknowledged(db, outcomes)).toEqual([]);

      // nothing half-written: the per-status booking totals match the rows
      const [counts] = await query<{ stored: number; counted: number }>(
        db,
        sql`select (select coalesce(sum(count), 0) from booking_counts where account_id = ${seeded.tenant.accountId}) as stored,
                   (select count(*) from bookings where account_id = ${seeded.tenant.accountId}) as counted`,
      );
      expect(counts?.stored).toBe(counts?.counted);

      // every event written reaches the receiver (at least once), every e-mail is sent
      await everythingQueuedGoesOut(db, seeded.tenant, receiver);
      // the LISTEN session is back too
      await waitFor(async () => (await backendsOf(db, name)).some((backend) => /^listen /i.test(backend.query)), {
        timeoutMs: 5_000,
        what: 'the LISTEN session',
      });

      // the log: no SQL parameters or secrets, and a bounded number of problems
      expectNoSecrets(server.logs, {
        apiKey: seeded.key,
        webhookSecret: seeded.webhookSecret,
        emails: writers.emails,
      });
      const problems = problemsBetween(server.logs, startedAt, endedAt);
      const seconds = (endedAt - startedAt) / 1000;
      console.log(
        `terminate: ${problems.length} warning/error lines in ${seconds.toFixed(1)} s ` +
          `(${(problems.length / seconds).toFixed(1)}/s); most of one kind in 10 s: ${mostOfOneKindPer10s(problems)}`,
      );
      expect(problems.length / seconds).toBeLessThan(20);
      expect(mostOfOneKindPer10s(problems)).toBeLessThanOrEqual(1);
    }, 240_000);
  },
);

function countBy(values: number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
