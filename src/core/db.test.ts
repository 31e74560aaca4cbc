// Which failures mean "the database is unreachable right now" (a 503 and a retry), checked on
// real driver errors where a test can cause them, and on the codes PostgreSQL documents.
import net from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers/database.ts';
import {
  allInOrder,
  constraintViolated,
  DatabaseUnreachableError,
  isDatabaseUnavailable,
  openDatabase,
  query,
  reconnectDelay,
  type SQL,
  type Sql,
  sql,
  textArray,
  transaction,
  unavailableReason,
} from './db.ts';

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('isDatabaseUnavailable', () => {
  it('sees a refused connection through the wrapping, and says why in a few words', async () => {
    const port = await closedPort();
    const failure = await openDatabase({ databaseUrl: `postgres://fieldhand:pw@127.0.0.1:${port}/x` }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseUnreachableError);
    expect((failure as Error).message).toBe(`cannot reach the database at 127.0.0.1:${port}: connection refused`);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(unavailableReason(failure)).toBe('connection refused');
  });

  it('is false for errors of the statement itself', async () => {
    const database = await openTestDatabase();
    try {
      const syntax = await database.sql.execute(sql`selec 1`).catch((error: unknown) => error);
      const cast = await database.sql.execute(sql`select 'x'::integer`).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(syntax)).toBe(false);
      expect(isDatabaseUnavailable(cast)).toBe(false);
    } finally {
      await database.close();
    }
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable({ code: '23505' })).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('knows the server-side codes and pg’s own words for a lost connection', () => {
    const wrapped = (cause: object) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300', 'ECONNRESET', 'ETIMEDOUT']) {
      expect(isDatabaseUnavailable(wrapped({ code, message: 'x' })), code).toBe(true);
    }
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'Client has encountered a connection error and is not queryable',
      'timeout exceeded when trying to connect',
    ]) {
      expect(isDatabaseUnavailable(wrapped(new Error(message))), message).toBe(true);
    }
    // a host with several addresses fails with one error per address
    const aggregate = Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {});
    expect(isDatabaseUnavailable(aggregate)).toBe(true);
    expect(unavailableReason(wrapped(aggregate))).toBe('connection refused');
    expect(unavailableReason(wrapped({ code: '57P03', message: 'the database system is starting up' }))).toBe(
      'the database system is starting up',
    );
  });
});

describe('reconnectDelay', () => {
  it('backs off from 250 ms and never waits more than 2 s, so work resumes soon after an outage', () => {
    expect([1, 2, 3, 4, 5, 50].map(reconnectDelay)).toEqual([250, 500, 1000, 2000, 2000, 2000]);
  });
});

describe('transaction', () => {
  // a table of its own per run: the test database is shared by the suite's files
  async function withTable(work: (db: Sql, table: SQL, onPostgres: boolean) => Promise<void>) {
    const database = await openTestDatabase();
    const table = sql`${sql.identifier(`tx_test_${Math.random().toString(36).slice(2, 10)}`)}`;
    try {
      await query(database.sql, sql`create table ${table} (id int primary key)`);
      await work(database.sql, table, database.kind === 'postgres');
    } finally {
      await query(database.sql, sql`drop table if exists ${table}`).catch(() => {});
      await database.close();
    }
  }
  const ids = async (db: Sql, table: SQL) =>
    (await query<{ id: number }>(db, sql`select id from ${table} order by id`)).map((row) => row.id);

  it('commits behind a `last` statement, and refuses a statement after it', async () => {
    await withTable(async (db, table, onPostgres) => {
      await transaction(db, async (tx) => {
        await query(tx, sql`insert into ${table} values (1)`);
        await query(tx, sql`insert into ${table} values (2)`, { last: true });
      });
      expect(await ids(db, table)).toEqual([1, 2]);
      const late = await transaction(db, async (tx) => {
        await query(tx, sql`insert into ${table} values (3)`, { last: true });
        await query(tx, sql`insert into ${table} values (4)`);
      }).catch((error: unknown) => error);
      // PGlite runs `last` as an ordinary statement (it has no connection to pipeline on)
      if (onPostgres) expect((late as Error).message).toBe('a statement after the transaction committed');
      expect(await ids(db, table)).toEqual(onPostgres ? [1, 2, 3] : [1, 2, 3, 4]);
    });
  });

  it('keeps nothing of a transaction whose `last` statement fails', async () => {
    await withTable(async (db, table) => {
      const failure = await transaction(db, async (tx) => {
        await query(tx, sql`insert into ${table} values (1)`);
        await query(tx, sql`insert into ${table} values (1)`, { last: true });
      }).catch((error: unknown) => error);
      expect(constraintViolated(failure)).toBe(true);
      expect(await ids(db, table)).toEqual([]);
      // the connection is clean for the next transaction
      await transaction(db, async (tx) => {
        await query(tx, sql`insert into ${table} values (5)`, { last: true });
      });
      expect(await ids(db, table)).toEqual([5]);
    });
  });

  it('makes a nested transaction a savepoint, where `last` is an ordinary statement', async () => {
    await withTable(async (db, table) => {
      await transaction(db, async (tx) => {
        await query(tx, sql`insert into ${table} values (1)`);
        const inner = await transaction(tx, async (nested) => {
          await query(nested, sql`insert into ${table} values (2)`);
          throw new Error('undo the savepoint');
        }).catch((error: unknown) => error);
        expect((inner as Error).message).toBe('undo the savepoint');
        await transaction(tx, async (nested) => {
          await query(nested, sql`insert into ${table} values (3)`, { last: true });
        });
        await query(tx, sql`insert into ${table} values (4)`);
      });
      expect(await ids(db, table)).toEqual([1, 3, 4]);
    });
  });
});

