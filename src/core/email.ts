// E-mail goes through an outbox table, written in the caller's transaction. With SMTP_URL a
// worker sends what is pending; without it the messages are kept for the dashboard to show.
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from './clock.ts';
import { isDatabaseUnavailable, query, retryWhileUnavailable, type Sql, sql } from './db.ts';
import { newId } from './ids.ts';
import { loopWorker, type PassResult, type Worker } from './jobs.ts';
import type { Tenant } from './tenant.ts';

/** What the outbox sender needs of deps (named here: core/deps.ts imports this module). */
interface OutboxDeps {
  db: Sql;
  clock: Clock;
  log: FastifyBaseLogger;
}

export interface EmailMessage {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

const MAX_ATTEMPTS = 5;
const BATCH = 50;
const SMTP_CONNECTIONS = 5;
const LEASE_SECONDS = 120;
/** How long the outcome of a send is retried while the database is away (then the lease expires and it is sent again). */
const RECORD_RETRY_MS = 15_000;

export class Mailer {
  private readonly transport: Transporter | undefined;
  private outbox: Worker | undefined;

  constructor(private readonly options: { smtpUrl: string | undefined; from: string; clock: Clock }) {
    // pooled: a few SMTP connections kept open and shared by the messages of a batch, sent side
    // by side (a new connection per message managed some 40 a second)
    if (options.smtpUrl) {
      this.transport = nodemailer.createTransport({
        url: options.smtpUrl,
        pool: true,
        maxConnections: SMTP_CONNECTIONS,
      });
    }
  }

  get sends(): boolean {
    return this.transport !== undefined;
  }

  /** Writes the message in the caller's transaction; it leaves only if that commits. */
  async queue(tx: Sql, tenant: Tenant, message: EmailMessage): Promise<string> {
    const id = newId('email');
    const status = this.transport ? 'pending' : 'kept';
    await query(
      tx,
      sql`insert into emails (id, account_id, environment, kind, to_address, subject, text_body, html_body, status, created_at)
          values (${id}, ${tenant.accountId}, ${tenant.environment}, ${message.kind}, ${message.to},
                  ${message.subject}, ${message.text}, ${message.html ?? null}, ${status}, ${this.options.clock.now()})`,
    );
    return id;
  }

  /** Nudges this process's outbox worker, if it runs one, after a commit that queued mail. */
  wake(): void {
    this.outbox?.wake();
  }

  /**
   * The worker sending the outbox (one per process; it does nothing without SMTP_URL). Its
   * `stop()` also closes the SMTP transport.
   */
  outboxWorker(deps: OutboxDeps): Worker {
    this.outbox ??= this.transport ? outboxSender(deps, this.transport, this.options.from) : idleWorker;
    return this.outbox;
  }
}

function outboxSender(deps: OutboxDeps, transport: Transporter, from: string): Worker {
  const sender = new OutboxSender(deps, transport, from);
  const loop = loopWorker({ name: 'email', everyMs: 5_000, log: deps.log, pass: () => sender.sendPending() });
  return {
    ...loop,
    stop: async () => {
      await loop.stop();
      transport.close();
    },
  };
}

const idleWorker: Worker = { runOnce: async () => 0, start() {}, wake() {}, stop: async () => {} };

interface ClaimedEmail {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attempts: number;
}

class OutboxSender {
  /** The lease end of a claim whose answer was lost with its connection (it may have committed). */
  private claimInDoubt: Date | undefined;

  constructor(
    private readonly deps: OutboxDeps,
    private readonly transport: Transporter,
    private readonly from: string,
  ) {}

  /** Claims a batch under a lease (so two instances never send the same one) and sends it. */
  async sendPending(): Promise<PassResult> {
    const { db, clock } = this.deps;
    const now = clock.now();
    if (this.claimInDoubt) {
      // its rows, known by their exact lease end, go back at once rather than after the lease
      await query(
        db,
        sql`update emails set next_attempt_at = ${now}, attempts = attempts - 1
            where status = 'pending' and next_attempt_at = ${this.claimInDoubt}`,
      );
      this.claimInDoubt = undefined;
    }
    const leaseUntil = new Date(now.getTime() + LEASE_SECONDS * 1000);
    let batch: ClaimedEmail[];
    try {
      batch = await query(
        db,
        sql`update emails set next_attempt_at = ${leaseUntil}, attempts = attempts + 1
            where id in (select id from emails where status = 'pending' and next_attempt_at <= ${now}
                         order by next_attempt_at limit ${BATCH} for update skip locked)
            returning id, to_address, subject, text_body, html_body, attempts`,
        // planned on each run: the outbox goes from empty to thousands of messages in seconds
        { prepared: false },
      );
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.claimInDoubt = leaseUntil;
      throw error;
    }
    // every send finishes (and records its outcome) before the pass ends, even when one fails
    const outcomes = await Promise.allSettled(batch.map((email) => this.send(email)));
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason;
    return { done: batch.length, more: batch.length === BATCH };
  }

  /** Sends one claimed message and records the outcome. */
  private async send(email: ClaimedEmail): Promise<void> {
    const { db, clock, log } = this.deps;
    let sendError: unknown;
    try {
      await this.transport.sendMail({
        from: this.from,
        to: email.to_address,
        subject: email.subject,
        text: email.text_body,
        html: email.html_body ?? undefined,
      });
    } catch (error) {
      sendError = error;
    }
    // the outcome outlives a short database outage, so that a sent message is not sent again
    if (sendError === undefined) {
      const sentAt = clock.now();
      await retryWhileUnavailable(
        () =>
          query(
            db,
            sql`update emails set status = 'sent', sent_at = ${sentAt}, last_error = null where id = ${email.id}`,
          ),
        RECORD_RETRY_MS,
      );
      return;
    }
    const failed = email.attempts >= MAX_ATTEMPTS;
    const backoffSeconds = 30 * 2 ** email.attempts;
    log.warn({ emailId: email.id, err: sendError }, 'e-mail not sent');
    const retryAt = clock.now();
    await retryWhileUnavailable(
      () =>
        query(
          db,
          sql`update emails set status = ${failed ? 'failed' : 'pending'}, last_error = ${String((sendError as Error).message).slice(0, 500)},
                next_attempt_at = ${retryAt}::timestamptz + make_interval(secs => ${backoffSeconds})
              where id = ${email.id}`,
        ),
      RECORD_RETRY_MS,
    );
  }
}

export function listEmails(db: Sql, tenant: Tenant, limit = 100) {
  return query<{
    id: string;
    kind: string;
    to_address: string;
    subject: string;
    text_body: string;
    status: string;
    created_at: string;
    sent_at: string | null;
    last_error: string | null;
  }>(
    db,
    sql`select id, kind, to_address, subject, text_body, status, created_at, sent_at, last_error from emails
        where account_id = ${tenant.accountId} and environment = ${tenant.environment}
        order by created_at desc, id desc limit ${limit}`,
  );
}
