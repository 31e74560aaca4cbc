// Page-numbered lists, the same for every resource: a page request in, a page of views and
// its pagination out. HTTP knows the query-string shape (core/http/pagination.ts); services
// and repositories know only this.
import { query, queryOne, type SQL, type Sql, sql } from './db.ts';
import { invalidParameter } from './errors.ts';

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export interface Pagination {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export function pageRequest(query: { page: number; per_page: number }): PageRequest {
  return { page: query.page, perPage: query.per_page, offset: (query.page - 1) * query.per_page };
}

export function pagination(request: PageRequest, total: number): Pagination {
  return {
    page: request.page,
    per_page: request.perPage,
    total,
    total_pages: Math.ceil(total / request.perPage),
  };
}

/**
 * The page's `limit … offset …`. The size is written into the text (a validated integer, 1–100)
 * and the first page has no offset, so the first page of a list is one fixed text per size:
 * named and kept planned by the server, with a plan that knows how few rows it wants (db.ts
 * leaves statements with a LIMIT or OFFSET parameter unnamed). A later page's offset stays a
 * parameter, planned on each run for the rows it skips.
 */
export function pageLimit(page: PageRequest): SQL {
  if (!Number.isSafeInteger(page.perPage) || page.perPage < 1) throw new Error(`not a page size: ${page.perPage}`);
  const limit = sql.raw(`limit ${page.perPage}`);
  return page.offset === 0 ? limit : sql`${limit} offset ${page.offset}`;
}

/** A page of views from a page of rows and the total that matched. */
export function pageOf<Row, View>(
  request: PageRequest,
  found: { rows: Row[]; total: number },
  view: (row: Row) => View,
): Page<View> {
  return { data: found.rows.map(view), pagination: pagination(request, found.total) };
}

/**
 * One page of `select … from … where …` and the count of everything it matches, run side by
 * side. `select` is the statement up to and including its WHERE condition; `from` is the
 * `from … where …` part the count shares; `order` ends the page query.
 */
export async function pagedRows<Row>(
  db: Sql,
  statements: { select: SQL; from: SQL; order: SQL },
  page: PageRequest,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, count] = await Promise.all([
    query<Row>(db, sql`${statements.select} ${statements.from} ${statements.order} ${pageLimit(page)}`),
    queryOne<{ total: number }>(db, sql`select count(*) as total ${statements.from}`),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

/**
 * One page of a table's rows meeting every `where` condition, newest first unless `order` says
 * otherwise, and the count of all of them.
 */
export function pageOfTable<Row>(
  db: Sql,
  statement: { table: string; columns: SQL; where: SQL[]; order?: SQL },
  page: PageRequest,
): Promise<{ rows: Row[]; total: number }> {
  return pagedRows<Row>(
    db,
    {
      select: sql`select ${statement.columns}`,
      from: sql`from ${sql.identifier(statement.table)} where ${sql.join(statement.where, sql` and `)}`,
      order: statement.order ?? sql`order by created_at desc, id desc`,
    },
    page,
  );
}

/** `ids=a,b,c` as a list: at most 100, each of the expected kind's prefix. */
export function parseIds(raw: string | undefined, prefix: string): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = raw
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0) throw invalidParameter('ids', 'ids must name at least one id.');
  if (ids.length > 100) throw invalidParameter('ids', 'ids takes at most 100 ids.');
  return ids.filter((id) => id.startsWith(`${prefix}_`));
}
