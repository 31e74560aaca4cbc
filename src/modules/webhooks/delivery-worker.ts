// The delivery worker: claims due attempts in short transactions under a lease, makes up to
// CONCURRENCY of them at once, renews the leases of those still running, and on stop waits
// for them. Every instance may run one; the lease keeps them off each other's attempts.
import type { Deps } from '../../core/deps.ts';
import { randomBase62 } from '../../core/ids.ts';
import { type Loop, startLoop, type Worker } from '../../core/jobs.ts';
import { logFailure } from '../../core/logger.ts';
import * as deliveries from './deliveries.repository.ts';
import { makeAttempt, SuccessLog } from './deliveries.service.ts';
import { DeliveryClient } from './delivery-client.ts';
import { DELIVERY_CHANNEL } from './webhooks.repository.ts';

/** Long enough to outlive a slow claim; short enough that a crashed instance's work resumes soon. */
const LEASE_MS = 15_000;
const RENEW_EVERY_MS = 5_000;
const CLAIM_BATCH = 100;
/** Attempts made at once. */
const CONCURRENCY = 50;
/** Attempts held (sending or waiting their turn). */
const CAPACITY = CONCURRENCY * 4;
/**
 * New events are found by polling, not NOTIFY: a NOTIFY takes a database-wide lock at commit,
 * which would serialise every transaction that publishes an event. Test sends and retries by
 * hand do notify (rare).
 */
const POLL_MS = 100;

export class DeliveryWorker implements Worker {
  /** This instance's name on the leases it holds. */
  readonly owner = `worker_${randomBase62(16)}`;
  private readonly client: DeliveryClient;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Claimed, waiting for a free slot. */
  private readonly waiting: deliveries.ClaimedAttempt[] = [];
  private readonly successes: SuccessLog;
  private loop: Loop | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private stopped = false;
  /** Attempts started since this worker was made (runOnce reports the difference). */
  private attempted = 0;

  constructor(private readonly deps: Deps) {
    this.client = new DeliveryClient({
      allowPrivateUrls: deps.config.webhookAllowPrivateUrls,
      maxSockets: CONCURRENCY,
    });
    this.successes = new SuccessLog(deps.db, this.owner);
  }

  /**
   * One pass by hand: claims what is due, makes those attempts and waits for their outcomes to
   * be recorded, until nothing due is left; returns how many attempts were made.
   */
  async runOnce(): Promise<number> {
    const before = this.attempted;
    for (let more = true; more; ) {
      more = await this.claimAndSend();
      while (this.inFlight.size > 0) await Promise.allSettled(this.inFlight.values());
    }
    return this.attempted - before;
  }

  start(): void {
    if (this.loop) return;
    void this.listenForWakeUps();
    const { log } = this.deps;
    this.loop = startLoop({
      name: 'webhook-deliveries',
      everyMs: POLL_MS,
      log,
      run: () => this.claimAndSend(),
    });
    this.renewTimer = setInterval(() => {
      this.renewLeases().catch((error) =>
        logFailure(log, 'webhook lease renewal', error, 'webhook lease renewal failed'),
      );
    }, RENEW_EVERY_MS);
    this.renewTimer.unref();
  }

  private async listenForWakeUps(): Promise<void> {
    const { log, database } = this.deps;
    try {
      // the LISTEN session comes back by itself after an outage; until then polling finds the work
      const stopListening = await database.listen(DELIVERY_CHANNEL, () => this.wake(), {
        onError: (error) => logFailure(log, 'webhook wake-ups', error, 'webhook wake-ups lost; polling until back'),
      });
      if (this.stopped) await stopListening();
      else this.stopListening = stopListening;
    } catch (error) {
      log.warn({ err: error }, 'webhook wake-ups unavailable; polling only');
    }
  }

  wake(): void {
    this.loop?.wake();
  }

  /** Stops claiming, then waits for the attempts in flight (at most the 30 s timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.stopListening?.();
    await this.loop?.stop();
    // what was claimed but not started goes back at once, for another instance to take
    const unstarted = this.waiting.splice(0).map((attempt) => attempt.id);
    await deliveries.releaseLeases(this.deps.db, this.owner, unstarted).catch(() => {});
    await Promise.allSettled(this.inFlight.values());
    clearInterval(this.renewTimer);
    this.client.close();
  }

  /**
   * Claims ahead of sending: up to CAPACITY attempts are held (sending or waiting their turn),
   * so that the next claim's commit overlaps with the sends instead of stalling them.
   */
  private async claimAndSend(): Promise<boolean> {
    const room = CAPACITY - this.inFlight.size - this.waiting.length;
    if (room <= 0 || this.stopped) return false;
    const limit = Math.min(room, CLAIM_BATCH);
    const now = this.deps.clock.now();
    const claimed = await deliveries.claimDueAttempts(this.deps.db, {
      now,
      leaseUntil: new Date(now.getTime() + LEASE_MS),
      owner: this.owner,
      limit,
      exclude: this.heldIds(),
    });
    this.waiting.push(...claimed);
    this.dispatch();
    return claimed.length === limit;
  }

  private dispatch(): void {
    const { db, clock, log, mailer } = this.deps;
    const deps = {
      db,
      clock,
      mailer,
      client: this.client,
      owner: this.owner,
      successes: this.successes,
      recordRetryMs: LEASE_MS,
    };
    while (this.inFlight.size < CONCURRENCY && !this.stopped) {
      const attempt = this.waiting.shift();
      if (!attempt) break;
      this.attempted += 1;
      const running = makeAttempt(deps, attempt)
        .catch((error) =>
          logFailure(log, 'webhook attempts', error, 'webhook attempt failed to record', { deliveryId: attempt.id }),
        )
        .finally(() => {
          this.inFlight.delete(attempt.id);
          this.dispatch();
          // claim again once half the room is free, rather than once per finished attempt
          if (this.inFlight.size + this.waiting.length <= CAPACITY / 2) this.wake();
        });
      this.inFlight.set(attempt.id, running);
    }
  }

  private heldIds(): string[] {
    return [...this.inFlight.keys(), ...this.waiting.map((attempt) => attempt.id)];
  }

  private async renewLeases(): Promise<void> {
    const ids = this.heldIds();
    const until = new Date(this.deps.clock.now().getTime() + LEASE_MS);
    await deliveries.renewLeases(this.deps.db, this.owner, ids, until);
  }
}
