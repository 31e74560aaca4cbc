// Owns: events (the outbox: one row per event, written in the transaction of its change).
import { queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type PageRequest, pageOfTable } from '../../core/paging.ts';
import { insertRow, tenantColumns } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';

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

export interface EventRow {
  id: string;
  /** The payload as it was sent; null only for events stored before 0006 kept it. */
  body: string | null;
  payload: unknown;
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
    sql`(payload ->> 'test') is distinct from 'true'`,
  ];
  if (filters.type && 'exact' in filters.type) where.push(sql`type = ${filters.type.exact}`);
  if (filters.type && 'prefix' in filters.type) where.push(sql`type like ${`${filters.type.prefix}%`}`);
  if (filters.createdAfter) where.push(sql`created_at > ${filters.createdAfter}`);
  if (filters.createdBefore) where.push(sql`created_at < ${filters.createdBefore}`);
  if (filters.ids) where.push(sql`id = any(${textArray(filters.ids)})`);
  return where;
}

const EVENT_COLUMNS = sql.raw('id, body, payload');

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
