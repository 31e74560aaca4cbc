// Once per run: a migrated database template. On PGlite, a dumped data directory each test
// file loads in under a second (initdb takes ~4 s); on PostgreSQL (TEST_DATABASE_URL), a
// fresh database for this run, shared by the files (every test makes its own account).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { testDatabaseUrl } from '../../src/core/config.ts';
import { openDatabase, sql } from '../../src/core/db.ts';
import { migrate } from '../../src/core/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string | null;
    postgresUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const adminUrl = testDatabaseUrl();
  if (adminUrl) {
    const name = `fieldhand_test_${process.pid}_${Date.now()}`;
    const admin = await openDatabase({ databaseUrl: adminUrl, poolSize: 1 });
    await admin.sql.execute(sql.raw(`create database ${name}`));
    await admin.close();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await migrate(db.sql);
    await db.close();
    project.provide('postgresUrl', url.toString());
    project.provide('pgliteTemplate', null);
    return async () => {
      const cleanup = await openDatabase({ databaseUrl: adminUrl, poolSize: 1 });
      await cleanup.sql.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await cleanup.close();
    };
  }
  const db = await openDatabase({});
  await migrate(db.sql);
  const dump = await db.dump?.();
  await db.close();
  if (!dump) throw new Error('PGlite did not dump its data directory');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-template-'));
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('postgresUrl', null);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
