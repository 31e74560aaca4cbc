// Issue 16: several instances on one PostgreSQL through PgBouncer in transaction mode. Two
// `fieldhand serve` processes (DATABASE_URL through one PgBouncer, DATABASE_DIRECT_URL straight
// to the server) under load at the same time: each one's and the combined req/s, against the
// ceiling route in the same run, and how many server connections PgBouncer needed for them.
import fs from 'node:fs';
import { query, sql } from '../src/core/db.ts';
import {
  benchAccount,
  heading,
  type LoadResult,
  load,
  measureCeiling,
  PGBOUNCER,
  seedCustomers,
  startBenchInstance,
  startBenchServer,
  startPgBouncer,
} from './harness.ts';

const CUSTOMERS = 10_000;
const POOL_SIZE = 20;
const PGBOUNCER_POOL = 20;

export default async function run(): Promise<void> {
  heading(
    `pgbouncer: 2 instances × DATABASE_POOL_SIZE ${POOL_SIZE} through one PgBouncer (transaction mode, ` +
      `${PGBOUNCER_POOL} server connections at most), 50 connections in all, PostgreSQL`,
  );
  // the other scenarios still run on a machine without it (.ci/run installs it for the tests)
  if (!fs.existsSync(PGBOUNCER)) {
    console.log(`skipped: no PgBouncer at ${PGBOUNCER} (apt-get install pgbouncer, or set PGBOUNCER)`);
    return;
  }
  const server = await startBenchServer();
  const bouncer = await startPgBouncer(PGBOUNCER_POOL);
  try {
    const account = await benchAccount(server);
    const ids = await seedCustomers(server, account.accountId, CUSTOMERS);
    let n = 0;
    const byId = {
      requests: [{ setupRequest: (req: object) => ({ ...req, path: `/v1/customers/${ids[n++ % ids.length]}` }) }],
    };
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };

    const ceiling = await measureCeiling(server, () => `/customers/${ids[n++ % ids.length]}`);

    const env = {
      DATABASE_URL: bouncer.urlFor(server.databaseUrl),
      DATABASE_DIRECT_URL: server.databaseUrl,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
    };
    const instances = await Promise.all([startBenchInstance(server, env), startBenchInstance(server, env)]);
    const [first, second] = instances as [(typeof instances)[0], (typeof instances)[0]];

    const side = async (label: string, run: (url: string, name: string) => Promise<LoadResult>) => {
      const results = await Promise.all([
        run(first.url, `${label}, instance 1`),
        run(second.url, `${label}, instance 2`),
      ]);
      const combined = results.reduce((total, result) => total + result.requestsPerSecond, 0);
      console.log(`${`${label}, combined`.padEnd(48)} ${String(combined).padStart(7)} req/s`);
      return combined;
    };
    const reads = await side('GET /v1/customers/:id via PgBouncer', (url, name) =>
      load(name, { url, headers, connections: 25, ...byId }),
    );
    let c = 0;
    const writes = await side('POST /v1/customers via PgBouncer', (url, name) =>
      load(name, {
        url,
        headers,
        connections: 25,
        method: 'POST',
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              path: '/v1/customers',
              body: JSON.stringify({
                first_name: 'Pat',
                last_name: `Load${++c}`,
                email: `pat.${c}.${Date.now()}@example.com`,
              }),
            }),
          },
        ],
      }),
    );
    const name = new URL(server.databaseUrl).pathname.slice(1);
    const pool = await bouncer.pool(name);
    const [backends] = await query<{ count: number }>(
      server.database.sql,
      sql`select count(*)::int as count from pg_stat_activity where datname = ${name}`,
    );
    console.log(`GET by id, both instances / ceiling: ${(reads / ceiling.bare).toFixed(2)}`);
    console.log(`POST customers, both instances / ceiling: ${(writes / ceiling.bare).toFixed(2)}`);
    console.log(
      `PgBouncer: ${pool.servers} server connections for the instances' pools (up to 2 × ${POOL_SIZE} clients); ` +
        `backends on the database now (PgBouncer's, LISTEN, the bench's own): ${backends?.count}`,
    );
    await Promise.all(instances.map((instance) => instance.stop()));
  } finally {
    await bouncer.stop();
    await server.close();
  }
}
