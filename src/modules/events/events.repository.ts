// Owns: events (the outbox: one row per event, written in the transaction of its change).
import { queryOne, type SQL, type Sql, sql } from '../../core/db.ts';
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
 * many rows each of `alongside` returned. The parts see the database as it was before the
 * statement, so none may read the events it inserts (a foreign key to them is checked at its end).
 */
export async function insertEvents(
  db: Sql,
  tenant: Tenant,
  events: readonly NewEvent[],
  alongside: readonly SQL[],
  also?: SQL,
): Promise<number[]> {
  const rows = events.map(
    (event) =>
      sql`(${event.id}, ${tenant.accountId}, ${tenant.environment}, ${event.type}, ${event.body}::jsonb, ${event.body},
           ${event.createdAt}::timestamptz)`,
  );
  const parts = alongside.map((part, i) => sql`${sql.identifier(`part${i}`)} as (${part})`);
  if (also) parts.push(sql`also as (${also})`);
  const counts = alongside.map((_, i) => sql`(select count(*) from ${sql.identifier(`part${i}`)})::int`);
  const row = await queryOne<{ counts: number[] | null }>(
    db,
    sql`with inserted as (insert into events (id, account_id, environment, type, payload, body, created_at)
                          values ${sql.join(rows, sql`, `)})
        ${parts.length > 0 ? sql`, ${sql.join(parts, sql`, `)}` : sql``}
        select ${counts.length > 0 ? sql`array[${sql.join(counts, sql`, `)}]` : sql`null::int[]`} as counts`,
  );
  return row?.counts ?? [];
}
