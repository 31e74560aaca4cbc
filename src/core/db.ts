// The one place that knows whether the database is embedded PGlite or a PostgreSQL server.
// Everything else speaks SQL through `Sql` (the database or an open transaction).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql as drizzleSql, SQL, StringChunk } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type StatementText, statementText } from './sql-text.ts';

/** The text pieces of each `sql` template in the code, made once: a template's strings array is the same object on every call. */
const templateChunks = new WeakMap<TemplateStringsArray, StringChunk[]>();

/**
 * A statement with the table-free SQL this app writes, as drizzle's `sql` builds it but cheaper:
 * drizzle's makes a chunk per text piece on every call and asks of every chunk whether it is a
 * table (a walk up its prototype chain), together about 3 % of a booking's server CPU and a sixth
 * of what it allocated (docs/performance.md). `sql.raw`, `sql.join`, `sql.identifier` … are drizzle's.
 */
function statement(strings: TemplateStringsArray, ...params: unknown[]): SQL {
  let pieces = templateChunks.get(strings);
  if (pieces === undefined) {
    pieces = strings.map((text) => new StringChunk(text));
    templateChunks.set(strings, pieces);
  }
  const chunks: unknown[] = [pieces[0]];
  for (let i = 0; i < params.length; i++) chunks.push(params[i], pieces[i + 1]);
  // the constructor's scan for tables runs over nothing; the chunks are set after it
  const made = new SQL([]);
  (made as unknown as { queryChunks: unknown[] }).queryChunks = chunks;
  return made;
}

export const sql = Object.assign(statement, drizzleSql) as typeof drizzleSql;
export type { SQL };

// biome-ignore lint/suspicious/noExplicitAny: both drivers' databases and transactions share this base type
export type Sql = PgDatabase<PgQueryResultHKT, any>;

export interface Database {
  kind: 'pglite' | 'postgres';
  sql: Sql;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs `work` on a session of its own straight to the server (`directUrl`), opened for it and
   * closed after: for migrations, which must not go through a transaction-pooling PgBouncer.
   * Without a separate direct URL (and on PGlite) `work` runs on this database.
   */
  direct<T>(work: (db: Sql) => Promise<T>): Promise<T>;
  /** PGlite only: a tarball of the data directory, used by the tests as a template. */
  dump?(): Promise<Blob>;
  /**
   * Calls `onNotify` after any transaction that ran `pg_notify(channel, ...)` commits (in any
   * process on this database); a wake-up hint only, so workers still poll. Returns `stop`.
   */
  listen(
    channel: string,
    onNotify: () => void,
    options?: { onError?: (error: unknown) => void },
  ): Promise<() => Promise<void>>;
}

export class DatabaseBusyError extends Error {}

/** `serve` (or a command) could not reach PostgreSQL: `cannot reach the database at HOST:PORT: REASON`. */
export class DatabaseUnreachableError extends Error {}

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
  /**
   * PostgreSQL only: the server itself when `databaseUrl` goes through PgBouncer in transaction
   * mode (DATABASE_DIRECT_URL), for what needs a session: LISTEN and migrations. Default
   * `databaseUrl`.
   */
  directUrl?: string;
  /** Folder for the embedded database; omitted = in memory. */
  dataDir?: string;
  /** PGlite only: start from this dumped data directory (test templates). */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * PostgreSQL only: name hot statements so the server keeps them prepared
   * (DATABASE_PREPARED_STATEMENTS). Default: on, unless `directUrl` says a transaction pooler
   * sits in front.
   */
  preparedStatements?: boolean;
  /**
   * PostgreSQL only: keep trying to reach the server for this long (serve's
   * DATABASE_CONNECT_TIMEOUT_S); 0 = one attempt.
   */
  connectTimeoutMs?: number;
  /** Called after each failed attempt that will be retried. */
  onConnectAttempt?: (attempt: { number: number; where: string; reason: string; retryInMs: number }) => void;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options);
}

/**
 * Connection settings shared by the pool and the LISTEN session. `application_name` lets
 * operators find an instance's backends (a DATABASE_URL's own `application_name` wins);
 * the connect timeout turns an unanswering host into a 503 instead of a request that hangs.
 * No `options` startup parameter: PgBouncer refuses it (see `inUtc`).
 */
