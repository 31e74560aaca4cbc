// Once per run: a migrated database template. On PGlite, a dumped data directory each test
// database loads in under a second (initdb takes ~4 s); on PostgreSQL (TEST_DATABASE_URL), a
// template database each test database is created from (`create database … template …`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { testDatabaseDirectUrl, testDatabaseUrl } from '../../src/core/config.ts';
import { openDatabase } from '../../src/core/db.ts';
import { migrate } from '../../src/core/migrate.ts';
import { adminStatement, databaseUrl } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string | null;
    /**
     * The run's PostgreSQL server (its URL names the database to run `create database` from),
     * the same server without PgBouncer when the run goes through one, and the template.
     */
    postgres: { serverUrl: string; directServerUrl: string | null; template: string } | null;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = testDatabaseUrl();
  if (serverUrl) {
    const directServerUrl = testDatabaseDirectUrl() ?? null;
    // migrated directly, as serve does with DATABASE_DIRECT_URL; through PgBouncer, its idle
    // server connection to the template would also make every `create database … template` fail
    const adminUrl = directServerUrl ?? serverUrl;
    const template = `fieldhand_template_${process.pid}_${Date.now()}`;
    await adminStatement(adminUrl, `create database ${template}`);
    const db = await openDatabase({ databaseUrl: databaseUrl(adminUrl, template), poolSize: 1 });
    await migrate(db.sql);
    await db.close();
    project.provide('postgres', { serverUrl, directServerUrl, template });
    project.provide('pgliteTemplate', null);
    return () => adminStatement(adminUrl, `drop database if exists ${template} with (force)`);
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
  project.provide('postgres', null);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
