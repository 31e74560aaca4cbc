// Owns: events (the outbox: one row per event, written in the transaction of its change).
import { query, type Sql, sql } from '../../core/db.ts';
import type { Tenant } from '../../core/tenant.ts';

export async function insertEvent(
  db: Sql,
  tenant: Tenant,
  event: { id: string; type: string; body: string; createdAt: Date },
): Promise<void> {
  // payload (jsonb) for queries; body (text) for delivery, byte for byte as serialised
  await query(
    db,
    sql`insert into events (id, account_id, environment, type, payload, body, created_at)
        values (${event.id}, ${tenant.accountId}, ${tenant.environment}, ${event.type},
                ${event.body}::jsonb, ${event.body}, ${event.createdAt})`,
  );
}
