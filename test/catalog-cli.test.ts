// The catalog commands end to end, as a business runs them (in this process, for speed: the
// command opens its own database, like `npx fieldhand` does).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.ts';
import { databaseEnv, onPostgres, openTestDatabase, type TestDatabase } from './helpers/database.ts';

let dir: string;
// vitest sets BASE_URL=/ for its own purposes; the command reads it as our setting
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  DATABASE_DIRECT_URL: process.env.DATABASE_DIRECT_URL,
  BASE_URL: process.env.BASE_URL,
};

let postgres: TestDatabase | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-cli-'));
  // a PostgreSQL test database when the run has one, else an embedded database in a fresh directory
  if (onPostgres()) postgres = await openTestDatabase();
  delete process.env.DATABASE_URL;
  delete process.env.DATABASE_DIRECT_URL;
  if (postgres) Object.assign(process.env, databaseEnv(postgres));
  process.env.DATA_DIR = path.join(dir, 'data');
  delete process.env.BASE_URL;
});
afterAll(async () => {
  await postgres?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('fieldhand catalog export|import', () => {
  it('exports, imports and exports again to the same file; a broken file changes nothing', async () => {
    const created = await run(
      'accounts',
      'create',
      '--name',
      'CLI Co',
      '--admin-email',
      `cli-${Date.now()}@example.com`,
      '--admin-password',
      'long enough password',
      '--demo',
    );
    expect([created.code, created.stderr]).toEqual([0, '']);
    const account = JSON.parse(created.stdout).account_id as string;
    const first = path.join(dir, 'first.json');
    const second = path.join(dir, 'second.json');

    const exported = await run('catalog', 'export', '--account', account, '--env', 'live', first);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ exported: first, industries: 3, zones: 2 });
    const imported = await run('catalog', 'import', '--account', account, '--env', 'live', first);
    expect([imported.code, imported.stderr]).toEqual([0, '']);
    expect(JSON.parse(imported.stdout)).toMatchObject({ industries: 3, products: 23, zones: 2, staff: 8, coupons: 3 });
    await run('catalog', 'export', '--account', account, '--env', 'live', second);
    expect(fs.readFileSync(second, 'utf8')).toBe(fs.readFileSync(first, 'utf8'));

    const broken = fs.readFileSync(first, 'utf8').replace('"America/Los_Angeles"', '"America/Atlantis"');
    const brokenFile = path.join(dir, 'broken.json');
    fs.writeFileSync(brokenFile, broken);
    const line = broken.split('\n').findIndex((l) => l.includes('Atlantis')) + 1;
    const refused = await run('catalog', 'import', '--account', account, '--env', 'live', brokenFile);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`line ${line}, zones[1].timezone: unknown timezone America/Atlantis`);
    expect(refused.stderr).toContain('nothing was changed');
    const after = await run('catalog', 'export', '--account', account, '--env', 'live');
    expect(JSON.parse(after.stdout)).toEqual(JSON.parse(fs.readFileSync(first, 'utf8')));

    const missing = await run('catalog', 'import', '--account', account, '--env', 'live');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Give the catalog file/);
    const noAccount = await run('catalog', 'export', '--account', 'acct_nope', '--env', 'test');
    expect(noAccount.stderr).toMatch(/No such account/);
  }, 120_000);
});
