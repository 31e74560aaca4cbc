// Shared by every benchmark: a server on a fresh PostgreSQL database, accounts and keys, and
// autocannon runs that print their figures. Benchmarks measure; they never fail a build.
//
// The server runs as its own process (`fieldhand serve`), as in production: with autocannon
// in the same process the load generator and the server shared one event loop, which added
// its own latency to every figure.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import pino from 'pino';
import { systemClock } from '../src/core/clock.ts';
import { loadConfig } from '../src/core/config.ts';
import { type Database, openDatabase, query, sql } from '../src/core/db.ts';
import type { Deps } from '../src/core/deps.ts';
import { migrate } from '../src/core/migrate.ts';
import { buildDeps } from '../src/deps.ts';
import { createAccount, createApiKey, type DemoSeeder } from '../src/modules/accounts/index.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const CLI = fileURLToPath(new URL('../bin/fieldhand.js', import.meta.url));
/** The node flags `npm start` gives the server (package.json's start script), for every bench server. */
export const START_FLAGS: string[] = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')).scripts.start as string
)
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));
const CEILING = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const STATEMENT_COUNTER = fileURLToPath(new URL('./statement-counter.mjs', import.meta.url));

export interface BenchServer {
  url: string;
  /** The server process, for its memory (`rssMb`). */
  pid: number | undefined;
  /** The benchmark's own connection to the server's database, for setup and checks. */
  database: Database;
  databaseUrl: string;
  /** Deps on that connection, built as the server builds its own, for calling services in setup. */
  deps: Deps;
  /** How many statements the server process has sent to the database so far (BEGIN/COMMIT included). */
  statements(): Promise<number>;
  /** CPU seconds so far of the server and of the database's backends (see `cpuSeconds`). */
  cpu(): CpuSeconds | undefined;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function waitUntilReady(readyUrl: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    const ready = await fetch(readyUrl).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become ready in 30 s');
}

export interface ServerProcess {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function startProcess(
  args: string[],
  port: number,
  env: Record<string, string>,
  readyPath = '/readyz',
): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore', 'inherit'],
  });
  await waitUntilReady(`${url}${readyPath}`, child);
  return {
    url,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * The ceiling of this stack on the server's database, measured in this run at 50 connections:
 * a bare Fastify route doing one primary-key SELECT through `pg`, and the same through the
 * project's query layer, in their own process like the server. `path(table)` gives a path
 * `/<table>/<id>` to read (customers or zones). Every later `load` at 50 connections prints its
 * ratio to the bare ceiling.
 */
export async function measureCeiling(server: BenchServer, path: () => string): Promise<Ceiling> {
  const port = await freePort();
  const process_ = await startProcess(
    [TSX, CEILING],
    port,
    { CEILING_PORT: String(port), CEILING_DATABASE_URL: server.databaseUrl },
    '/bare/zones/none',
  );
  try {
    const at = (prefix: string): Partial<LoadOptions> & { url: string } => ({
      url: process_.url,
      requests: [{ setupRequest: (req) => ({ ...req, path: `${prefix}${path()}` }) }],
    });
    ceiling = undefined; // the ceiling's own lines are not ratios to an earlier run's
    const bare = await load('ceiling: bare Fastify + pg, one PK select', at('/bare'));
    const layer = await load('  same through the query layer', at('/layer'));
    ceiling = { bare: bare.requestsPerSecond, layer: layer.requestsPerSecond, p99: bare.p99 };
    return ceiling;
  } finally {
    await process_.stop();
  }
}

export interface Ceiling {
  /** req/s of the bare route at 50 connections. */
  bare: number;
  /** req/s of the route through the query layer. */
  layer: number;
  /** p99 of the bare route: the machine's floor for any request. */
  p99: number;
}

/** The ceiling measured last in this process, if any. */
let ceiling: Ceiling | undefined;

/** Every figure printed in this process, for the summary at the end of `npm run bench`. */
export const figures: (LoadResult & { ratio?: number })[] = [];

/** Resident memory of a process in MB (Linux), or undefined where /proc is not there. */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) so far of the server process and of the PostgreSQL backends
 * serving `database` (Linux, PostgreSQL on this machine; undefined otherwise). Per request they
 * swing less than req/s (still ±15 %), which moves with whatever else the 2 shared cores do.
 */
interface CpuSeconds {
  server: number;
  /** Of `server`, the time in the kernel (the sockets to clients and to PostgreSQL). */
  serverSystem: number;
  postgres: number;
  /** The whole machine's busy time over all cores (load generator, kernel and PostgreSQL's own processes too). */
  machine: number;
}

