// One attempt of one delivery: sign, send, record the outcome, and decide what follows
// (a retry on the schedule, disabling the endpoint on 410 or after 5 days of failure).
import type { Clock } from '../../core/clock.ts';
import { retryWhileUnavailable, type Sql, transaction } from '../../core/db.ts';
import type { Mailer } from '../../core/email.ts';
import { newId } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import { adminEmails } from '../accounts/index.ts';
import * as deliveries from './deliveries.repository.ts';
import type { AttemptResult, DeliveryClient } from './delivery-client.ts';
import { DISABLE_AFTER_MS, nextAttemptAt, parseRetryAfter } from './retry-schedule.ts';
import { signedHeaders } from './signing.ts';
import * as repository from './webhooks.repository.ts';

export interface AttemptDeps {
  db: Sql;
  clock: Clock;
  mailer: Mailer;
  client: DeliveryClient;
  /** Which worker instance holds the lease. */
  owner: string;
  successes: SuccessLog;
  random?: () => number;
  /**
   * How long an outcome is retried while the database is away (the worker's lease: after it,
   * another attempt is made anyway). 0 = not retried.
   */
  recordRetryMs?: number;
}

/**
 * Successes are the bulk of the work: they are recorded in batches (one commit for up to 100,
 * after at most 5 ms), which lets one instance record thousands per second.
 */
export class SuccessLog {
  private batch: { success: deliveries.Success; done: (error?: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Sql,
    private readonly owner: string,
  ) {}

  record(success: deliveries.Success): Promise<void> {
    return new Promise((resolve, reject) => {
      this.batch.push({ success, done: (error) => (error ? reject(error) : resolve()) });
      if (this.batch.length >= 100) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), 5);
    });
  }

  private async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return;
    try {
      await transaction(this.db, async (tx) => {
        await deliveries.relaxDurability(tx);
        await deliveries.completeSuccesses(
          tx,
          this.owner,
          batch.map((entry) => entry.success),
        );
      });
      for (const entry of batch) entry.done();
    } catch (error) {
      for (const entry of batch) entry.done(error);
    }
  }
}

export async function makeAttempt(deps: AttemptDeps, claimed: deliveries.ClaimedAttempt): Promise<void> {
  const tenant: Tenant = { accountId: claimed.account_id, environment: claimed.environment };
  // Automatic attempts stop with the endpoint; a test or a retry by hand may still try it.
  if (claimed.endpoint_status === 'disabled' && !claimed.manual) {
    await recordOutcome(deps, tenant, claimed, {
      ok: false,
      responseCode: null,
      responseTimeMs: 0,
      error: { type: 'endpoint_disabled', message: 'The endpoint is disabled; this delivery was not sent.' },
      retryAfter: undefined,
    });
    return;
  }
  const sentAt = deps.clock.now();
  const secrets = [claimed.secret];
  if (claimed.previous_secret && claimed.previous_secret_expires_at) {
    if (new Date(claimed.previous_secret_expires_at) > sentAt) secrets.push(claimed.previous_secret);
  }
  // webhook-id is the event id: the same on every retry, so receivers can deduplicate
  const headers = signedHeaders(secrets, claimed.event_id, sentAt, claimed.body);
  const result = await deps.client.post(claimed.url, headers, claimed.body);
  // a delivery made during a short outage is recorded once the database is back, not made again
  await retryWhileUnavailable(() => recordOutcome(deps, tenant, claimed, result, sentAt), deps.recordRetryMs ?? 0);
}

async function recordOutcome(
  deps: AttemptDeps,
  tenant: Tenant,
  claimed: deliveries.ClaimedAttempt,
  result: AttemptResult,
  attemptedAt = deps.clock.now(),
): Promise<void> {
  const now = deps.clock.now();
  const skipped = result.error?.type === 'endpoint_disabled';
  const gone = result.responseCode === 410;
  const retryAt =
    result.ok || gone || skipped || claimed.manual
      ? null
      : nextAttemptAt(claimed.attempt, now, {
          retryAfterMs:
            result.responseCode === 429 || result.responseCode === 503 ? parseRetryAfter(result.retryAfter, now) : null,
          random: deps.random,
        });
  if (result.ok && result.responseCode !== null) {
    await deps.successes.record({
      tenant,
      id: claimed.id,
      responseCode: result.responseCode,
      responseTimeMs: result.responseTimeMs,
      attemptedAt,
    });
    return;
  }
  let mailed = false;
  await transaction(deps.db, async (tx) => {
    await deliveries.relaxDurability(tx);
    const held = await deliveries.completeAttempt(tx, tenant, claimed.id, deps.owner, {
      status: 'failed',
      responseCode: result.responseCode,
      responseTimeMs: skipped ? null : result.responseTimeMs,
      error: result.error,
      attemptedAt,
      nextAttemptAt: retryAt,
    });
    if (!held) return;
    if (retryAt) {
      await repository.insertAttempts(
        tx,
        tenant,
        [
          {
            id: newId('webhookDelivery'),
            endpointId: claimed.endpoint_id,
            eventId: claimed.event_id,
            eventType: claimed.event_type,
            attempt: claimed.attempt + 1,
            manual: false,
            dueAt: retryAt,
          },
        ],
        now,
      );
    }
    if (skipped) return;
    const endpoint = await deliveries.startFailingStreak(tx, tenant, claimed.endpoint_id, now);
    if (endpoint?.status !== 'active') return;
    const failingFor = now.getTime() - new Date(endpoint.failing_since).getTime();
    if (!gone && failingFor < DISABLE_AFTER_MS) return;
    const disabled_reason = gone ? 'gone' : 'failing';
    await repository.updateEndpoint(tx, tenant, claimed.endpoint_id, { status: 'disabled', disabled_reason }, now);
    // a 410 is the receiver's own word; five days of failures are news to the account's admins
    if (!gone) {
      await mailAdmins(deps, tx, tenant, claimed.endpoint_id, endpoint.url);
      mailed = true;
    }
  });
  if (mailed) deps.mailer.wake();
}

async function mailAdmins(deps: AttemptDeps, tx: Sql, tenant: Tenant, endpointId: string, url: string) {
  for (const email of await adminEmails({ db: tx }, tenant.accountId)) {
    await deps.mailer.queue(tx, tenant, {
      kind: 'webhook_endpoint_disabled',
      to: email,
      subject: `Webhook endpoint disabled: ${url}`,
      text:
        `Your ${tenant.environment} webhook endpoint ${url} (${endpointId}) has failed every delivery ` +
        'for 5 days, so Fieldhand has disabled it.\n\nFix the endpoint, then re-enable it with ' +
        `PATCH /v1/webhooks/${endpointId} {"status":"active"} and redeliver what it missed from its deliveries list.\n`,
    });
  }
}
