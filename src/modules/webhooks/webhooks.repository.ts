// Owns: webhook_endpoints, webhook_deliveries (the attempts; the delivery worker's own queries
// are in deliveries.repository.ts).
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { ID_PREFIXES } from '../../core/ids.ts';
import { type Metadata, metadataContains, metadataJson } from '../../core/metadata.ts';
import { type PageRequest, pageOfTable } from '../../core/paging.ts';
import { findById, type Locking, updateColumns } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';

export interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'active' | 'disabled';
  disabled_reason: 'manual' | 'gone' | 'failing' | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  failing_since: string | null;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
}

export interface AttemptRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  manual: boolean;
  status: 'pending' | 'succeeded' | 'failed';
  response_code: number | null;
  response_time_ms: number | null;
  error_type: string | null;
  error_message: string | null;
  attempted_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
}

/** Workers are woken through this channel when attempts become due (see `insertAttempts`). */
export const DELIVERY_CHANNEL = 'webhook_deliveries';

const ENDPOINT_COLUMNS = sql.raw(`id, url, events, description, status, disabled_reason, secret, previous_secret,
  previous_secret_expires_at, failing_since, metadata, created_at, updated_at`);

const ATTEMPT_COLUMNS = sql.raw(`id, endpoint_id, event_id, event_type, attempt, manual, status, response_code,
  response_time_ms, error_type, error_message, attempted_at, next_attempt_at, created_at`);

export async function insertEndpoint(
  db: Sql,
  tenant: Tenant,
  endpoint: {
    id: string;
    url: string;
    events: string[];
    description: string | null;
    secret: string;
    metadata: Metadata;
    now: Date;
  },
): Promise<void> {
  await query(
    db,
    sql`insert into webhook_endpoints (id, account_id, environment, url, events, description, secret, metadata, created_at, updated_at)
        values (${endpoint.id}, ${tenant.accountId}, ${tenant.environment}, ${endpoint.url}, ${textArray(endpoint.events)},
                ${endpoint.description}, ${endpoint.secret}, ${metadataJson(endpoint.metadata)}, ${endpoint.now}, ${endpoint.now})`,
  );
}

export function findEndpoint(db: Sql, tenant: Tenant, id: string, options: Locking = {}) {
  return findById<EndpointRow>(db, 'webhook_endpoints', ENDPOINT_COLUMNS, tenant, id, options);
}

export async function listEndpoints(
  db: Sql,
  tenant: Tenant,
  filters: { status?: string; ids?: string[]; metadata?: Metadata },
  page: PageRequest,
): Promise<{ rows: EndpointRow[]; total: number }> {
  const conditions = [tenantIs(tenant)];
  if (filters.status) conditions.push(sql`status = ${filters.status}`);
  if (filters.ids) conditions.push(sql`id = any(${textArray(filters.ids)})`);
  if (filters.metadata) conditions.push(metadataContains(filters.metadata));
  return pageOfTable<EndpointRow>(
    db,
    { table: 'webhook_endpoints', columns: ENDPOINT_COLUMNS, where: conditions },
    page,
  );
}

export async function updateEndpoint(
  db: Sql,
  tenant: Tenant,
  id: string,
  changes: Partial<{
    url: string;
    events: string[];
    description: string | null;
    status: EndpointRow['status'];
    disabled_reason: EndpointRow['disabled_reason'];
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: Date | null;
    failing_since: Date | null;
    metadata: Metadata;
  }>,
  now: Date,
): Promise<void> {
  await updateColumns(db, 'webhook_endpoints', { tenant, id }, changes, now, (column, value) =>
    column === 'events'
      ? textArray(value as string[])
      : column === 'metadata'
        ? metadataJson(value as Metadata)
        : sql`${value}`,
  );
}

export async function deleteEndpoint(db: Sql, tenant: Tenant, id: string): Promise<void> {
  await query(db, sql`delete from webhook_endpoints where ${tenantIs(tenant)} and id = ${id}`);
}

/** Active endpoints subscribed to `type` by name, by `resource.*` or by `*`. */
/** Endpoint `ep` is active and subscribed to the event type `type` (exactly, `booking.*` or `*`). */
function subscribed(tenant: Tenant, type: SQL): SQL {
  return sql`${tenantIs(tenant, 'ep')} and ep.status = 'active'
             and ep.events && array[${type}, split_part(${type}, '.', 1) || '.*', '*']`;
}

/** The events as rows `ev(id, type, at, ord)`, for a join with the endpoints. */
function eventRows(events: readonly { id: string; type: string; at: Date }[]): SQL {
  return sql`unnest(${textArray(events.map((event) => event.id))}, ${textArray(events.map((event) => event.type))},
                    ${textArray(events.map((event) => event.at.toISOString()))}::timestamptz[])
               with ordinality as ev(id, type, at, ord)`;
}

