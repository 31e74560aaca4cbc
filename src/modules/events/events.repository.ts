// Owns: events (the outbox: one row per event, written in the transaction of its change).
import { queryOne, type SQL, type Sql, sql } from '../../core/db.ts';
import type { StatementPart } from '../../core/events.ts';
import { insertRow, tenantColumns } from '../../core/rows.ts';
import type { Tenant } from '../../core/tenant.ts';

export interface NewEvent {
  id: string;
  type: string;
  body: string;
  createdAt: Date;
}

export function insertEvent(db: Sql, tenant: Tenant, event: NewEvent): Promise<void> {
  // payload (jsonb) for queries; body (text) for delivery, byte for byte as serialised
  return insertRow(db, 'events', {
    id: event.id,
    ...tenantColumns(tenant),
    type: event.type,
    payload: sql`${event.body}::jsonb`,
    body: event.body,
    created_at: event.createdAt,
  });
}

/**
 * Inserts the events and runs each of `alongside` (data-modifying statements with `returning`,
 * the subscribers' rows) and `also` in the same statement, one round trip in all. Returns how
 * many rows each of `alongside` returned, and `fill`'s value. The parts see the database as it
 * was before the statement, so none may read the events it inserts (a foreign key to them is
 * checked at its end). With `fill`, the bodies are stored with its value for its placeholder.
 */
export async function insertEvents(
  db: Sql,
  tenant: Tenant,
  events: readonly NewEvent[],
  alongside: readonly SQL[],
  also: readonly StatementPart[],
  fill?: { placeholder: string; value: SQL },
): Promise<{ counts: number[]; filled: string | null }> {
  const rows = events.map((event) => sql`(${event.id}, ${event.type}, ${event.body}, ${event.createdAt}::timestamptz)`);
  const body = fill
    ? sql`replace(v.body, ${JSON.stringify(fill.placeholder)}, to_json(filled.value)::text)`
    : sql`v.body`;
  const parts = [
    ...also.map((part) => sql`${sql.identifier(part.name)} as (${part.statement})`),
    ...(fill ? [sql`filled as (select (${fill.value}) as value)`] : []),
    sql`inserted as (insert into events (id, account_id, environment, type, payload, body, created_at)
                     select v.id, ${tenant.accountId}, ${tenant.environment}, v.type, (${body})::jsonb, ${body}, v.at
                     from (values ${sql.join(rows, sql`, `)}) as v(id, type, body, at)${fill ? sql`, filled` : sql``})`,
    ...alongside.map((part, i) => sql`${sql.identifier(`part${i}`)} as (${part})`),
  ];
  const counts = alongside.map((_, i) => sql`(select count(*) from ${sql.identifier(`part${i}`)})::int`);
  const row = await queryOne<{ counts: number[] | null; filled: string | null }>(
    db,
    sql`with ${sql.join(parts, sql`, `)}
        select ${counts.length > 0 ? sql`array[${sql.join(counts, sql`, `)}]` : sql`null::int[]`} as counts,
               ${fill ? sql`(select value from filled)` : sql`null`}::text as filled`,
  );
  return { counts: row?.counts ?? [], filled: row?.filled ?? null };
}
