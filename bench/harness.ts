// Shared by every benchmark: a server on a fresh PostgreSQL database, accounts and keys, and
// autocannon runs that print their figures. Benchmarks measure; they never fail a build.
//
// The server runs as its own process (`fieldhand serve`), as in production: with autocannon
// in the same process the load generator and the server shared one event loop, which added
// its own latency to every figure.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pino from 'pino';
import { systemClock } from '../src/core/clock.ts';
import { loadConfig } from '../src/core/config.ts';
import { type Database, openDatabase, sql } from '../src/core/db.ts';
import type { Deps } from '../src/core/deps.ts';
import { migrate } from '../src/core/migrate.ts';
import { buildDeps } from '../src/deps.ts';
import { createAccount, createApiKey, type DemoSeeder } from '../src/modules/accounts/index.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const CLI = fileURLToPath(new URL('../bin/fieldhand.js', import.meta.url));
const CEILING = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const STATEMENT_COUNTER = fileURLToPath(new URL('./statement-counter.mjs', import.meta.url));

export interface BenchServer {
  url: string;
  /** The benchmark's own connection to the server's database, for setup and checks. */
  database: Database;
  databaseUrl: string;
  /** Deps on that connection, built as the server builds its own, for calling services in setup. */
  deps: Deps;
  /** How many statements the server process has sent to the database so far (BEGIN/COMMIT included). */
  statements(): Promise<number>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
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

interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

async function startProcess(
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
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * The ceiling of this stack on the server's database: a bare Fastify route doing one
 * primary-key SELECT through a pool of the server's size, in its own process like the server.
 * `GET <url>/<table>/<id>` for customers and zones.
 */
export async function startCeilingServer(server: BenchServer): Promise<ServerProcess> {
  const port = await freePort();
  return startProcess(
    [TSX, CEILING],
    port,
    { CEILING_PORT: String(port), CEILING_DATABASE_URL: server.databaseUrl },
    '/zones/none',
  );
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
  // BENCH_NODE_ARGS passes flags to the server's node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const port = await freePort();
  const countPort = await freePort();
  const child = await startProcess(['--import', STATEMENT_COUNTER, ...nodeArgs, CLI, 'serve'], port, {
    BENCH_STATEMENTS_PORT: String(countPort),
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'silent',
    RATE_LIMIT_MAX: '100000000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    DATABASE_URL: databaseUrl,
    ...options.env,
  });
  return {
    url: child.url,
    database,
    databaseUrl,
    deps: buildDeps({
      config: loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
      database,
      clock: systemClock,
      log: pino({ level: 'silent' }),
    }),
    statements: async () => Number(await (await fetch(`http://127.0.0.1:${countPort}/`)).text()),
    close: async () => {
      await child.stop();
      await database.close();
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
  const figures: LoadResult = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
  console.log(
    `${name.padEnd(48)} ${String(figures.requestsPerSecond).padStart(7)} req/s   p50 ${String(figures.p50).padStart(4)} ms   p99 ${String(figures.p99).padStart(4)} ms` +
      (figures.errors || figures.non2xx ? `   (errors ${figures.errors}, non-2xx ${figures.non2xx})` : ''),
  );
  return figures;
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

/**
 * Runs `work` (a load run) and prints the statements the server sent per request during it. The
 * workers' idle polling falls in the window too: a few statements a second, noise next to the load.
 */
export async function perRequest<T extends LoadResult>(server: BenchServer, work: () => Promise<T>): Promise<T> {
  const before = await server.statements();
  const result = await work();
  const sent = (await server.statements()) - before;
  console.log(`${'  statements per request'.padEnd(48)} ${(sent / Math.max(1, result.total)).toFixed(1)}`);
  return result;
}
