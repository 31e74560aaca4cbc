// Builds the HTTP application: core plugins first (errors, auth, rate limits, idempotency,
// OpenAPI), then each module's routes, registered by hand so the list reads as the product.
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { Clock } from './core/clock.ts';
import type { Config } from './core/config.ts';
import type { Database } from './core/db.ts';
import type { Deps } from './core/deps.ts';
import { type CredentialResolver, registerAuth } from './core/http/auth.ts';
import { serializeOnFirstUse } from './core/http/compile-on-first-use.ts';
import { frameworkErrorHandler, registerErrorHandler } from './core/http/error-handler.ts';
import { idempotencyPurgeWorker, registerIdempotency } from './core/http/idempotency.ts';
import { registerJsonBodies } from './core/http/json-body.ts';
import { registerOpenApi } from './core/http/openapi.ts';
import { MemoryRateLimitStore, RedisRateLimitStore, registerRateLimit } from './core/http/rate-limit.ts';
import { refuseRequestsWhileClosing } from './core/http/shutdown.ts';
import { rejectNulCharacters, validatorCompiler } from './core/http/validation.ts';
import { newId } from './core/ids.ts';
import type { Worker } from './core/jobs.ts';
import { loggerOptions } from './core/logger.ts';
import type { PaymentProcessors } from './core/payments.ts';
import { tableStatisticsWorker } from './core/table-statistics.ts';
import { buildDeps } from './deps.ts';
import { apiKeyResolver } from './modules/accounts/index.ts';
import { bookingRoutes, bookingsHeldBy, customerHasOpenBookings } from './modules/bookings/index.ts';
import {
  catalogRoutes,
  couponRoutes,
  industryRoutes,
  settingsRoutes,
  staffRoutes,
  zoneRoutes,
} from './modules/catalog/index.ts';
import { customerRoutes } from './modules/customers/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { eventRoutes } from './modules/events/index.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { invoiceRoutes, issuedInvoiceIds, overdueInvoicesWorker } from './modules/invoices/index.ts';
import { accessTokenResolver, oauthRoutes, SCOPE_DESCRIPTIONS } from './modules/oauth/index.ts';
import { paymentMethodRoutes } from './modules/payments/index.ts';
import { decorateSessionLookup, sessionRoutes } from './modules/sessions/index.ts';
import { DeliveryWorker, webhookRoutes } from './modules/webhooks/index.ts';
import { assetRoutes } from './web/assets.ts';
import { registerSecurityHeaders } from './web/security-headers.ts';

export interface BuildOptions {
  config: Config;
  database: Database;
  clock: Clock;
  /** Set false to build without pino output (tests may pass a level instead). */
  logger?: boolean;
  /** Payment processors to use instead of the built-in test processor. */
  payments?: PaymentProcessors;
}

export interface App {
  server: FastifyInstance;
  deps: Deps;
  /** Every route as registered (method, url, config), so tests can check them all. */
  routes: RouteOptions[];
  /** The background workers; tests built with `workers: false` make their passes by hand. */
  workers: Workers;
  /** Starts the background workers' loops. */
  startWorkers(): void;
  /** Stops the workers, then the server; the database is closed by the caller. */
  close(): Promise<void>;
}

export interface Workers {
  deliveries: Worker;
  emails: Worker;
  overdueInvoices: Worker;
  idempotencyPurge: Worker;
  tableStatistics: Worker;
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database, clock } = options;
  const server = Fastify({
    logger: options.logger === false ? false : loggerOptions(config.logLevel, config.logFormat),
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
    schemaController: { compilersFactory: { buildSerializer: serializeOnFirstUse } },
  });
  server.setValidatorCompiler(validatorCompiler);
  const routes: RouteOptions[] = [];
  server.addHook('onRoute', (route) => {
    routes.push(route);
  });

  const deps = buildDeps({ config, database, clock, log: server.log, payments: options.payments });

  server.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', request.id);
  });
  refuseRequestsWhileClosing(server);
  registerErrorHandler(server);
  server.addHook('preValidation', rejectNulCharacters);
  await server.register(formbody);
  // The dashboard's cookies (sessions/cookies.ts): opaque random tokens, so nothing is signed.
  await server.register(cookie);
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
  await registerOpenApi(server, { baseUrl: config.baseUrl, authUrl: config.authUrl, scopes: SCOPE_DESCRIPTIONS });

  const resolvers: CredentialResolver[] = [apiKeyResolver(deps), accessTokenResolver(deps)];
  registerAuth(server, resolvers);
  registerJsonBodies(server);
  const rateLimitStore = config.redisUrl ? new RedisRateLimitStore(config.redisUrl) : new MemoryRateLimitStore();
  registerRateLimit(server, {
    max: config.rateLimitMax,
    windowSeconds: config.rateLimitWindowSeconds,
    store: rateLimitStore,
    clock,
  });
  registerIdempotency(server, deps.db, clock);

  // Browser pages (dashboard, sign-in, OAuth consent): strict headers and our own static files.
  registerSecurityHeaders(server, config);
  assetRoutes(server);
  decorateSessionLookup(server);

  healthRoutes(server, deps);
  sessionRoutes(server, deps);
  customerRoutes(server, deps, { hasOpenBookings: customerHasOpenBookings });
  catalogRoutes(server, deps);
  industryRoutes(server, deps);
  couponRoutes(server, deps);
  settingsRoutes(server, deps, { issuedInvoices: issuedInvoiceIds });
  zoneRoutes(server, deps, { heldBookings: bookingsHeldBy });
  staffRoutes(server, deps, { heldBookings: bookingsHeldBy });
  bookingRoutes(server, deps);
  oauthRoutes(server, deps);
  dashboardRoutes(server, deps);
  paymentMethodRoutes(server, deps);
  invoiceRoutes(server, deps);
  webhookRoutes(server, deps);
  eventRoutes(server, deps);

  const workers: Workers = {
    deliveries: new DeliveryWorker(deps),
    emails: deps.mailer.outboxWorker(deps),
    overdueInvoices: overdueInvoicesWorker(deps),
    idempotencyPurge: idempotencyPurgeWorker(deps),
    tableStatistics: tableStatisticsWorker(deps),
  };
  return {
    server,
    deps,
    routes,
    workers,
    startWorkers() {
      for (const worker of Object.values(workers)) worker.start();
    },
    async close() {
      await server.close();
      await Promise.all(Object.values(workers).map((worker) => worker.stop()));
      await rateLimitStore.close();
    },
  };
}
