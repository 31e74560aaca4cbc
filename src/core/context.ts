import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Database, Sql } from './db.ts';
import type { Mailer } from './email.ts';

/** What every module's routes and workers are given: no globals anywhere else. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Sql;
  clock: Clock;
  mailer: Mailer;
  log: FastifyBaseLogger;
}
