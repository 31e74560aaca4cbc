// The `fieldhand` command as a user runs it: a separate process, JSON out, non-zero on bad input.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/core/db.ts';
import type { Deps } from '../src/core/deps.ts';
import { authenticateUser } from '../src/modules/accounts/index.ts';
import { signIn } from '../src/modules/sessions/index.ts';
import { findSession } from '../src/modules/sessions/sessions.service.ts';
import { depsFor } from './helpers/app.ts';
import { databaseEnv, onPostgres, openTestDatabase, type TestDatabase } from './helpers/database.ts';
import { freePort, outputOf } from './helpers/processes.ts';

const BIN = path.resolve('bin/fieldhand.js');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-cli-'));
  dirs.push(dir);
  return dir;
}

/** The CLI's database: a PostgreSQL test database when the run has one, else a fresh embedded one. */
let postgres: TestDatabase | undefined;
beforeAll(async () => {
  if (onPostgres()) postgres = await openTestDatabase();
});
afterAll(() => postgres?.close());
let dataDir: string | undefined;
function cliDatabaseEnv(): Record<string, string> {
  if (postgres?.url) return databaseEnv(postgres);
  dataDir ??= tempDir();
  return { DATA_DIR: dataDir };
}

/** Works on the CLI's database between two commands (an embedded one is free only then). */
async function withDatabase<T>(work: (deps: Deps) => Promise<T>): Promise<T> {
  const database = postgres ?? (await openDatabase({ dataDir: cliDatabaseEnv().DATA_DIR }));
  try {
    return await work(depsFor(database));
  } finally {
    if (!postgres) await database.close();
  }
}

function run(args: string[], env: Record<string, string> = cliDatabaseEnv()) {
  const child = spawn(process.execPath, [BIN, ...args], {
    // vitest sets BASE_URL=/ for Vite; the CLI must see a user's environment
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', DATABASE_DIRECT_URL: '', BASE_URL: '', ...env },
  });
  return outputOf(child);
}

describe('fieldhand CLI', () => {
  it('creates an account, a key for it, and revokes the key, printing JSON', async () => {
    const email = `cli-${Date.now()}@example.com`;
    const account = await run([
      'accounts',
      'create',
      '--name',
      'CLI Co',
      '--admin-email',
      email,
      '--admin-password',
      'long-enough-pw',
      '--demo',
    ]);
    expect(account.stderr).toBe('');
    expect(account.code).toBe(0);
    const created = JSON.parse(account.stdout);
    expect(created).toEqual({
      account_id: expect.stringMatching(/^acct_/),
      admin_user_id: expect.stringMatching(/^usr_/),
    });

    const key = await run([
      'api-keys',
      'create',
      '--account',
      created.account_id,
      '--env',
      'live',
      '--name',
      'Zapier',
      '--json',
    ]);
    expect(key.code).toBe(0);
    const parsedKey = JSON.parse(key.stdout);
    expect(parsedKey).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^svc_live_sk_[0-9A-Za-z]{32}$/),
      environment: 'live',
    });

    const revoked = await run(['api-keys', 'revoke', '--id', parsedKey.id]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ id: parsedKey.id, revoked: true });

    const duplicate = await run([
      'accounts',
      'create',
      '--name',
      'Again',
      '--admin-email',
      email,
      '--admin-password',
      'long-enough-pw',
    ]);
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toContain('already exists');
  }, 120_000);

  it('lists accounts with their admins, and resets an admin password (the old one stops working)', async () => {
    const email = `reset-${Date.now()}@example.com`;
    const args = [
      'accounts',
      'create',
      '--name',
      'Reset Co',
      '--admin-email',
      email,
      '--admin-password',
      'old-password',
    ];
    const created = JSON.parse((await run(args)).stdout);

    const listed = await run(['accounts', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const accounts = JSON.parse(listed.stdout) as { account_id: string }[];
    expect(accounts).toContainEqual({
      account_id: created.account_id,
      name: 'Reset Co',
      admin_emails: [email],
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
    });

    const signedIn = await withDatabase((deps) =>
      signIn(deps, { email, password: 'old-password', address: '10.9.9.9' }),
    );
    if (!signedIn.ok) throw new Error(signedIn.message);

    const random = await run(['users', 'reset-password', '--email', email.toUpperCase()]);
    expect(random.code, random.stderr).toBe(0);
    const reset = JSON.parse(random.stdout);
    expect(reset).toEqual({ user_id: created.admin_user_id, email, password: expect.stringMatching(/^\w{16}$/) });
    const chosen = await run(['users', 'reset-password', '--email', email, '--password', 'a-chosen-password']);
    expect(JSON.parse(chosen.stdout).password).toBe('a-chosen-password');

    // as the server would see it: only the newest password signs in, and the old session ended
    await withDatabase(async (deps) => {
      const check = (password: string) => authenticateUser(deps, { email, password });
      expect(await check('old-password')).toBeNull();
      expect(await check(reset.password)).toBeNull();
      expect(await check('a-chosen-password')).toMatchObject({ id: created.admin_user_id });
      expect(await findSession(deps, signedIn.sessionToken)).toBeNull();
    });

    for (const [bad, message] of [
      [['users', 'reset-password'], /--email is required/],
      [['users', 'reset-password', '--email', 'nobody@example.com'], /No such user/],
      [['users', 'reset-password', '--email', email, '--password', 'short'], /at least 8 characters/],
    ] as [string[], RegExp][]) {
      const result = await run(bad);
      expect(result.code, bad.join(' ')).not.toBe(0);
      expect(result.stderr, bad.join(' ')).toMatch(message);
    }
  }, 120_000);

  it('exits non-zero with a clear message on bad input', async () => {
    const cases: [string[], RegExp][] = [
      [['accounts', 'create', '--name', 'X'], /--admin-email is required/],
      [['api-keys', 'create', '--account', 'acct_x', '--env', 'staging'], /--env must be test or live/],
      [['api-keys', 'create', '--account', 'acct_missing', '--env', 'test'], /No such account/],
      [['api-keys', 'revoke', '--id', 'key_missing'], /No such API key/],
      [['accounts', 'create', '--bogus'], /Unknown option/],
      [['nonsense'], /Unknown command/],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  }, 120_000);

  it('refuses to open an embedded database another process holds', async () => {
    const dataDir = tempDir();
    const holder = await openDatabase({ dataDir });
    try {
      const result = await run(['api-keys', 'revoke', '--id', 'key_x'], { DATA_DIR: dataDir });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/in use by another process/);
    } finally {
      await holder.close();
    }
  }, 60_000);

  it('starts on an empty embedded database with a demo account and a working test key, and stops on SIGTERM', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        DATABASE_DIRECT_URL: '',
        BASE_URL: '',
      },
      // stderr read by no one could fill its pipe and stall the server; show it instead
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    // registered now: a server that fails to start exits before the test would listen for it
    const exitCode = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const deadline = Date.now() + 60_000;
      while (!/Test API key:\s+svc_test_sk_\w+/.test(output) && Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const key = /Test API key:\s+(svc_test_sk_\w+)/.exec(output)?.[1];
      expect(key).toBeDefined();
      expect(output).toMatch(/Admin login:\s+\S+@\S+ \/ \S+/);
      expect(output).toContain(`http://localhost:${port}/dashboard/login`);
      const res = await fetch(`http://127.0.0.1:${port}/v1/customers`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect(await exitCode).toBe(0);
    }
  }, 90_000);
});
