// `npm start` (that is `node bin/fieldhand.js serve`) until /readyz answers 200: the first start
// on an empty database (migrations, demo data) and a later start on the same one, on PostgreSQL
// and on the embedded database. Targets for a later start: < 2 s (PostgreSQL), < 3 s (embedded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, sql } from '../src/core/db.ts';
import { CLI, freePort, heading, rssMb, START_FLAGS, startProcess } from './harness.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function timedStart(env: Record<string, string>): Promise<{ ms: number; rss: number | undefined }> {
  const port = await freePort();
  const started = performance.now();
  const server = await startProcess([...START_FLAGS, CLI, 'serve'], port, {
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const ms = performance.now() - started;
  const rss = rssMb(server.pid);
  await server.stop();
  return { ms, rss };
}

function print(what: string, runs: { ms: number; rss: number | undefined }[]): void {
  const times = runs.map((run) => `${(run.ms / 1000).toFixed(2)} s`).join(', ');
  console.log(`${what.padEnd(52)} ${times}   (RSS when ready ${runs.map((run) => run.rss ?? '?').join(', ')} MB)`);
}

export default async function run(): Promise<void> {
  heading('startup: `fieldhand serve` until /readyz is 200 (first start, then three later starts)');
  const name = `fieldhand_bench_start_${process.pid}_${Date.now()}`;
  const admin = await openDatabase({ databaseUrl: ADMIN_URL, poolSize: 1 });
  await admin.sql.execute(sql.raw(`create database ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-bench-start-'));
  try {
    const postgres = { DATABASE_URL: url.toString() };
    print('PostgreSQL, first start (migrations)', [await timedStart(postgres)]);
    print('PostgreSQL, later starts', [
      await timedStart(postgres),
      await timedStart(postgres),
      await timedStart(postgres),
    ]);
    const embedded = { DATABASE_URL: '', DATA_DIR: dataDir };
    print('embedded, first start (migrations, demo data)', [await timedStart(embedded)]);
    print('embedded, later starts', [
      await timedStart(embedded),
      await timedStart(embedded),
      await timedStart(embedded),
    ]);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await admin.sql.execute(sql.raw(`drop database if exists ${name} with (force)`));
    await admin.close();
  }
}