/**
 * The first attempts of these events to every endpoint subscribed to them, as one `insert …
 * returning` for the publishing statement (events/EventSubscriber), all of them, so that
 * nothing is left to write after it (it may be the transaction's last statement). Each is named
 * by its event and endpoint (a pair has one first attempt), in the shape `newId` mints: `whd_`
 * and 24 base62 characters of their SHA-256. Nothing is minted for an event nobody subscribes to.
 */
export function firstAttempts(tenant: Tenant, events: readonly { id: string; type: string; at: Date }[]): SQL {
  return sql`insert into webhook_deliveries (id, account_id, environment, endpoint_id, event_id, event_type,
                                             attempt, manual, status, next_attempt_at, created_at)
             select ${`${ID_PREFIXES.webhookDelivery}_`} || left(translate(encode(sha256(convert_to(
                      ev.id || ' ' || ep.id, 'UTF8')), 'base64'), '+/', '01'), 24),
                    ${tenant.accountId}, ${tenant.environment}, ep.id, ev.id, ev.type, 1, false, 'pending', ev.at, ev.at
             from ${eventRows(events)} join webhook_endpoints ep on ${subscribed(tenant, sql`ev.type`)}
             returning 1`;
}

export interface NewAttempt {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  manual: boolean;
  dueAt: Date;
}

/**
 * Queues attempts; with `notify`, the same statement wakes every instance's worker once the
 * caller's transaction commits (one round trip on the publishing path).
 */
export async function insertAttempts(
  db: Sql,
  tenant: Tenant,
  attempts: NewAttempt[],
  now: Date,
  options: { notify?: boolean } = {},
): Promise<void> {
  if (attempts.length === 0) return;
  const values = attempts.map(
    (a) => sql`(${a.id}, ${tenant.accountId}, ${tenant.environment}, ${a.endpointId}, ${a.eventId}, ${a.eventType},
                ${a.attempt}, ${a.manual}, 'pending', ${a.dueAt}::timestamptz, ${now}::timestamptz)`,
  );
  const insert = sql`insert into webhook_deliveries (id, account_id, environment, endpoint_id, event_id, event_type,
                                                     attempt, manual, status, next_attempt_at, created_at)
                     values ${sql.join(values, sql`, `)}`;
  if (!options.notify) {
    await query(db, insert);
    return;
  }
  await query(
    db,
    sql`with queued as (${insert} returning 1) select pg_notify(${DELIVERY_CHANNEL}, '') from queued limit 1`,
  );
}

export async function listAttempts(
  db: Sql,
  tenant: Tenant,
  endpointId: string,
  filters: { status?: string; eventId?: string; ids?: string[] },
  page: PageRequest,
): Promise<{ rows: AttemptRow[]; total: number }> {
  const conditions = [tenantIs(tenant), sql`endpoint_id = ${endpointId}`];
  if (filters.status) conditions.push(sql`status = ${filters.status}`);
  if (filters.eventId) conditions.push(sql`event_id = ${filters.eventId}`);
  if (filters.ids) conditions.push(sql`id = any(${textArray(filters.ids)})`);
  const order = sql`order by created_at desc, attempt desc, id desc`;
  return pageOfTable<AttemptRow>(
    db,
    { table: 'webhook_deliveries', columns: ATTEMPT_COLUMNS, where: conditions, order },
    page,
  );
}

export function findAttempt(db: Sql, tenant: Tenant, endpointId: string, id: string): Promise<AttemptRow | undefined> {
  return queryOne<AttemptRow>(
    db,
    sql`select ${ATTEMPT_COLUMNS} from webhook_deliveries where ${tenantIs(tenant)} and endpoint_id = ${endpointId} and id = ${id}`,
  );
}

/** The attempt of this event for this endpoint still waiting to be made, if any (not one in flight). */
export function findWaitingAttempt(db: Sql, tenant: Tenant, endpointId: string, eventId: string, now: Date) {
  return queryOne<AttemptRow>(
    db,
    sql`select ${ATTEMPT_COLUMNS} from webhook_deliveries
        where ${tenantIs(tenant)} and endpoint_id = ${endpointId} and event_id = ${eventId} and status = 'pending'
          and (leased_until is null or leased_until <= ${now})
        order by attempt desc limit 1 for update skip locked`,
  );
}

export async function lastAttemptNumber(db: Sql, tenant: Tenant, endpointId: string, eventId: string): Promise<number> {
  const row = await queryOne<{ attempt: number | null }>(
    db,
    sql`select max(attempt) as attempt from webhook_deliveries
        where ${tenantIs(tenant)} and endpoint_id = ${endpointId} and event_id = ${eventId}`,
  );
  return row?.attempt ?? 0;
}

/** Brings a waiting attempt forward, waking the workers on commit. */
export async function rescheduleAttempt(db: Sql, tenant: Tenant, id: string, dueAt: Date): Promise<void> {
  await query(
    db,
    sql`with moved as (
          update webhook_deliveries set next_attempt_at = ${dueAt} where ${tenantIs(tenant)} and id = ${id} returning 1
        ) select pg_notify(${DELIVERY_CHANNEL}, '') from moved`,
  );
}