function cpuSeconds(pid: number | undefined, database: string): CpuSeconds | undefined {
  // /proc/<pid>/stat after the command's name: utime and stime are the 12th and 13th fields
  const times = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  };
  const ticks = (stat: string) => {
    const { user, system } = times(stat);
    return user + system;
  };
  try {
    if (pid === undefined) return undefined;
    const { user, system: serverSystem } = times(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const server = user + serverSystem;
    // /proc/stat's first line: user nice system idle iowait irq softirq steal ...
    const [, ...all] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const jiffies = all.map(Number);
    const machine = (jiffies.reduce((a, b) => a + b, 0) - jiffies[3]! - jiffies[4]!) / 100;
    let postgres = 0;
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // a backend's title: "postgres: USER DATABASE HOST(PORT) STATE"
        if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${database} `)) continue;
        postgres += ticks(fs.readFileSync(`/proc/${entry}/stat`, 'utf8'));
      } catch {
        // the process ended meanwhile
      }
    }
    return { server, serverSystem, postgres, machine };
  } catch {
    return undefined;
  }
}

/** A fresh database on the PostgreSQL server, migrated, and a server process listening on it. */
export async function startBenchServer(options: { env?: Record<string, string> } = {}): Promise<BenchServer> {
  const name = `fieldhand_bench_${process.pid}_${Date.now()}`;
  const admin = await openDatabase({ databaseUrl: ADMIN_URL, poolSize: 1 });
  await admin.sql.execute(sql.raw(`create database ${name}`));
  await admin.close();
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${name}`;
  const databaseUrl = dbUrl.toString();
  const database = await openDatabase({ databaseUrl, poolSize: 10 });
  await migrate(database.sql);
  // the server's node runs with `npm start`'s flags, as in production; BENCH_NODE_ARGS adds
  // more, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  const nodeArgs = [...START_FLAGS, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const port = await freePort();
  const countPort = await freePort();
  const child = await startProcess(['--import', STATEMENT_COUNTER, ...nodeArgs, CLI, 'serve'], port, {
    BENCH_STATEMENTS_PORT: String(countPort),
    ...serveEnv(port, databaseUrl),
    ...options.env,
  });
  return {
    url: child.url,
    pid: child.pid,
    database,
    databaseUrl,
    deps: buildDeps({
      config: loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
      database,
      clock: systemClock,
      log: pino({ level: 'silent' }),
    }),
    statements: async () => Number(await (await fetch(`http://127.0.0.1:${countPort}/`)).text()),
    cpu: () => cpuSeconds(child.pid, name),
    close: async () => {
      await child.stop();
      await database.close();
      // BENCH_KEEP_DATABASE=1 leaves the database for EXPLAIN and psql after the run
      if (process.env.BENCH_KEEP_DATABASE) return console.log(`database kept: ${databaseUrl}`);
      const cleanup = await openDatabase({ databaseUrl: ADMIN_URL, poolSize: 1 });
      await cleanup.sql.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await cleanup.close();
    },
  };
}

export async function benchAccount(server: BenchServer, options: { demo?: DemoSeeder } = {}) {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const { account_id } = await createAccount(
    server.deps,
    { name: `Bench ${stamp}`, adminEmail: `bench-${stamp}@example.com`, adminPassword: 'bench-password' },
    options.demo,
  );
  const { key } = await createApiKey(server.deps, { accountId: account_id, environment: 'test' });
  return { accountId: account_id, key, tenant: { accountId: account_id, environment: 'test' as const } };
}

/**
 * `count` customers in the account's test environment, written in one statement (`<prefix><n>@example.com`,
 * phone +1415 and n), analysed; returns up to 1,000 of their ids to read back under load.
 */
export async function seedCustomers(
  server: BenchServer,
  accountId: string,
  count: number,
  prefix = 'bench',
): Promise<string[]> {
  const db = server.database.sql;
  await query(
    db,
    sql`insert into customers (id, account_id, environment, first_name, last_name, email, phone)
        select 'cust_' || substr(md5(random()::text || g::text), 1, 24), ${accountId}, 'test',
               'Bench', 'Customer ' || g, ${prefix} || g || '@example.com', '+1415' || lpad(g::text, 7, '0')
        from generate_series(1, ${count}) as g`,
  );
  await query(db, sql`analyze customers`);
  const rows = await query<{ id: string }>(
    db,
    sql`select id from customers where account_id = ${accountId} limit 1000`,
  );
  return rows.map((row) => row.id);
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

export type LoadOptions = autocannon.Options;

/** Runs autocannon (50 connections unless told otherwise) and prints one line of figures. */
export async function load(name: string, options: Partial<LoadOptions> & { url: string }): Promise<LoadResult> {
  const result = await autocannon({ connections: 50, duration: 10, ...options } as LoadOptions);
  const result_: LoadResult = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
  // a ratio only means something at the ceiling's own 50 connections
  const connections = options.connections ?? 50;
  const ratio = ceiling && connections === 50 ? result_.requestsPerSecond / ceiling.bare : undefined;
  figures.push({ ...result_, ratio });
  console.log(
    `${name.padEnd(52)} ${String(result_.requestsPerSecond).padStart(7)} req/s` +
      `${ratio === undefined ? '        ' : ` = ${ratio.toFixed(2)}×`}   p50 ${String(result_.p50).padStart(4)} ms   p99 ${String(result_.p99).padStart(4)} ms` +
      (result_.errors || result_.non2xx ? `   (errors ${result_.errors}, non-2xx ${result_.non2xx})` : ''),
  );
  return result_;
}

/** POSTs to `path` under load (see `load`); the i-th request sends `body(i)`. */
export function loadPosts(
  name: string,
  options: { url: string; headers: Record<string, string>; path: string; body: (i: number) => unknown },
): Promise<LoadResult> {
  let n = 0;
  return load(name, {
    url: options.url,
    headers: options.headers,
    method: 'POST',
    requests: [{ setupRequest: (req) => ({ ...req, path: options.path, body: JSON.stringify(options.body(n++)) }) }],
  });
}

export function heading(text: string): void {
  console.log(`\n== ${text}`);
}

export interface BenchPgBouncer {
  /** `databaseUrl` (a database on the bench's PostgreSQL) through this PgBouncer. */
  urlFor(databaseUrl: string): string;
  /** Client and server connections of the pool for `database`, from PgBouncer's SHOW POOLS. */
  pool(database: string): Promise<{ clients: number; servers: number }>;
  stop(): Promise<void>;
}

/** Debian's `pgbouncer` package puts it here; `PGBOUNCER` names another. */
export const PGBOUNCER = process.env.PGBOUNCER || '/usr/sbin/pgbouncer';

/**
 * A PgBouncer in transaction mode in front of the bench's PostgreSQL, on a free port, with
 * `poolSize` server connections per database at most. Runs as `postgres` when started as root
 * (PgBouncer refuses root); its config lives in a temp dir removed by `stop`.
 */
export async function startPgBouncer(poolSize = 20): Promise<BenchPgBouncer> {
  const upstream = new URL(ADMIN_URL);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-pgbouncer-'));
  fs.writeFileSync(path.join(dir, 'users.txt'), `"${upstream.username || 'postgres'}" ""\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      `admin_users = ${upstream.username || 'postgres'}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      `default_pool_size = ${poolSize}`,
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    fs.chownSync(dir, uid, -1);
  }
  const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', process.env.BENCH_LOG_LEVEL ? 'inherit' : 'ignore'],
  });
  const admin = () =>
    new pg.Client({ host: '127.0.0.1', port, user: upstream.username || 'postgres', database: 'pgbouncer' });
  for (let attempt = 0; ; attempt++) {
    const probe = admin();
    try {
      await probe.connect();
      await probe.end();
      break;
    } catch (error) {
      if (child.exitCode !== null || attempt > 100) throw new Error(`PgBouncer did not start: ${error}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    urlFor: (databaseUrl) => {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    pool: async (database) => {
      const client = admin();
      await client.connect();
      try {
        const { rows } = await client.query<Record<string, string>>('SHOW POOLS');
        const row = rows.find((r) => r.database === database);
        const sum = (...keys: string[]) => keys.reduce((total, key) => total + Number(row?.[key] ?? 0), 0);
        return {
          clients: sum('cl_active', 'cl_waiting'),
          servers: sum('sv_active', 'sv_idle', 'sv_used', 'sv_tested', 'sv_login'),
        };
      } finally {
        await client.end();
      }
    },
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One more `fieldhand serve` process on `server`'s database, with `env` over the bench's settings. */
export async function startBenchInstance(server: BenchServer, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  return startProcess([...START_FLAGS, CLI, 'serve'], port, { ...serveEnv(port, server.databaseUrl), ...env });
}

/** The bench's settings for a `fieldhand serve` on `port`: quiet, no rate limit, webhooks to local receivers. */
function serveEnv(port: number, databaseUrl: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'silent',
    RATE_LIMIT_MAX: '100000000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    DATABASE_URL: databaseUrl,
  };
}

/**
 * Runs `work` (a load run) and prints the statements the server sent per request during it. The
 * workers' idle polling falls in the window too: a few statements a second, noise next to the load.
 */
export async function perRequest<T extends LoadResult>(server: BenchServer, work: () => Promise<T>): Promise<T> {
  const before = await server.statements();
  const cpuBefore = server.cpu();
  const result = await work();
  const sent = (await server.statements()) - before;
  const cpuAfter = server.cpu();
  const requests = Math.max(1, result.total);
  console.log(`${'  statements per request'.padEnd(48)} ${(sent / requests).toFixed(1)}`);
  if (cpuBefore && cpuAfter) {
    const ms = (seconds: number) => ((1000 * seconds) / requests).toFixed(2);
    console.log(
      `${'  CPU per request'.padEnd(48)} server ${ms(cpuAfter.server - cpuBefore.server)} ms ` +
        `(kernel ${ms(cpuAfter.serverSystem - cpuBefore.serverSystem)}), ` +
        `PostgreSQL backends ${ms(cpuAfter.postgres - cpuBefore.postgres)} ms, ` +
        `whole machine ${ms(cpuAfter.machine - cpuBefore.machine)} ms`,
    );
  }
  return result;
}
