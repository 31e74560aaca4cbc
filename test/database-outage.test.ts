// CONTRACT §12: a database outage, made by a TCP proxy between the server and PostgreSQL that
// stops listening and resets every connection it carries. While it lasts, whatever needs the
// database answers 503 (API, dashboard, OAuth) and /healthz 200; once the proxy forwards again,
// requests, workers and LISTEN are back within 5 s and nothing queued is lost. Start-up waits for
// the database for DATABASE_CONNECT_TIMEOUT_S, then gives up with one clear line.
import { describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { databaseEnv, onPostgres, openTestDatabase, type TestDatabase } from './helpers/database.ts';
import * as faults from './helpers/faults.ts';
import { formClient } from './helpers/forms.ts';
import { apiClient } from './helpers/http.ts';
import { cleanUpAfterAll, freePort, outputOf, spawnServe, startServerProcess } from './helpers/processes.ts';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.ts';
import { waitFor } from './helpers/webhooks.ts';

const cleanups = cleanUpAfterAll();

const OUTAGE_MS = 8_000;

/** The run's PostgreSQL URL with its host and port replaced by the proxy's. */
function throughProxy(databaseUrl: string, port: number, name: string): string {
  const url = new URL(faults.withApplicationName(databaseUrl, name));
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

function target(databaseUrl: string) {
  const url = new URL(databaseUrl);
  return { host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) };
}

/**
 * A proxy in front of each of the database's paths (DATABASE_URL, and DATABASE_DIRECT_URL when
 * the run goes through PgBouncer, so that the LISTEN session meets the outage too), driven as one.
 */
async function proxiedDatabase(database: TestDatabase, name: string) {
  const env: Record<string, string> = {};
  const proxies: TcpProxy[] = [];
  for (const [key, url] of Object.entries(databaseEnv(database))) {
    const proxy = await startTcpProxy(target(url));
    cleanups.push(() => proxy.close());
    proxies.push(proxy);
    env[key] = throughProxy(url, proxy.port, name);
  }
  return {
    env,
    refuse: () => Promise.all(proxies.map((proxy) => proxy.refuse())),
    cut: () => {
      for (const proxy of proxies) proxy.cut();
    },
    forward: () => Promise.all(proxies.map((proxy) => proxy.forward())),
  };
}

describe.skipIf(!onPostgres())(
  'a database outage through a proxy (PostgreSQL only: the proxy stands in front of a PostgreSQL server)',
  () => {
    it('503 while down, /healthz 200; back within 5 s with workers and LISTEN; nothing queued is lost', async () => {
      const { receiver, smtp, database, db, seeded } = await faults.faultScene(cleanups, { receiverDelayMs: 300 });
      const name = faults.applicationName('outage');
      const proxy = await proxiedDatabase(database, name);
      const server = await startServerProcess(faults.faultServerEnv(proxy.env, 6, smtp?.url));
      const api = apiClient(server.url, seeded.key);
      const browser = formClient(server.url);
      const signedIn = await browser.signIn(seeded.adminEmail, 'correct horse battery staple');
      expect(signedIn.status).toBe(303);
      expect((await browser.get('/dashboard')).status).toBe(200);
      // writes before, during and after the outage; deliveries (300 ms each) are in flight at the cut
      const writers = await faults.startWriters(server.url, seeded.key, 3);
      await waitFor(() => receiver.inFlight.size > 0, { timeoutMs: 10_000, what: 'deliveries in flight' });

      const outageStart = Date.now();
      await proxy.refuse();
      proxy.cut();
      const probes: { what: string; status: number; body: string; headers: Headers }[] = [];
      const probe = async (what: string, request: () => Promise<Response>) => {
        const res = await request();
        probes.push({ what, status: res.status, body: await res.text(), headers: res.headers });
      };
      const auth = { authorization: `Bearer ${seeded.key}` };
      const cookie = () => [...browser.cookies].map(([key, value]) => `${key}=${value}`).join('; ');
      while (Date.now() - outageStart < OUTAGE_MS) {
        await Promise.all([
          probe('healthz', () => fetch(`${server.url}/healthz`)),
          probe('readyz', () => fetch(`${server.url}/readyz`)),
          probe('list customers', () => fetch(`${server.url}/v1/customers`, { headers: auth })),
          probe('dashboard', () => fetch(`${server.url}/dashboard`, { headers: { cookie: cookie() } })),
          probe('oauth token', () =>
            fetch(`${server.url}/oauth/token`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: 'grant_type=refresh_token&refresh_token=svc_rt_x&client_id=app_x&client_secret=y',
            }),
          ),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(server.child.exitCode).toBeNull();

      const restoredAt = Date.now();
      await proxy.forward();
      const backAt = await waitFor(
        async () => ((await api.get('/v1/customers?per_page=1')).status === 200 ? Date.now() : false),
        { timeoutMs: 10_000, everyMs: 50, what: 'the API to answer again' },
      );
      const listenAt = await waitFor(
        async () => ((await faults.backendsOf(db, name)).some((b) => /^listen /i.test(b.query)) ? Date.now() : false),
        { timeoutMs: 10_000, everyMs: 50, what: 'the LISTEN session' },
      );
      // workers: deliveries and e-mails are made again (new attempts, not ones recorded late)
      const since = new Date(restoredAt).toISOString();
      const workersAt = await waitFor(
        async () => {
          const [row] = await query<{ delivered: boolean; mailed: boolean }>(
            db,
            sql`select exists (select 1 from webhook_deliveries where account_id = ${seeded.tenant.accountId}
                                 and status = 'succeeded' and attempted_at >= ${since}) as delivered,
                       exists (select 1 from emails where account_id = ${seeded.tenant.accountId}
                                 and status = 'sent' and sent_at >= ${since}) as mailed`,
          );
          return row?.delivered && row.mailed ? Date.now() : false;
        },
        { timeoutMs: 10_000, everyMs: 50, what: 'a delivery and an e-mail made after the outage' },
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await writers.stop();
      console.log(
        `outage: ${OUTAGE_MS} ms; API back ${backAt - restoredAt} ms after the proxy forwards, LISTEN ` +
          `${listenAt - restoredAt} ms, a delivery and an e-mail made ${workersAt - restoredAt} ms after`,
      );
      expect(backAt - restoredAt).toBeLessThan(5_000);
      expect(listenAt - restoredAt).toBeLessThan(5_000);
      expect(workersAt - restoredAt).toBeLessThan(5_000);

      // during the outage: 503 in each part's own shape, /healthz 200
      const by = (what: string) => probes.filter((p) => p.what === what);
      expect(by('healthz').every((p) => p.status === 200)).toBe(true);
      for (const what of ['readyz', 'list customers']) {
        expect(by(what).map((p) => p.status)).toEqual(by(what).map(() => 503));
        for (const p of by(what)) {
          expect(JSON.parse(p.body).error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
          expect(p.headers.get('request-id')).toMatch(/^req_/);
        }
      }
      expect(by('list customers').every((p) => p.headers.get('retry-after') !== null)).toBe(true);
      for (const p of by('dashboard')) {
        expect(p.status).toBe(503);
        expect(p.headers.get('content-type')).toMatch(/^text\/html/);
        expect(p.body).toContain('temporarily unavailable');
      }
      for (const p of by('oauth token')) {
        expect(p.status).toBe(503);
        expect(JSON.parse(p.body)).toMatchObject({ error: 'temporarily_unavailable' });
        expect(p.headers.get('retry-after')).not.toBeNull();
      }
      const outcomes = writers.outcomes;
      faults.expectOnlyCleanFailures(outcomes);
      expect(outcomes.some((o) => o.status === 503)).toBe(true);
      expect(await faults.missingAcknowledged(db, outcomes)).toEqual([]);

      // everything queued before and around the outage goes out afterwards
      await faults.everythingQueuedGoesOut(db, seeded.tenant, receiver, { emailsWithinMs: 150_000, everyMs: 500 });

      faults.expectNoSecrets(server.logs, {
        apiKey: seeded.key,
        webhookSecret: seeded.webhookSecret,
        emails: writers.emails,
      });
      const problems = faults.problemsBetween(server.logs, outageStart, backAt + 5_000);
      const seconds = (backAt + 5_000 - outageStart) / 1000;
      console.log(
        `outage: ${problems.length} warning/error lines in ${seconds.toFixed(1)} s ` +
          `(${(problems.length / seconds).toFixed(1)}/s); most of one kind in 10 s: ${faults.mostOfOneKindPer10s(problems)}; ` +
          `probes ${probes.length}, writes ${outcomes.length}`,
      );
      expect(problems.length / seconds).toBeLessThan(20);
      expect(faults.mostOfOneKindPer10s(problems)).toBeLessThanOrEqual(1);
      // the count of what was held back is logged with it
      expect(problems.some((line) => typeof line.suppressed === 'number' && line.suppressed > 0)).toBe(true);
    }, 300_000);

    it('serve started while the database refuses keeps trying, logging each attempt, and starts once it can', async () => {
      const database = await openTestDatabase();
      cleanups.push(() => database.close());
      const name = faults.applicationName('startup');
      const proxy = await proxiedDatabase(database, name);
      await proxy.refuse();
      const server = await startServerProcess(
        {
          ...proxy.env,
          DATABASE_POOL_SIZE: '2',
          LOG_LEVEL: 'info',
          RUN_WORKERS: 'false',
        },
        { waitUntilUp: false },
      );
      const attempts = () =>
        faults.parseLogs(server.logs).filter((line) => /database/.test(line.msg ?? '') && line.level === 40);
      await waitFor(() => attempts().length >= 2, { timeoutMs: 60_000, everyMs: 100, what: 'two attempts logged' });
      expect(server.child.exitCode).toBeNull();
      const forwardedAt = Date.now();
      await proxy.forward();
      await server.up();
      expect(Date.now() - forwardedAt).toBeLessThan(10_000);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      for (const line of attempts()) expect(line.msg).toMatch(/connection refused/);
    }, 120_000);
  },
);

describe('serve when the database never answers', () => {
  it('gives up after DATABASE_CONNECT_TIMEOUT_S with "cannot reach the database at HOST:PORT: REASON"', async () => {
    const port = await freePort();
    const child = spawnServe(await freePort(), {
      LOG_LEVEL: 'info',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/fieldhand`,
      DATABASE_CONNECT_TIMEOUT_S: '2',
    });
    const { code, stdout, stderr } = await outputOf(child);
    expect(code).not.toBe(0);
    expect(stderr).toBe(`cannot reach the database at 127.0.0.1:${port}: connection refused\n`);
    const attempts = faults.parseLogs(stdout.split('\n')).filter((line) => /database/.test(line.msg ?? ''));
    expect(attempts.length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
