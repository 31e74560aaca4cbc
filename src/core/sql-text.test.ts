import { sql as drizzleSql, type SQL } from 'drizzle-orm';
import { PgDialect, pgTable, text } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sql as appSql, textArray } from './db.ts';
import { statementText } from './sql-text.ts';

const dialect = new PgDialect();
/** For statements the walk must write itself, without drizzle's. */
const noFallback = {
  sqlToQuery: (): never => {
    throw new Error('handed to drizzle');
  },
};
const drizzleText = (statement: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return { sql: text, params };
};

/** Statements made of the kinds this app writes, nested at random. */
const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true }),
);
/** Built with drizzle's `sql` or with the app's cheaper one (core/db.ts). */
const statementOf = (sql: typeof drizzleSql): fc.Arbitrary<SQL> =>
  fc.letrec<{ statement: SQL }>((tie) => ({
    statement: fc.oneof(
      { depthSize: 'small' },
      fc.string().map((text) => sql.raw(text)),
      value.map((v) => sql`x = ${v}`),
      fc.string().map((name) => sql`select ${sql.identifier(name)}`),
      fc.array(fc.string()).map((values) => sql`y = any(${textArray(values)})`),
      fc.constant(sql`z is ${undefined} null`),
      fc.array(tie('statement'), { maxLength: 4 }).map((parts) => sql.join(parts, sql` and `)),
      fc.tuple(tie('statement'), value, tie('statement')).map(([a, v, b]) => sql`(${a}) or ${v} <> (${b})`),
      fc.constant(sql``),
    ),
  })).statement;
const statement = statementOf(drizzleSql);
const sql = drizzleSql;

describe('statement text', () => {
  it('of the app’s `sql` tag is what drizzle writes for the same statement, by its walk or ours', () => {
    fc.assert(
      fc.property(statementOf(appSql), (built) => {
        expect(statementText(built, noFallback)).toEqual(drizzleText(built));
      }),
      { numRuns: 500 },
    );
    const build = (tag: typeof drizzleSql, id: string) => {
      const tenant = tag`account_id = ${'acct_1'} and environment = ${'test'}`;
      return tag`select ${tag.identifier('b')}.id from bookings b where ${tenant} and b.id = ${id}${tag``} ${tag.raw('limit 1')}`;
    };
    for (const id of ['bk_1', 'bk_2'])
      expect(drizzleText(build(appSql, id))).toEqual(drizzleText(build(drizzleSql, id)));
  });

  it('is what drizzle writes for any statement of the kinds this app builds', () => {
    fc.assert(
      fc.property(statement, (built) => {
        expect(statementText(built, noFallback)).toEqual(drizzleText(built));
      }),
      { numRuns: 500 },
    );
  });

  it('numbers the parameters in order through nested statements and lists', () => {
    const tenant = sql`account_id = ${'acct_1'} and environment = ${'test'}`;
    const built = sql`select * from ${sql.identifier('bookings')} b where ${tenant}
      and b.id = any(${textArray(['bk_1', 'bk_2'])}) and b.created_at > ${new Date(0)} ${sql.raw('limit 10')}`;
    expect(statementText(built, noFallback)).toEqual({
      sql: `select * from "bookings" b where account_id = $1 and environment = $2
      and b.id = any($3::text[]) and b.created_at > $4 limit 10`,
      params: ['acct_1', 'test', '{"bk_1","bk_2"}', new Date(0)],
    });
  });

  it('leaves what it does not know to drizzle: tables and columns, lists, inlined values', () => {
    const bookings = pgTable('bookings', { id: text('id') });
    const others = [
      sql`select ${bookings.id} from ${bookings}`,
      sql`x in ${['a', 'b']}`,
      sql`x = ${'a'}`.inlineParams(),
      sql`y = ${sql`x = ${'a'}`.inlineParams()}`,
    ];
    for (const built of others) {
      let handed = 0;
      const counting = {
        sqlToQuery: (statement: SQL) => {
          handed++;
          return dialect.sqlToQuery(statement);
        },
      };
      const { sql: text, params } = statementText(built, counting);
      expect({ sql: text, params }).toEqual(drizzleText(built));
      expect(handed).toBe(1);
    }
  });
});
