// Idempotency-Key on POST (IETF httpapi-idempotency-key draft, Stripe's behaviour): the first
// response per (account, environment, key) is kept for 24 hours and replayed; the same key
// with another request is 422; the same key while the first is still running is 409.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { query, queryOne, type Sql, sql } from '../db.ts';
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { loopWorker, type Worker } from '../jobs.ts';
import type { Tenant } from '../tenant.ts';

const KEEP_HOURS = 24;
/** An in-flight claim older than this belongs to a request that died; another may take it. */
const ABANDONED_AFTER_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: { tenant: Tenant; key: string } | null;
  }
}

interface StoredRecord {
  fingerprint: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  expired: boolean;
  abandoned: boolean;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fingerprintOf(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  return createHash('sha256')
    .update(`${request.method} ${path}\n${canonical(request.body ?? null)}`)
    .digest('hex');
}

export function registerIdempotency(app: FastifyInstance, db: Sql, clock: Clock): void {
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.principal) return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || key.length > 255) {
      throw new AppError('parameter_invalid', 'Idempotency-Key must be 1 to 255 characters.', {
        param: 'Idempotency-Key',
      });
    }
    const tenant = request.principal.tenant;
    const fingerprint = fingerprintOf(request);
    const now = clock.now();

    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await query(
        db,
        sql`insert into idempotency_keys (account_id, environment, key, fingerprint, state, created_at, locked_at)
            values (${tenant.accountId}, ${tenant.environment}, ${key}, ${fingerprint}, 'in_flight', ${now}, ${now})
            on conflict do nothing returning key`,
      );
      if (claimed.length > 0) {
        request.idempotencyClaim = { tenant, key };
        return;
      }
      const stored = await queryOne<StoredRecord>(
        db,
        sql`select fingerprint, state, response_status, response_body,
                   created_at < ${now}::timestamptz - make_interval(hours => ${KEEP_HOURS}) as expired,
                   locked_at < ${now}::timestamptz - make_interval(secs => ${ABANDONED_AFTER_MS / 1000}) as abandoned
            from idempotency_keys
            where account_id = ${tenant.accountId} and environment = ${tenant.environment} and key = ${key}`,
      );
      if (!stored) continue; // deleted in between (a 5xx): try to claim again
      if (stored.expired || (stored.state === 'in_flight' && stored.abandoned)) {
        await query(
          db,
          sql`delete from idempotency_keys
              where account_id = ${tenant.accountId} and environment = ${tenant.environment}
                and key = ${key} and fingerprint = ${stored.fingerprint} and state = ${stored.state}`,
        );
        continue;
      }
      if (stored.fingerprint !== fingerprint) {
        throw new AppError(
          'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request.',
          { param: 'Idempotency-Key' },
        );
      }
      if (stored.state === 'in_flight') {
        throw new AppError(
          'idempotency_key_in_use',
          'A request with this Idempotency-Key is still being processed; retry later.',
          { param: 'Idempotency-Key' },
        );
      }
      return replay(reply, stored);
    }
    throw new AppError('idempotency_key_in_use', 'This Idempotency-Key is busy; retry later.', {
      param: 'Idempotency-Key',
    });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    const where = sql`account_id = ${claim.tenant.accountId} and environment = ${claim.tenant.environment} and key = ${claim.key}`;
    // A 5xx is not kept, so the client's retry runs the request again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await query(db, sql`delete from idempotency_keys where ${where}`);
    } else {
      await query(
        db,
        sql`update idempotency_keys set state = 'done', response_status = ${reply.statusCode},
              response_body = ${payload} where ${where}`,
      );
    }
    return payload;
  });
}

function replay(reply: FastifyReply, stored: StoredRecord) {
  reply
    .code(stored.response_status ?? 200)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8');
  return reply.send(stored.response_body ?? '');
}

/** Rows deleted per statement: each batch is its own short transaction, so a large backlog never holds locks for long. */
const PURGE_BATCH = 1000;

/**
 * Forgets the keys older than the retention window, in batches, until none is left; returns how
 * many went. It spans every tenant: it is housekeeping, not a request. Keys locked by another
 * instance's purge are skipped (it is deleting them).
 */
async function purgeIdempotencyKeys(db: Sql, now: Date, batchSize: number): Promise<number> {
  let purged = 0;
  for (;;) {
    const deleted = await query(
      db,
      sql`delete from idempotency_keys
          where (account_id, environment, key) in (
            select account_id, environment, key from idempotency_keys
            where created_at < ${now}::timestamptz - make_interval(hours => ${KEEP_HOURS})
            limit ${batchSize}
            for update skip locked)
          returning 1`,
    );
    purged += deleted.length;
    if (deleted.length < batchSize) return purged;
  }
}

/** The purge as a worker: once at start, then hourly (CONTRACT §12). */
export function idempotencyPurgeWorker(deps: Deps, { everyMs = 60 * 60 * 1000, batchSize = PURGE_BATCH } = {}): Worker {
  return loopWorker({
    name: 'idempotency-purge',
    everyMs,
    log: deps.log,
    pass: async () => ({ done: await purgeIdempotencyKeys(deps.db, deps.clock.now(), batchSize), more: false }),
  });
}
