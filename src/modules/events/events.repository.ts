// Owns: events (the outbox: one row per event, written in the transaction of its change).
import { queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import type { StatementPart } from '../../core/events.ts';
import { type PageRequest, pageOfTable } from '../../core/paging.ts';
import { insertRow, tenantColumns } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';

export interface NewEvent {
  id: string;
  type: string;
  body: string;
  createdAt: Date;
  /** A Send Test sample (`test: true`): stored for its delivery, listed by no one. */
  sample?: boolean;
}

export function insertEvent(db: Sql, tenant: Tenant, event: NewEvent): Promise<void> {
  // the body is stored as text, byte for byte as serialised and delivered
  return insertRow(db, 'events', {
    id: event.id,
    ...tenantColumns(tenant),
    type: event.type,
    body: event.body,
    sample: event.sample ?? false,
    created_at: event.createdAt,
  });
}

export interface EventRow {
  id: string;
  /** The payload as it was sent. */
  body: string;
}

export interface EventFilters {
  /** Stored at or after this instant: the retention window. */
  keptSince: Date;
  /** One event type, or the prefix of `resource.*` (e.g. `booking.`). */
  type?: { exact: string } | { prefix: string };
  createdAfter?: Date;
  createdBefore?: Date;
  ids?: string[];
}

function conditions(tenant: Tenant, filters: EventFilters): SQL[] {
  const where: SQL[] = [
    tenantIs(tenant),
    sql`created_at >= ${filters.keptSince}`,
    // Send Test's samples (test: true) describe no real change
    sql`not sample`,
  ];
  if (filters.type && 'exact' in filters.type) where.push(sql`type = ${filters.type.exact}`);
  if (filters.type && 'prefix' in filters.type) where.push(sql`type like ${`${filters.type.prefix}%`}`);
  if (filters.createdAfter) where.push(sql`created_at > ${filters.createdAfter}`);
  if (filters.createdBefore) where.push(sql`created_at < ${filters.createdBefore}`);
  if (filters.ids) where.push(sql`id = any(${textArray(filters.ids)})`);
  return where;
}

const EVENT_COLUMNS = sql.raw('id, body');

export function listEvents(db: Sql, tenant: Tenant, filters: EventFilters, page: PageRequest) {
  return pageOfTable<EventRow>(
    db,
    { table: 'events', columns: EVENT_COLUMNS, where: conditions(tenant, filters) },
    page,
  );
}

export function findEvent(db: Sql, tenant: Tenant, id: string, keptSince: Date): Promise<EventRow | undefined> {
  return queryOne<EventRow>(
    db,
    sql`select ${EVENT_COLUMNS} from events where ${sql.join(conditions(tenant, { keptSince }), sql` and `)} and id = ${id}`,
  );
}

/**
 * Inserts the events and runs each of `alongside` (data-modifying statements with `returning`,
 * the subscribers' rows) and `also` in the same statement, one round trip in all. Returns
 * `fill`'s value. The parts see the database as it
 * was before the statement, so none may read the events it inserts (a foreign key to them is
 * checked at its end). With `fill`, the bodies are stored with its value for its placeholder.
 */
export async function insertEvents(
  db: Sql,
  tenant: Tenant,
  events: readonly NewEvent[],
  alongside: readonly SQL[],
  also: readonly StatementPart[],
  options: { fill?: { placeholder: string; value: SQL }; last?: boolean } = {},
): Promise<{ filled: string | null }> {
  const { fill } = options;
  const rows = events.map((event) => sql`(${event.id}, ${event.type}, ${event.body}, ${event.createdAt}::timestamptz)`);
  const body = fill
    ? sql`replace(v.body, ${JSON.stringify(fill.placeholder)}, to_json(filled.value)::text)`
    : sql`v.body`;
  const parts = [
    ...also.map((part) => sql`${sql.identifier(part.name)} as (${part.statement})`),
    ...(fill ? [sql`filled as (select (${fill.value}) as value)`] : []),
    sql`inserted as (insert into events (id, account_id, environment, type, body, created_at)
                     select v.id, ${tenant.accountId}, ${tenant.environment}, v.type, ${body}, v.at
                     from (values ${sql.join(rows, sql`, `)}) as v(id, type, body, at)${fill ? sql`, filled` : sql``})`,
    ...alongside.map((part, i) => sql`${sql.identifier(`part${i}`)} as (${part})`),
  ];
  // data-modifying parts run to completion whether or not the result reads them
  const row = await queryOne<{ filled: string | null }>(
    db,
    sql`with ${sql.join(parts, sql`, `)}
        select ${fill ? sql`(select value from filled)` : sql`null`}::text as filled`,
    { last: options.last },
  );
  return { filled: row?.filled ?? null };
}
