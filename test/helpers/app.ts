// Starts the real application on a database of its own and an ephemeral port; tests talk HTTP to it.
import pino from 'pino';
import { type App, buildApp } from '../../src/app.ts';
import { type Clock, systemClock } from '../../src/core/clock.ts';
import { type Config, loadConfig } from '../../src/core/config.ts';
import type { Database } from '../../src/core/db.ts';
import type { Deps } from '../../src/core/deps.ts';
import type { Environment } from '../../src/core/tenant.ts';
import { buildDeps } from '../../src/deps.ts';
import { createAccount, createApiKey } from '../../src/modules/accounts/index.ts';
import { seedDemoEnvironment } from '../../src/modules/demo/index.ts';
import { openTestDatabase, type TestDatabase } from './database.ts';
import { type Api, apiClient } from './http.ts';

export interface TestApp {
  url: string;
  app: App;
  database: TestDatabase;
  clock: Clock;
  config: Config;
  close(): Promise<void>;
}

/** The settings every test server runs with, plus the test's own. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    RATE_LIMIT_MAX: '100000',
    // Tests stand in for many clients behind one proxy: X-Forwarded-For tells them apart.
    TRUST_PROXY: 'true',
    ...env,
  });
}

/** Deps as the app builds them, for calling services directly (seeding, crash tests, benches). */
export function depsFor(database: Database, options: { clock?: Clock; env?: Record<string, string> } = {}): Deps {
  return buildDeps({
    config: testConfig(options.env),
    database,
    clock: options.clock ?? systemClock,
    log: pino({ level: 'silent' }),
  });
}

export async function startTestApp(
  options: {
    clock?: Clock;
    env?: Record<string, string>;
    /** A database to share with other servers (the caller closes it); else one of its own. */
    database?: TestDatabase;
    /** Start the workers' loops (default); with false, tests make their passes by hand (`app.workers`). */
    workers?: boolean;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  const config = testConfig(options.env);
  const clock = options.clock ?? systemClock;
  const app = await buildApp({ config, database, clock, logger: false });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  if (options.workers !== false) app.startWorkers();
  const address = app.server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    app,
    database,
    clock,
    config: { ...config, baseUrl: url, authUrl: url },
    close: async () => {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

/**
 * A server and an account in it, for the tests of one file:
 * `beforeAll(async () => { ({ t, acct } = await startWithAccount()); return t.close; })`.
 */
export async function startWithAccount(
  options: Parameters<typeof startTestApp>[0] = {},
  account: { demo?: boolean } = {},
): Promise<{ t: TestApp; acct: TestAccount }> {
  const t = await startTestApp(options);
  return { t, acct: await createTestAccount(t, account) };
}

export interface TestAccount {
  accountId: string;
  userId: string;
  adminEmail: string;
  adminPassword: string;
  testKey: string;
  liveKey: string;
  /** An API client with the test key. */
  api: Api;
  live: Api;
  tenant(environment?: Environment): { accountId: string; environment: Environment };
}

let counter = 0;

/** A fresh account with a test and a live key; `demo` loads the demo catalog. */
export async function createTestAccount(t: TestApp, options: { demo?: boolean } = {}): Promise<TestAccount> {
  counter += 1;
  const adminEmail = `admin-${process.pid}-${Date.now()}-${counter}@example.com`;
  const adminPassword = 'correct horse battery staple';
  const { account_id, admin_user_id } = await createAccount(
    t.app.deps,
    { name: `Test Co ${counter}`, adminEmail, adminPassword },
    options.demo ? seedDemoEnvironment : undefined,
  );
  const testKey = (await createApiKey(t.app.deps, { accountId: account_id, environment: 'test' })).key;
  const liveKey = (await createApiKey(t.app.deps, { accountId: account_id, environment: 'live' })).key;
  return {
    accountId: account_id,
    userId: admin_user_id,
    adminEmail,
    adminPassword,
    testKey,
    liveKey,
    api: apiClient(t.url, testKey),
    live: apiClient(t.url, liveKey),
    tenant: (environment = 'test') => ({ accountId: account_id, environment }),
  };
}
