// The one place that knows whether the database is embedded PGlite or a PostgreSQL server.
// Everything else speaks SQL through `Sql` (the database or an open transaction).
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';

export { type SQL, sql };

// biome-ignore lint/suspicious/noExplicitAny: both drivers' databases and transactions share this base type
export type Sql = PgDatabase<PgQueryResultHKT, any>;

export interface Database {
  kind: 'pglite' | 'postgres';
  sql: Sql;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory, used by the tests as a template. */
  dump?(): Promise<Blob>;
  /**
   * Calls `onNotify` after any transaction that ran `pg_notify(channel, ...)` commits (in any
   * process on this database); a wake-up hint only, so workers still poll. Returns `stop`.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
}

export class DatabaseBusyError extends Error {}

const INT8 = 20;
const NUMERIC = 1700;
const BYTEA = 17;

// Both drivers return the same JavaScript types: int8 and numeric as numbers (money is
// integer cents well inside 2^53), bytea as Buffer; timestamps, dates and intervals stay
// strings because drizzle asks both drivers for the raw text (see `isoTimestamp`).
pg.types.setTypeParser(INT8, (value) => Number(value));
pg.types.setTypeParser(NUMERIC, (value) => Number(value));

const pgliteParsers = {
  [INT8]: (value: string) => Number(value),
  [NUMERIC]: (value: string) => Number(value),
  [BYTEA]: (value: string) => Buffer.from(value.slice(2), 'hex'),
};

export interface OpenOptions {
  databaseUrl?: string;
  /** Folder for the embedded database; omitted = in memory. */
  dataDir?: string;
  /** PGlite only: start from this dumped data directory (test templates). */
  loadDataDir?: Blob;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 20);
  return openPglite(options);
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max, options: '-c TimeZone=UTC' });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePostgres(pool) as unknown as Sql;
  await db.execute(sql`select 1`);
  return {
    kind: 'postgres',
    sql: db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
    listen: (channel, onNotify) => listenPostgres(url, channel, onNotify),
  };
}

/** LISTEN needs its own session; it reconnects after an error, since polling covers the gap. */
async function listenPostgres(url: string, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    next.on('error', () => {
      if (client !== next) return;
      client = undefined;
      void next.end().catch(() => {});
      if (!stopped) setTimeout(() => void connect().catch(() => {}), 1_000).unref();
    });
    await next.connect();
    await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    if (stopped) await next.end();
    else client = next;
  };
  await connect();
  return async () => {
    stopped = true;
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}

async function openPglite(options: OpenOptions): Promise<Database> {
  let releaseLock = () => {};
  let dataDir: string | undefined;
  if (options.dataDir) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    releaseLock = lockDataDir(options.dataDir);
    dataDir = path.join(options.dataDir, 'pgdata');
  }
  try {
    const client = await PGlite.create({
      dataDir,
      loadDataDir: options.loadDataDir,
      parsers: pgliteParsers,
      extensions: { btree_gist, pg_trgm },
    });
    await client.exec(`set time zone 'UTC'`);
    const db = drizzlePglite(client) as unknown as Sql;
    return {
      kind: 'pglite',
      sql: db,
      ping: async () => {
        await client.query('select 1');
      },
      close: async () => {
        await client.close();
        releaseLock();
      },
      dump: () => client.dumpDataDir('none'),
      listen: async (channel, onNotify) => {
        const unlisten = await client.listen(channel, () => onNotify());
        return () => unlisten().catch(() => {});
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/**
 * PGlite is one Postgres in this process: a second process opening the same folder would
 * corrupt it. A lock file holding our pid keeps the folder to one process at a time.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = path.join(dataDir, 'fieldhand.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockFile, 'utf8'));
      if (holder && holder !== process.pid && processAlive(holder)) {
        throw new DatabaseBusyError(
          `The embedded database in ${dataDir} is in use by another process (pid ${holder}). ` +
            'Stop the server first, or use the dashboard, or set DATABASE_URL to a PostgreSQL server.',
        );
      }
      fs.rmSync(lockFile, { force: true }); // left by a process that is gone
    }
  }
  throw new DatabaseBusyError(`Could not lock the embedded database in ${dataDir}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs a query and returns its rows. */
export async function query<Row>(db: Sql, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as { rows: Row[] };
  return result.rows;
}

export async function queryOne<Row>(db: Sql, statement: SQL): Promise<Row | undefined> {
  const rows = await query<Row>(db, statement);
  return rows[0];
}

/** Runs `work` in one transaction: everything it writes commits together or not at all. */
export function transaction<T>(db: Sql, work: (tx: Sql) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Sql));
}

/** Postgres text timestamps ("2026-11-22 07:41:15.657+00", UTC session) as ISO 8601. */
export function isoTimestamp(value: string | Date): string;
export function isoTimestamp(value: string | Date | null): string | null;
export function isoTimestamp(value: string | Date | null): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(?:\+00(?::00)?|Z)$/.exec(value);
  if (!match) return new Date(value).toISOString();
  const millis = (match[3] ?? '.000').padEnd(4, '0').slice(0, 4);
  return `${match[1]}T${match[2]}${millis}Z`;
}

/** Unique violations (23505) and exclusion violations (23P01) by constraint name. */
export function constraintViolated(error: unknown, constraint?: string): boolean {
  let current: unknown = error;
  // drizzle wraps driver errors; the Postgres error is the cause
  for (let depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: string; constraint?: string; cause?: unknown };
    if (candidate.code === '23505' || candidate.code === '23P01') {
      return constraint === undefined || candidate.constraint === constraint;
    }
    current = candidate.cause;
  }
  return false;
}

/** Serialization failures and deadlocks: safe to retry the whole transaction. */
export function isRetryableConflict(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: string }).code;
    if (code === '40001' || code === '40P01') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A text[] parameter (drizzle would otherwise spread an array into a list of parameters). */
export function textArray(values: readonly string[]): SQL {
  return sql`${sql.param(values)}::text[]`;
}
