// A database of its own for every test server: loaded from the migrated template global setup
// made (PGlite), or created from it on the run's PostgreSQL and dropped when closed. No test
// file's workers or clocks meet another file's rows.
import fs from 'node:fs';
import { inject } from 'vitest';
import { type Database, openDatabase, sql } from '../../src/core/db.ts';
import { randomBase62 } from '../../src/core/ids.ts';

export interface TestDatabase extends Database {
  /** On PostgreSQL, the URL of this database, for server processes and commands to use. */
  url: string | null;
  /** The same database without PgBouncer, when the run goes through one (TEST_DATABASE_DIRECT_URL). */
  directUrl: string | null;
}

/** DATABASE_URL (and DATABASE_DIRECT_URL when the run goes through PgBouncer) for a server process or a command on `database`. */
export function databaseEnv(database: { url: string | null; directUrl: string | null }): Record<string, string> {
  return {
    DATABASE_URL: database.url ?? '',
    ...(database.directUrl ? { DATABASE_DIRECT_URL: database.directUrl } : {}),
  };
}

/** True when the run's DATABASE_URL goes through PgBouncer (TEST_DATABASE_DIRECT_URL is set). */
export function throughPgBouncer(): boolean {
  return Boolean(inject('postgres')?.directServerUrl);
}

/** True when the run is on PostgreSQL (TEST_DATABASE_URL), for the tests that need one. */
export function onPostgres(): boolean {
  return inject('postgres') !== null;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const postgres = inject('postgres');
  if (postgres) {
    const name = `fieldhand_test_${randomBase62(12).toLowerCase()}`;
    // through PgBouncer's `*` entry like the app's own connections (the template has none there)
    await adminStatement(postgres.serverUrl, `create database ${name} template ${postgres.template}`);
    const url = databaseUrl(postgres.serverUrl, name);
    const directUrl = postgres.directServerUrl ? databaseUrl(postgres.directServerUrl, name) : null;
    const database = await openDatabase({ databaseUrl: url, directUrl: directUrl ?? undefined, poolSize: 10 });
    return {
      ...database,
      url,
      directUrl,
      close: async () => {
        await database.close();
        await adminStatement(postgres.serverUrl, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const template = inject('pgliteTemplate');
  if (!template) throw new Error('global setup provided no database');
  const database = await openDatabase({ loadDataDir: new Blob([fs.readFileSync(template)]) });
  return { ...database, url: null, directUrl: null };
}

/** `serverUrl` with another database name. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement (create or drop database) on the server's own database. */
export async function adminStatement(serverUrl: string, statement: string): Promise<void> {
  const admin = await openDatabase({ databaseUrl: serverUrl, poolSize: 1 });
  try {
    await admin.sql.execute(sql.raw(statement));
  } finally {
    await admin.close();
  }
}
