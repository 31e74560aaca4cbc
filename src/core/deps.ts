import type { FastifyBaseLogger } from 'fastify';
import type { CredentialCache, JsonCache, TenantCache } from './cache.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import { type Database, type Sql, transaction } from './db.ts';
import type { Mailer } from './email.ts';
import type { EventPublisher } from './events.ts';
import type { KnownCredential } from './http/auth.ts';
import type { PaymentProcessors } from './payments.ts';

/**
 * Everything a service needs from the outside world, built once per process (`buildDeps` in
 * src/deps.ts, called by app.ts and cli.ts) and passed down as the first argument of every
 * service: `service(deps, tenant, input)`. No module builds its own.
 */
export interface Deps {
  config: Config;
  database: Database;
  /** The pool, or inside `inTransaction` the transaction. */
  db: Sql;
  clock: Clock;
  mailer: Mailer;
  log: FastifyBaseLogger;
  events: EventPublisher;
  payments: PaymentProcessors;
  /** Credentials recently resolved, by token hash (core/cache.ts). */
  credentials: CredentialCache<KnownCredential>;
  /** Business setup read by pricing, availability and the industries list, by catalog version. */
  catalogCache: TenantCache;
  /** API objects' JSON by the version of their rows, for lists read again and again (core/cache.ts). */
  jsonCache: JsonCache;
}

/**
 * Runs `work` in one transaction, handing it the same deps with `db` bound to the transaction,
 * so every service called inside it writes in it too. Called inside another transaction it
 * becomes a savepoint of that one.
 */
export function inTransaction<T>(deps: Deps, work: (deps: Deps) => Promise<T>): Promise<T> {
  return transaction(deps.db, (tx) => work({ ...deps, db: tx }));
}
