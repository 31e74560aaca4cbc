// Builds the HTTP application: core plugins first (errors, auth, rate limits, idempotency,
// OpenAPI), then each module's routes, registered by hand so the list reads as the product.
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { Clock } from './core/clock.ts';
import type { Config } from './core/config.ts';
import type { AppContext } from './core/context.ts';
import type { Database } from './core/db.ts';
import { Mailer } from './core/email.ts';
import { type CredentialResolver, registerAuth } from './core/http/auth.ts';
import { frameworkErrorHandler, registerErrorHandler } from './core/http/error-handler.ts';
import { idempotencyPurgeJob, registerIdempotency } from './core/http/idempotency.ts';
import { registerJsonBodies } from './core/http/json-body.ts';
import { registerOpenApi } from './core/http/openapi.ts';
import { MemoryRateLimitStore, RedisRateLimitStore, registerRateLimit } from './core/http/rate-limit.ts';
import { refuseRequestsWhileClosing } from './core/http/shutdown.ts';
import { rejectNulCharacters, validatorCompiler } from './core/http/validation.ts';
import { newId } from './core/ids.ts';
import { loggerOptions } from './core/logger.ts';
import { apiKeyResolver } from './modules/accounts/index.ts';
import { bookingRoutes, checkAddressRemoval } from './modules/bookings/index.ts';
import { catalogRoutes } from './modules/catalog/index.ts';
import { customerRoutes } from './modules/customers/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { subscribeToEvents } from './modules/events/index.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { invoiceRoutes, startOverdueInvoices } from './modules/invoices/index.ts';
import { accessTokenResolver, oauthRoutes } from './modules/oauth/index.ts';
import { paymentMethodRoutes } from './modules/payments/index.ts';
import { sessionRoutes } from './modules/sessions/index.ts';
import { DeliveryWorker, fanOutEvent, webhookRoutes } from './modules/webhooks/index.ts';

export interface BuildOptions {
  config: Config;
  database: Database;
  clock: Clock;
  /** Set false to build without pino output (tests may pass a level instead). */
  logger?: boolean;
}

export interface App {
  server: FastifyInstance;
  context: AppContext;
  /** Every route as registered (method, url, config), so tests can check them all. */
  routes: RouteOptions[];
  /** Starts the background workers (webhook delivery, e-mail, schedules). */
  startWorkers(options?: { idempotencyPurge?: boolean }): void;
  /** Stops the workers, then the server; the database is closed by the caller. */
  close(): Promise<void>;
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database, clock } = options;
  const server = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel),
    genReqId: () => newId('request'),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // refuseRequestsWhileClosing answers them in the API's own shape instead
    return503OnClosing: false,
    // A path parameter longer than find-my-way's default 100 characters would be a 414 before
    // any hook; let it reach the schemas, which answer 404 (it cannot be an id).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    frameworkErrors: frameworkErrorHandler,
    ajv: { customOptions: { removeAdditional: false } },
  });
  server.setValidatorCompiler(validatorCompiler);
  const routes: RouteOptions[] = [];
  server.addHook('onRoute', (route) => {
    routes.push(route);
  });

  const mailer = new Mailer({ smtpUrl: config.smtpUrl, from: config.emailFrom, clock });
  const context: AppContext = { config, database, db: database.sql, clock, mailer, log: server.log };

  server.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', request.id);
  });
  refuseRequestsWhileClosing(server);
  registerErrorHandler(server);
  server.addHook('preValidation', rejectNulCharacters);
  await server.register(formbody);
  await server.register(cors, {
    origin: config.corsOrigins.length > 0 ? config.corsOrigins : false,
    exposedHeaders: [
      'Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      'Idempotent-Replayed',
    ],
  });
  await registerOpenApi(server, config.baseUrl);

  const resolvers: CredentialResolver[] = [apiKeyResolver(context.db, clock), accessTokenResolver(context.db, clock)];
  registerAuth(server, resolvers);
  registerJsonBodies(server);
  const rateLimitStore = config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : new MemoryRateLimitStore();
  registerRateLimit(server, {
    max: config.rateLimitMax,
    windowSeconds: config.rateLimitWindowSeconds,
    store: rateLimitStore,
    clock,
  });
  registerIdempotency(server, context.db, clock);

  healthRoutes(server, context);
  sessionRoutes(server, context);
  customerRoutes(server, context, { checkAddressRemoval });
  catalogRoutes(server, context);
  bookingRoutes(server, context);
  oauthRoutes(server, context);
  dashboardRoutes(server, context);
  paymentMethodRoutes(server, context);
  invoiceRoutes(server, context);
  webhookRoutes(server, context);
  subscribeToEvents(fanOutEvent);

  const workers: { stop(): Promise<void> }[] = [];
  return {
    server,
    context,
    routes,
    startWorkers({ idempotencyPurge = true } = {}) {
      mailer.start(context.db, server.log);
      workers.push(mailer);
      workers.push(startOverdueInvoices(context));
      if (idempotencyPurge) workers.push(idempotencyPurgeJob(context).start());
      const deliveries = new DeliveryWorker({
        database,
        clock,
        mailer,
        log: server.log,
        allowPrivateUrls: config.webhookAllowPrivateUrls,
      });
      void deliveries.start();
      workers.push(deliveries);
    },
    async close() {
      await server.close();
      await Promise.all(workers.map((worker) => worker.stop()));
      await rateLimitStore.close();
    },
  };
}
