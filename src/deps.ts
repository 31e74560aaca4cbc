// Builds the process's deps once: app.ts for the server, cli.ts for commands. Whatever either
// entry point does, events reach webhooks the same way, because the wiring is here.
import type { FastifyBaseLogger } from 'fastify';
import { CredentialCache, JsonCache, TenantCache } from './core/cache.ts';
import type { Clock } from './core/clock.ts';
import type { Config } from './core/config.ts';
import type { Database } from './core/db.ts';
import type { Deps } from './core/deps.ts';
import { Mailer } from './core/email.ts';
import type { PaymentProcessors } from './core/payments.ts';
import { eventPublisher } from './modules/events/index.ts';
import { builtInProcessors } from './modules/payments/index.ts';
import { fanOutEvent } from './modules/webhooks/index.ts';

export interface DepsOptions {
  config: Config;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The payment processors; the built-in test processor (and no live one) unless given. */
  payments?: PaymentProcessors;
}

export function buildDeps(options: DepsOptions): Deps {
  const { config, database, clock, log } = options;
  return {
    config,
    database,
    db: database.sql,
    clock,
    log,
    mailer: new Mailer({ smtpUrl: config.smtpUrl, from: config.emailFrom, clock }),
    events: eventPublisher([fanOutEvent]),
    payments: options.payments ?? builtInProcessors(),
    credentials: new CredentialCache(),
    catalogCache: new TenantCache(),
    jsonCache: new JsonCache(),
  };
}