function clientConfig(url: string): pg.ClientConfig {
  return {
    connectionString: url,
    application_name: 'fieldhand',
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/** Postgres pools by the database handle they serve, for `transaction` (see there). */
const pools = new WeakMap<Sql, pg.Pool>();
const clientDatabases = new WeakMap<pg.PoolClient, Sql>();

/**
 * Timestamps come back as UTC text ("…+00", what `isoTimestamp` reads) whatever the server's or
 * the database's time zone. Set by a statement on each new connection, before the pool hands
 * it out, rather than as a startup `options`: PgBouncer refuses that parameter, but it tracks
 * TimeZone and sets it again on whichever server connection a transaction gets
 * (docs/decisions.md).
 */
async function inUtc(client: pg.ClientBase): Promise<void> {
  await client.query(`set time zone 'UTC'`);
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({ ...clientConfig(url), max: options.poolSize ?? 10, onConnect: inUtc, pipeline: true });
  // pg-pool listens for errors only on idle clients (and then drops them). A checked-out client
  // that loses its connection (restart, failover, pg_terminate_backend) emits 'error' itself:
  // without a listener that ends the process. With one, its next query fails instead, and the
  // pool discards it on release because it is no longer queryable.
  pool.on('error', () => {});
  const prepared = options.preparedStatements ?? (!options.directUrl || options.directUrl === url);
  const naming = { on: prepared };
  preparing.set(pool, naming);
  pool.on('connect', (client) => {
    client.on('error', () => {});
    preparing.set(client, naming);
  });
  const db = drizzlePostgres(pool) as unknown as Sql;
  pools.set(db, pool);
  try {
    await reachPostgres(db, url, options);
    if (options.preparedStatements === undefined && naming.on) naming.on = await dialledTheServer(db, url);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    kind: 'postgres',
    sql: db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
    direct: async (work) => {
      if (!options.directUrl || options.directUrl === url) return work(db);
      const session = await openPostgres(options.directUrl, { ...options, directUrl: undefined, poolSize: 1 });
      try {
        return await work(session.sql);
      } finally {
        await session.close();
      }
    },
    // LISTEN holds a session across transactions: through a transaction pooler it would be
    // registered on a server connection that PgBouncer lends to other clients between them
    listen: (channel, onNotify, listenOptions) =>
      listenPostgres(options.directUrl ?? url, channel, onNotify, listenOptions?.onError),
  };
}

/** The first query, retried while the server is unreachable and time is left. */
async function reachPostgres(db: Sql, url: string, options: OpenOptions): Promise<void> {
  const where = databaseAddress(url);
  const giveUpAt = Date.now() + (options.connectTimeoutMs ?? 0);
  for (let attempt = 1; ; attempt++) {
    try {
      await db.execute(sql`select 1`);
      return;
    } catch (error) {
      const reason = unavailableReason(error);
      const retryInMs = reconnectDelay(attempt);
      if (!isDatabaseUnavailable(error) || Date.now() + retryInMs > giveUpAt) {
        throw new DatabaseUnreachableError(`cannot reach the database at ${where}: ${reason}`, { cause: error });
      }
      options.onConnectAttempt?.({ number: attempt, where, reason, retryInMs });
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  }
}

/** HOST:PORT of a connection string, for messages (never its user or password). */
function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
    return `${host}:${parsed.port || '5432'}`;
  } catch {
    return 'the configured address';
  }
}

/**
 * LISTEN needs its own session. When it drops, it is opened again with the same backoff as
 * the workers, for as long as it takes; polling covers the gap, and `onNotify` is called once
 * it is back so that nothing notified in between waits for the next poll.
 */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
  onError: (error: unknown) => void = () => {},
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const connect = async (): Promise<void> => {
    const next = new pg.Client(clientConfig(url));
    let lost = false;
    const reconnect = (error: unknown) => {
      if (lost) return;
      lost = true;
      if (client === next) client = undefined;
      void next.end().catch(() => {});
      if (stopped) return;
      onError(error);
      failures += 1;
      retry = setTimeout(() => void connect(), reconnectDelay(failures));
      retry.unref();
    };
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    next.on('error', reconnect);
    next.on('end', () => reconnect(new Error('Connection terminated')));
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      reconnect(error);
      return;
    }
    if (stopped || lost) {
      lost = true;
      await next.end().catch(() => {});
      return;
    }
    client = next;
    if (failures > 0) onNotify();
    failures = 0;
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
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
    // Imported here, not at the top: PGlite (a WebAssembly Postgres) costs about a second and
    // tens of megabytes to load, which a server on DATABASE_URL never needs.
    const [{ PGlite }, { btree_gin }, { btree_gist }, { pg_trgm }, { drizzle: drizzlePglite }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/btree_gin'),
      import('@electric-sql/pglite/contrib/btree_gist'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('drizzle-orm/pglite'),
    ]);
    const client = await PGlite.create({
      dataDir,
      loadDataDir: options.loadDataDir,
      parsers: pgliteParsers,
      extensions: { btree_gin, btree_gist, pg_trgm },
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
      direct: (work) => work(db),
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
            'Stop the server first, or use the dashboard (a catalog file imports and exports at ' +
            '/dashboard/settings/catalog-file), or set DATABASE_URL to a PostgreSQL server.',
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

export interface QueryOptions {
  /**
   * false: never a named statement, so the server plans it on each run for the table as it is
   * then. For queue tables (leases, outboxes), whose size swings in seconds: a plan kept from
   * when the queue was short reads the whole backlog once it is long.
   */
  prepared?: boolean;
  /**
   * The transaction's last statement: COMMIT is sent right behind it, before its answer comes
   * back (pipelined), so the locks it takes are held only while it runs and commits, never
   * while this process gets round to sending COMMIT. Nothing may run in the transaction after
   * it. Honoured by the outermost transaction on PostgreSQL; elsewhere (a savepoint, PGlite) it
   * is an ordinary statement and the transaction commits as usual.
   */
  last?: boolean;
}

/**
 * False when the server listens on another port than the one dialled: a pooler (PgBouncer on
 * 6432) sits between, though DATABASE_DIRECT_URL does not say so, and statements stay unnamed.
 * Over a Unix socket the server has no port to compare; a pooler there is caught at its first
 * missing name (`forgetNames`).
 */
async function dialledTheServer(db: Sql, url: string): Promise<boolean> {
  let dialled: number;
  try {
    dialled = Number(new URL(url).port || 5432);
  } catch {
    return true; // a connection string pg reads but URL does not: nothing to compare with
  }
  const [row] = await query<{ port: number | null }>(db, sql`select inet_server_port() as port`, { prepared: false });
  return row?.port === null || row?.port === undefined || row.port === dialled;
}

/** Runs a query and returns its rows. */
export async function query<Row>(db: Sql, statement: SQL, options: QueryOptions = {}): Promise<Row[]> {
  const client = pgClientOf(db);
  if (client) {
    const open = openTransactions.get(db);
    if (open?.committed) throw new Error('a statement after the transaction committed');
    const thenCommit = options.last === true && open !== undefined && open.depth === 0;
    if (thenCommit) open.committed = true;
    return (await queryPostgres(client, db, statement, options.prepared !== false, {
      thenCommit,
      sent: open?.sendHeld,
    })) as Row[];
  }
  const result = (await db.execute(statement)) as unknown as { rows: Row[] };
  return result.rows;
}

/**
 * Timestamps, dates and intervals as the server's text (what `isoTimestamp` reads), the other
 * types by pg's parsers (int8 and numeric as numbers, above): what drizzle asks pg for.
 */
const RAW_TEXT_TYPES = new Set([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1115, // timestamp[]
  1182, // date[]
  1185, // timestamptz[]
  1187, // interval[]
  1231, // numeric[]
]);
const asText = (value: string) => value;
const resultTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    RAW_TEXT_TYPES.has(oid) ? asText : pg.types.getTypeParser(oid, format),
} as pg.CustomTypesConfig;

/** The pg pool or transaction connection behind a drizzle handle of ours; undefined on PGlite. */
function pgClientOf(db: Sql): pg.Pool | pg.ClientBase | undefined {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Pool || client instanceof pg.Client ? client : undefined;
}

/**
 * Whether a pool's statements (its connections' too) are named: PostgreSQL then keeps each hot
 * statement parsed, and after five runs usually a generic plan, per connection
 * (docs/performance.md). Off through a transaction-pooling PgBouncer, which older than 1.21
 * cannot follow a named statement from one server connection to the next; and off for good
 * when the server says a name is missing or taken, which only such a pooler causes.
 */
const preparing = new WeakMap<object, { on: boolean }>();
/** At most this many statement texts get names: dynamic SQL never fills the server's memory. */
const MAX_NAMED_STATEMENTS = 200;
/**
 * A page (LIMIT or OFFSET as a parameter) is planned on each run: a kept generic plan does not
 * know how many rows the page wants, assumes a tenth of the table and may sort all of it for a
 * page of 100 (the bookings list went from 295 to 191 req/s with one).
 */
const PAGED = /\b(limit|offset)\s+\$\d/i;
/** Names by statement text, given on a text's second run; texts seen once, by text. */
const statementNames = new Map<string, string>();
const seenOnce = new Set<string>();
let namesGeneration = 0;

function statementName(text: string): string | undefined {
  const name = statementNames.get(text);
  if (name !== undefined || statementNames.size >= MAX_NAMED_STATEMENTS) return name;
  if (!seenOnce.has(text)) {
    if (seenOnce.size >= 2_000) seenOnce.clear();
    seenOnce.add(text);
    return undefined;
  }
  if (PAGED.test(text)) return undefined;
  seenOnce.delete(text);
  // named by the text's digest: through a pooler a name always means the same text, whichever
  // instance (or version) prepared it on that server connection
  const named = `fh${namesGeneration}_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  statementNames.set(text, named);
  return named;
}

/**
 * pg directly rather than through drizzle's per-call prepared-query objects (about a tenth of a
 * short request's CPU). A failure keeps drizzle's shape, `Failed query: <sql>` with the
 * driver's error as its cause, and never the parameters.
 */
async function queryPostgres(
  client: pg.Pool | pg.ClientBase,
  db: Sql,
  statement: SQL,
  prepared: boolean,
  pipeline: {
    /** COMMIT goes out right behind the statement (`QueryOptions.last`). */
    thenCommit?: boolean;
    /** Called once the statement is submitted: sends what the connection held back with it. */
    sent?: () => void;
  } = {},
): Promise<unknown[]> {
  const dialect = (db as unknown as { dialect: { sqlToQuery(statement: SQL): StatementText } }).dialect;
  const { sql: text, params } = statementText(statement, dialect);
  const naming = preparing.get(client);
  const name = prepared && naming?.on ? statementName(text) : undefined;
  const run = (as?: string) => client.query({ name: as, text, values: params, types: resultTypes });
  let failure: unknown;
  if (pipeline.thenCommit) {
    // one write for both: the statement and COMMIT reach the server together
    const socket = socketOf(client);
    socket?.cork();
    const ran = run(name);
    // in an aborted transaction (the statement failed) COMMIT rolls back and answers so
    const committed = client.query('commit');
    socket?.uncork();
    pipeline.sent?.();
    try {
      const { rows } = await ran;
      await committed;
      return rows;
    } catch (error) {
      await committed.catch(() => {});
      if (name !== undefined && naming) forgetNames(error, naming);
      throw new Error(`Failed query: ${text}`, { cause: error });
    }
  }
  try {
    sendWithTheTurn(client);
    const ran = run(name);
    pipeline.sent?.();
    return (await ran).rows;
  } catch (error) {
    failure = error;
  }
  // a name that failed is dropped; outside a transaction the statement runs again unnamed
  if (name !== undefined && naming && forgetNames(failure, naming) && client instanceof pg.Pool) {
    try {
      return (await run()).rows;
    } catch (error) {
      failure = error;
    }
  }
  throw new Error(`Failed query: ${text}`, { cause: failure });
}

/** True when `error` is about a statement's name rather than the statement; names are reset. */
function forgetNames(error: unknown, naming: { on: boolean }): boolean {
  const { code, message } = error as { code?: string; message?: string };
  // a column added under a running instance (a rolling deploy's migration) changes what a kept
  // `select *` returns, which PostgreSQL refuses for that plan: every text is named afresh
  if (code === '0A000' && /cached plan must not change result type/.test(message ?? '')) {
    statementNames.clear();
    namesGeneration += 1;
    return true;
  }
  // 26000 "… does not exist", 42P05 "… already exists": a transaction pooler hands this pool
  // server connections that never saw the name, or saw it from another client
  if (code === '26000' || code === '42P05') {
    naming.on = false;
    return true;
  }
  return false;
}

export async function queryOne<Row>(db: Sql, statement: SQL, options?: QueryOptions): Promise<Row | undefined> {
  const rows = await query<Row>(db, statement, options);
  return rows[0];
}

/**
 * Transactions open on our pg connections, by the handle their work runs on: how many savepoints
 * deep it is, and whether COMMIT already went out behind a `last` statement.
 */
const openTransactions = new WeakMap<
  Sql,
  { client: pg.ClientBase; depth: number; committed: boolean; sendHeld: () => void }
>();

/** The socket under a pg client (pg's own field), to send several messages in one write. */
function socketOf(client: pg.Pool | pg.ClientBase): { cork(): void; uncork(): void } | undefined {
  const stream = (client as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } }).connection?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as { cork(): void; uncork(): void })
    : undefined;
}

/** Sockets corked until the end of the current turn (`sendWithTheTurn`). */
const corkedForTheTurn = new WeakSet<object>();

/**
 * Statements a transaction sends in one turn of the event loop (allInOrder's) leave in one
 * write: pg writes each statement as it is queued, and every write is a system call that wakes
 * the server's process (`writev` was a third of the server's busy time on a booking or an invoice
 * on a 2-core VM; docs/performance.md).
 * The socket is corked until the turn's microtasks have run.
 */
function sendWithTheTurn(client: pg.Pool | pg.ClientBase): void {
  if (client instanceof pg.Pool) return; // a pooled query's connection is not known yet
  const socket = socketOf(client);
  if (socket === undefined || corkedForTheTurn.has(socket)) return;
  corkedForTheTurn.add(socket);
  socket.cork();
  queueMicrotask(() => {
    corkedForTheTurn.delete(socket);
    socket.uncork();
  });
}

/**
 * Runs `work` in one transaction: everything it writes commits together or not at all. Called
 * inside another transaction it becomes a savepoint of that one.
 */
export function transaction<T>(db: Sql, work: (tx: Sql) => Promise<T>): Promise<T> {
  const open = openTransactions.get(db);
  if (open) return inSavepoint(db, open, work);
  const pool = pools.get(db);
  if (!pool) return db.transaction((tx) => work(tx as unknown as Sql));
  return onPooledClient(pool, async (tx, client) => {
    // The pool's connections pipeline, and BEGIN is held back to go out in one write with the
    // transaction's first statement: no round trip of its own, no wake-up of the server's
    // process of its own. Whatever comes first (a statement, the end of this turn of the event
    // loop) sends it.
    const socket = socketOf(client);
    socket?.cork();
    const begun = client.query('begin');
    begun.catch(() => {});
    let held = socket !== undefined;
    const sendHeld = () => {
      if (!held) return;
      held = false;
      clearImmediate(timer);
      socket?.uncork();
    };
    const timer = setImmediate(sendHeld);
    const state = { client, depth: 0, committed: false, sendHeld };
    openTransactions.set(tx, state);
    try {
      const result = await work(tx);
      sendHeld();
      await begun;
      if (!state.committed) await client.query('commit');
      return result;
    } catch (error) {
      sendHeld();
      // after a `last` statement COMMIT has ended the transaction either way
      if (!state.committed) await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      sendHeld();
      openTransactions.delete(tx);
    }
  });
}

async function inSavepoint<T>(
  tx: Sql,
  open: { client: pg.ClientBase; depth: number; sendHeld: () => void },
  work: (tx: Sql) => Promise<T>,
): Promise<T> {
  const name = `fh_savepoint_${++open.depth}`;
  try {
    const saved = open.client.query(`savepoint ${name}`);
    open.sendHeld();
    await saved;
    try {
      const result = await work(tx);
      await open.client.query(`release savepoint ${name}`);
      return result;
    } catch (error) {
      await open.client.query(`rollback to savepoint ${name}`).catch(() => {});
      throw error;
    }
  } finally {
    open.depth -= 1;
  }
}

/**
 * A transaction's client, checked out here and always given back (drizzle's own pool
 * transaction sends BEGIN before its try/finally and leaks the client when that fails); one whose
 * connection failed is discarded.
 */
async function onPooledClient<T>(pool: pg.Pool, work: (db: Sql, client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let failure: unknown;
  try {
    let db = clientDatabases.get(client);
    if (!db) {
      db = drizzlePostgres(client) as unknown as Sql;
      clientDatabases.set(client, db);
    }
    return await work(db, client);
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    // a client whose connection failed is discarded, not handed to the next request
    client.release(failure !== undefined && isDatabaseUnavailable(failure) ? (failure as Error) : undefined);
  }
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

/**
 * Awaits work sent together (statements pipelined on one connection) and returns the values in
 * order. When any failed, throws what awaiting them one by one would have thrown: the first
 * failure in argument order; except that a statement PostgreSQL refused only because an earlier
 * one had failed the transaction (25P02) gives way to that earlier failure, the real cause.
 */
export async function allInOrder<T extends readonly unknown[]>(work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(work);
  const failures = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (failures.length > 0) throw failures.find((failure) => !failedTransaction(failure)) ?? failures[0];
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

function failedTransaction(error: unknown): boolean {
  for (const link of causeChain(error)) if (link.code === '25P02') return true;
  return false;
}

/** The errors of each link of an error's `cause` chain (drizzle wraps the driver's error). */
function* causeChain(error: unknown): Generator<{ code?: unknown; message?: unknown; errors?: unknown }> {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    const link = current as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
    yield link;
    // a host name with several addresses fails with an AggregateError of one error per address
    if (Array.isArray(link.errors))
      for (const inner of link.errors) if (inner && typeof inner === 'object') yield inner;
    current = link.cause;
  }
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Server-side codes that mean "this connection, or the server, is gone for now". */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend, smart or fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '57P05', // idle_session_timeout
  '25P03', // idle_in_transaction_session_timeout
  '53300', // too_many_connections
]);

/** pg and pg-pool report a lost or unobtainable connection in these words. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Cannot use a pool after calling end on the pool/,
  /^Client was closed/,
  // a named statement's kept plan outlived a schema change (`queryPostgres`): inside a
  // transaction the request answers 503 and its retry runs on freshly named statements
  /^cached plan must not change result type/,
  /^prepared statement "fh\d+_\w+" (does not exist|already exists)/,
];

/**
 * True when an error means the database cannot be reached right now (refused, reset, timed
 * out, terminated, failing over): the request may be retried as it is, so it answers 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of causeChain(error)) {
    const code = typeof link.code === 'string' ? link.code : '';
    if (UNREACHABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
    const message = typeof link.message === 'string' ? link.message : '';
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
};

/** Why the database could not be used, in a few words and without any query or parameter. */
export function unavailableReason(error: unknown): string {
  let innermost = '';
  for (const link of causeChain(error)) {
    if (typeof link.code === 'string' && REASONS[link.code]) return REASONS[link.code] as string;
    if (typeof link.message === 'string' && !link.message.startsWith('Failed query')) innermost = link.message;
  }
  if (/^timeout exceeded when trying to connect|connection timeout/.test(innermost)) return 'connection timed out';
  return innermost.split('\n')[0] || 'unknown error';
}

/**
 * The wait before the next attempt to reach the database (workers, LISTEN, start-up): 250 ms
 * doubling to at most 2 s, so that work resumes within about 2 s of the database coming back.
 */
export function reconnectDelay(attempt: number): number {
  return Math.min(2_000, 250 * 2 ** Math.max(0, attempt - 1));
}

/**
 * Runs `work` again while the database is unavailable, for at most `forMs`: for bookkeeping
 * that must not be dropped (an e-mail sent, a webhook delivered) when the outage is short.
 */
export async function retryWhileUnavailable<T>(work: () => Promise<T>, forMs: number): Promise<T> {
  const giveUpAt = Date.now() + forMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const delay = reconnectDelay(attempt);
      if (!isDatabaseUnavailable(error) || Date.now() + delay > giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** A text[] parameter (drizzle would otherwise spread an array into a list of parameters). */
export function textArray(values: readonly string[]): SQL {
  return sql`${arrayLiteral(values)}::text[]`;
}

/**
 * PostgreSQL's text of a text array, written once: pg's own (`arrayString`) appends and escapes
 * element by element, a string per step, for every array parameter of every statement. Every
 * element is quoted; only `"` and `\` need escaping inside the quotes.
 */
function arrayLiteral(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  const plain = values.every((value) => !/["\\]/.test(value));
  const elements = plain ? values : values.map((value) => value.replace(/["\\]/g, '\\$&'));
  return `{"${elements.join('","')}"}`;
}
