// The planner's statistics for our tables, kept from going stale where nothing else keeps them.
// A table never analysed has none: PostgreSQL then guesses every equality equally selective, so a
// statement planned on it may prefer an index that matches more tenant columns over the primary
// key or the customer's index. Measured on the bookings bench (a server with autovacuum off):
// each booking read the account's customers through the GiST search index (150 buffers) and
// counted the customer's bookings by walking all of the account's (1,946 buffers), 0.55 ms of a
// 1 ms statement, growing with every booking. Named statements keep such a plan for good.
//
// The embedded database (PGlite, one process in single-user mode) runs no autovacuum at all, and
// a PostgreSQL server may run without it or analyse a new table only a minute or more after its
// first rows. So every instance runs ANALYZE on a table of ours that has rows but was never
// analysed, or has grown to twice the pages it had when last analysed: a logarithmic number of
// passes as a table grows, each sampling at most 30,000 rows. Where autovacuum keeps up, the check
// (one catalog read) finds nothing to do.
import { query, type Sql, sql } from './db.ts';
import type { Deps } from './deps.ts';
import { loopWorker, type Worker } from './jobs.ts';

/** Analyses the tables whose statistics are missing or outgrown; returns their names. */
export async function refreshTableStatistics(db: Sql): Promise<string[]> {
  const stale = await query<{ name: string }>(
    db,
    sql`select c.relname as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace,
             lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) now
        where n.nspname = current_schema() and c.relkind = 'r' and now.pages > 0
          and (c.reltuples < 0 or now.pages >= 2 * c.relpages)
        order by c.relname`,
  );
  for (const { name } of stale) await query(db, sql`analyze ${sql.identifier(name)}`);
  return stale.map((table) => table.name);
}

/** The refresh as a worker: at start, then every few seconds (a table's first rows count most). */
export function tableStatisticsWorker(deps: Deps, { everyMs = 5_000 } = {}): Worker {
  return loopWorker({
    name: 'table-statistics',
    everyMs,
    log: deps.log,
    pass: async () => ({ done: (await refreshTableStatistics(deps.db)).length, more: false }),
  });
}
