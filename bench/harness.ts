// Shared by every benchmark: a server on a fresh PostgreSQL database, accounts and keys, and
// autocannon runs that print their figures. Benchmarks measure; they never fail a build.
import autocannon from 'autocannon';
import { type App, buildApp } from '../src/app.ts';
import { systemClock } from '../src/core/clock.ts';
import { loadConfig } from '../src/core/config.ts';
import { type Database, openDatabase, sql } from '../src/core/db.ts';
import { migrate } from '../src/core/migrate.ts';
import { createAccount, createApiKey } from '../src/modules/accounts/index.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchServer {
  url: string;
  app: App;
  database: Database;
  databaseUrl: string;
  close(): Promise<void>;
}

/** A fresh database on the PostgreSQL server, migrated, and the app listening on it. */
export async function startBenchServer(options: { env?: Record<string, string>; poolSize?: number } = {}) {
  const name = `fieldhand_bench_${process.pid}_${Date.now()}`;
  const admin = await openDatabase({ databaseUrl: ADMIN_URL, poolSize: 1 });
  await admin.sql.execute(sql.raw(`create database ${name}`));
  await admin.close();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const database = await openDatabase({ databaseUrl, poolSize: options.poolSize ?? 20 });
  await migrate(database.sql);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    DATABASE_URL: databaseUrl,
    ...options.env,
  });
  const app = await buildApp({ config, database, clock: systemClock, logger: false });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  app.startWorkers();
  const address = app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    database,
    databaseUrl,
    close: async () => {
      await app.close();
      await database.close();
      const cleanup = await openDatabase({ databaseUrl: ADMIN_URL, poolSize: 1 });
      await cleanup.sql.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await cleanup.close();
    },
  } satisfies BenchServer;
}

export async function benchAccount(
  server: BenchServer,
  options: { demo?: (tx: never, tenant: never) => Promise<void> } = {},
) {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const { account_id } = await createAccount(
    server.database.sql,
    { name: `Bench ${stamp}`, adminEmail: `bench-${stamp}@example.com`, adminPassword: 'bench-password' },
    options.demo as never,
  );
  const { key } = await createApiKey(server.database.sql, { accountId: account_id, environment: 'test' });
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

export function heading(text: string): void {
  console.log(`\n== ${text}`);
}
