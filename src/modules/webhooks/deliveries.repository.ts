// The delivery worker's queries. Claiming works across tenants (a worker serves every
// account); each claimed row carries its tenant, and every write after the claim is scoped by it.
// Owns: webhook_deliveries and webhook_endpoints with webhooks.repository.ts (one module);
// reads events (the body to send).
import { query, queryOne, type Sql, sql, textArray } from '../../core/db.ts';
import { type Environment, type Tenant, tenantIs } from '../../core/tenant.ts';

export interface ClaimedAttempt {
  id: string;
  account_id: string;
  environment: Environment;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  manual: boolean;
  url: string;
  endpoint_status: 'active' | 'disabled';
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  body: string;
}

/**
 * Takes up to `limit` due attempts under a lease: FOR UPDATE SKIP LOCKED keeps two instances off
 * the same rows while they claim, and the lease keeps them off while the attempt runs. A lease
 * left by a crashed instance expires and the attempt is claimed again (at least once).
 */
/** Planned on each run: the pending attempts go from none to a backlog of thousands in seconds. */
const QUEUE = { prepared: false };

export function claimDueAttempts(
  db: Sql,
  claim: { now: Date; leaseUntil: Date; owner: string; limit: number; exclude: string[] },
): Promise<ClaimedAttempt[]> {
  return query<ClaimedAttempt>(
    db,
    sql`with due as (
          select id from webhook_deliveries
          where status = 'pending' and next_attempt_at <= ${claim.now}
            and (leased_until is null or leased_until <= ${claim.now})
            -- a hashed subplan: \`<> all(array)\` compared every due row with every held id
            and id not in (select unnest(${textArray(claim.exclude)}))
          order by next_attempt_at
          limit ${claim.limit}
          for update skip locked
        ), claimed as (
          update webhook_deliveries d set leased_until = ${claim.leaseUntil}, lease_owner = ${claim.owner}
          from due where d.id = due.id
          returning d.id, d.account_id, d.environment, d.endpoint_id, d.event_id, d.event_type, d.attempt, d.manual
        )
        select c.*, w.url, w.status as endpoint_status, w.secret, w.previous_secret, w.previous_secret_expires_at,
               e.body
        from claimed c
        join webhook_endpoints w on w.id = c.endpoint_id and w.account_id = c.account_id and w.environment = c.environment
        -- by the primary key alone (the foreign key ties the event to this tenant): with the
        -- tenant columns too, a planner without statistics yet (a burst into a new table) may
        -- pick the tenant's list index and read all of its events for each attempt
        join events e on e.id = c.event_id`,
    QUEUE,
  );
}

/** Extends the leases of the attempts this instance is still making. */
export async function renewLeases(db: Sql, owner: string, ids: string[], until: Date): Promise<void> {
  if (ids.length === 0) return;
  await query(
    db,
    sql`update webhook_deliveries set leased_until = ${until}
        where id = any(${textArray(ids)}) and lease_owner = ${owner} and status = 'pending'`,
    QUEUE,
  );
}

/** Gives back attempts claimed but not started (on shutdown). */
export async function releaseLeases(db: Sql, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await query(
    db,
    sql`update webhook_deliveries set leased_until = null
        where id = any(${textArray(ids)}) and lease_owner = ${owner} and status = 'pending'`,
    QUEUE,
  );
}

/**
 * Records the outcome of an attempt this instance holds. False when the lease was lost (another
 * instance took the attempt over): then the outcome is dropped and the other instance's counts.
 */
export async function completeAttempt(
  db: Sql,
  tenant: Tenant,
  id: string,
  owner: string,
  outcome: {
    status: 'succeeded' | 'failed';
    responseCode: number | null;
    responseTimeMs: number | null;
    error: { type: string; message: string } | null;
    attemptedAt: Date;
    nextAttemptAt: Date | null;
  },
): Promise<boolean> {
  const row = await queryOne<{ id: string }>(
    db,
    sql`update webhook_deliveries set status = ${outcome.status}, response_code = ${outcome.responseCode},
          response_time_ms = ${outcome.responseTimeMs}, error_type = ${outcome.error?.type ?? null},
          error_message = ${outcome.error?.message ?? null}, attempted_at = ${outcome.attemptedAt},
          next_attempt_at = ${outcome.nextAttemptAt}, leased_until = null
        where ${tenantIs(tenant)} and id = ${id} and lease_owner = ${owner} and status = 'pending'
        returning id`,
    QUEUE,
  );
  return row !== undefined;
}

/**
 * Delivery bookkeeping commits without waiting for the WAL flush: if the database crashed
 * right after, the attempt would still be pending under an expiring lease and be made again,
 * which at-least-once delivery allows. It saves a disk flush per attempt.
 */
export async function relaxDurability(tx: Sql): Promise<void> {
  await query(tx, sql`set local synchronous_commit = off`);
}

export interface Success {
  tenant: Tenant;
  id: string;
  responseCode: number;
  responseTimeMs: number;
  attemptedAt: Date;
}

/**
 * Records many successes in one statement and ends their endpoints' failing streaks (an
 * endpoint row is written only when it has a streak to end). Attempts whose lease this
 * instance lost are left alone.
 */
export async function completeSuccesses(db: Sql, owner: string, successes: Success[]): Promise<void> {
  if (successes.length === 0) return;
  const column = (pick: (s: Success) => string) => textArray(successes.map(pick));
  await query(
    db,
    sql`with outcome as (
          select * from unnest(${column((s) => s.id)}, ${column((s) => s.tenant.accountId)},
                               ${column((s) => s.tenant.environment)}, ${column((s) => String(s.responseCode))},
                               ${column((s) => String(s.responseTimeMs))}, ${column((s) => s.attemptedAt.toISOString())})
            as o(id, account_id, environment, response_code, response_time_ms, attempted_at)
        ), done as (
          update webhook_deliveries d set status = 'succeeded', response_code = o.response_code::integer,
            response_time_ms = o.response_time_ms::integer, error_type = null, error_message = null,
            attempted_at = o.attempted_at::timestamptz, next_attempt_at = null, leased_until = null
          from outcome o
          where d.id = o.id and d.account_id = o.account_id and d.environment = o.environment
            and d.lease_owner = ${owner} and d.status = 'pending'
          returning d.endpoint_id, d.account_id, d.environment
        )
        update webhook_endpoints w set failing_since = null
        from (select distinct endpoint_id, account_id, environment from done) e
        where w.id = e.endpoint_id and w.account_id = e.account_id and w.environment = e.environment
          and w.failing_since is not null`,
    QUEUE,
  );
}

/** Sets the start of the failing streak if none; returns the endpoint as it is now, locked. */
export function startFailingStreak(
  db: Sql,
  tenant: Tenant,
  endpointId: string,
  now: Date,
): Promise<{ status: 'active' | 'disabled'; url: string; failing_since: string } | undefined> {
  return queryOne(
    db,
    sql`update webhook_endpoints set failing_since = coalesce(failing_since, ${now})
        where ${tenantIs(tenant)} and id = ${endpointId}
        returning status, url, failing_since`,
  );
}
