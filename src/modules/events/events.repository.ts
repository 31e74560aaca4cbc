// Owns: events (the outbox: one row per event, written in the transaction of its change).
import { type Sql, sql } from '../../core/db.ts';
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
