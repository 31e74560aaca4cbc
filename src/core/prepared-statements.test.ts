// Named statements (docs/performance.md): the query layer names a statement on its second run
// so PostgreSQL keeps it parsed per connection; never through a transaction pooler, and a
// schema change under a running instance does not break the statements it kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, openTestDatabase, type TestDatabase, throughPgBouncer } from '../../test/helpers/database.ts';
import { type Database, isDatabaseUnavailable, openDatabase, query, type Sql, sql, transaction } from './db.ts';
import { pageLimit } from './paging.ts';

const named = (db: Database) =>
  query<{ statement: string }>(db.sql, sql`select statement from pg_prepared_statements`).then((rows) =>
    rows.map((row) => row.statement),
  );

describe.runIf(onPostgres())('named statements on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  /** One connection straight to the server, so pg_prepared_statements is that connection's. */
  const direct = (preparedStatements?: boolean) =>
    openDatabase({ databaseUrl: database.directUrl ?? (database.url as string), poolSize: 1, preparedStatements });

  it('names a statement from its second run, on the pool and in transactions', async () => {
    const db = await direct();
    try {
      const lookup = () => query(db.sql, sql`select id from accounts where id = ${'acct_none'}`);
      await lookup();
      expect((await named(db)).filter((text) => text.includes('from accounts'))).toEqual([]);
      await lookup();
      await transaction(db.sql, (tx) => query(tx, sql`select id from accounts where id = ${'acct_other'}`));
      expect((await named(db)).filter((text) => text.includes('from accounts'))).toEqual([
        'select id from accounts where id = $1',
      ]);
    } finally {
      await db.close();
    }
  });

  it('never names a page (LIMIT or OFFSET as a parameter), whose best plan depends on its size', async () => {
    const db = await direct();
    try {
      for (let i = 0; i < 3; i++) {
        await query(db.sql, sql`select id from accounts order by id limit ${10} offset ${i}`);
        await query(db.sql, sql`select id from accounts where id > ${'a'} order by id limit 10`);
      }
      expect((await named(db)).filter((text) => text.includes('from accounts'))).toEqual([
        'select id from accounts where id > $1 order by id limit 10',
      ]);
    } finally {
      await db.close();
    }
  });

  it("names a list's first page, its size written into the text, and leaves later pages unnamed", async () => {
    const db = await direct();
    try {
      for (let page = 1; page <= 2; page++) {
        for (let i = 0; i < 3; i++) {
          const request = { page, perPage: 25, offset: (page - 1) * 25 };
          await query(db.sql, sql`select id from accounts where id > ${'a'} order by id ${pageLimit(request)}`);
        }
      }
      expect((await named(db)).filter((text) => text.includes('from accounts'))).toEqual([
        'select id from accounts where id > $1 order by id limit 25',
      ]);
      expect(() => pageLimit({ page: 1, perPage: 2.5, offset: 0 })).toThrow();
    } finally {
      await db.close();
    }
  });

  it('names nothing when told not to, as behind a DATABASE_DIRECT_URL of its own', async () => {
    const db = await direct(false);
    try {
      for (let i = 0; i < 3; i++) await query(db.sql, sql`select id from zones where id = ${'zone_none'}`);
      expect(await named(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('answers with the new columns after a column is added under a kept `select *`', async () => {
    const db = await direct();
    try {
      await query(db.sql, sql`create table kept_shape (id int primary key)`);
      await query(db.sql, sql`insert into kept_shape values (1)`);
      const all2 = (tx: Sql) => query<Record<string, unknown>>(tx, sql`select * from kept_shape where id > ${0}`);
      const all = () => query<Record<string, unknown>>(db.sql, sql`select * from kept_shape where id = ${1}`);
      for (let i = 0; i < 7; i++) expect(await all()).toEqual([{ id: 1 }]);
      await query(db.sql, sql`alter table kept_shape add column note text default 'added'`);
      expect(await all()).toEqual([{ id: 1, note: 'added' }]);
      expect(await all()).toEqual([{ id: 1, note: 'added' }]);
      // inside a transaction it cannot run again: it fails as "unavailable" (503, retry) and
      // the connection, with the plans it kept, is dropped; the retry sees the new shape
      for (let i = 0; i < 7; i++) await transaction(db.sql, (tx) => all2(tx));
      await query(db.sql, sql`alter table kept_shape add column size int default 2`);
      const failure = await transaction(db.sql, (tx) => all2(tx)).catch((error) => error);
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(await transaction(db.sql, (tx) => all2(tx))).toEqual([{ id: 1, note: 'added', size: 2 }]);
    } finally {
      await db.close();
    }
  });

  it('keeps the statement, never its parameters, in a failure', async () => {
    const db = await direct();
    try {
      const failure = await query(db.sql, sql`select ${'sk_live_secret'}::integer as n`).catch((error) => error);
      expect(failure.message).toBe('Failed query: select $1::integer as n');
      expect(failure.message).not.toContain('sk_live_secret');
      expect(failure.cause).toMatchObject({ code: '22P02' });
    } finally {
      await db.close();
    }
  });
});

describe.runIf(throughPgBouncer())('named statements through a transaction pooler', () => {
  it('stay off when the server answers on another port than the one dialled, DATABASE_DIRECT_URL or not', async () => {
    const database = await openTestDatabase();
    const db = await openDatabase({ databaseUrl: database.url as string, poolSize: 1 });
    try {
      // one client, alone on its database: PgBouncer lends it one server connection, whose list
      // of prepared statements it then reads
      for (let i = 0; i < 3; i++) await query(db.sql, sql`select id from accounts where id = ${'acct_none'}`);
      expect((await named(db)).filter((text) => text.includes('from accounts'))).toEqual([]);
    } finally {
      await db.close();
      await database.close();
    }
  });

  it('turn themselves off at the first missing or taken name, and every query still answers', async () => {
    const database = await openTestDatabase();
    const db = await openDatabase({ databaseUrl: database.url as string, poolSize: 6, preparedStatements: true });
    try {
      // six clients of PgBouncer sharing its server connections, each naming the same texts
      for (let round = 0; round < 20; round++) {
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            query<{ n: number }>(db.sql, sql`select ${round * 10 + i}::int as n`).then((rows) => rows[0]?.n),
          ),
        );
        expect(answers).toEqual(Array.from({ length: 6 }, (_, i) => round * 10 + i));
      }
      const inTransactions = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          transaction(db.sql, (tx) => query<{ n: number }>(tx, sql`select ${i}::int as n`)).then((rows) => rows[0]?.n),
        ),
      );
      expect(inTransactions).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await db.close();
      await database.close();
    }
  });
});