describe('allInOrder', () => {
  it('throws what awaiting one by one would: the first failure, or the cause of an aborted transaction', async () => {
    await expect(
      allInOrder([Promise.resolve(1), Promise.reject(new Error('second')), Promise.reject(new Error('third'))]),
    ).rejects.toThrow('second');
    expect(await allInOrder([Promise.resolve(1), Promise.resolve('two')])).toEqual([1, 'two']);

    const database = await openTestDatabase();
    try {
      // sent together in one transaction: the second statement fails, the third is refused for it
      const failure = await transaction(database.sql, async (tx) => {
        const slow = query(tx, sql`select pg_sleep(0.05)`).then(() => query(tx, sql`select 1 as one`));
        await allInOrder([slow, query(tx, sql`select 1 / 0 as never`)]);
      }).catch((error: unknown) => error);
      expect(String((failure as Error).cause ?? failure)).toMatch(/division by zero/);
    } finally {
      await database.close();
    }
  });
});

describe('statements sent together', () => {
  it('leave in one write to the server (a system call and a wake-up of its process each)', async () => {
    const database = await openTestDatabase();
    // counts the writes of every socket of this process: only this test's connection is busy
    const socket = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    const originals = { _write: socket._write, _writev: socket._writev };
    let writes = 0;
    for (const method of ['_write', '_writev'] as const) {
      socket[method] = function (this: unknown, ...args: unknown[]) {
        writes += 1;
        return originals[method].apply(this, args);
      };
    }
    try {
      const counted = await transaction(database.sql, async (tx) => {
        const before = writes;
        // BEGIN is held back for the first statement; the three leave with it
        const rows = await allInOrder([
          query<{ n: number }>(tx, sql`select 1 as n`),
          query<{ n: number }>(tx, sql`select 2 as n`),
          query<{ n: number }>(tx, sql`select 3 as n`),
        ]);
        return { rows: rows.map(([row]) => row?.n), writes: writes - before };
      });
      expect(counted.rows).toEqual([1, 2, 3]);
      // PGlite runs in this process: nothing is written to a socket
      expect(counted.writes).toBe(database.kind === 'postgres' ? 1 : 0);
    } finally {
      Object.assign(socket, originals);
      await database.close();
    }
  });
});

describe('textArray', () => {
  it('reaches the database as the very strings given: quotes, backslashes, commas, braces, NULL-like words', async () => {
    const database = await openTestDatabase();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(fc.string(), fc.constantFrom('"', '\\', '\\"', ',', '{}', 'NULL', ' a ', '', 'é李')), {
            maxLength: 6,
          }),
          async (values) => {
            const [row] = await query<{ values: string[] }>(database.sql, sql`select ${textArray(values)} as values`);
            expect(row?.values).toEqual(values);
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      await database.close();
    }
  });
});
