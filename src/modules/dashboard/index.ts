// The admins' dashboard (CONTRACT §10): server-rendered pages over the same service functions
// the API uses. Sign-in and sessions live in the sessions module, the HTML kit in src/web.
// docs/architecture.md shows how a page is written.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import { UPLOAD_LIMITS } from '../../web/forms.ts';
import { sendErrorPage } from '../../web/page.ts';
import { apiKeyPages } from './api-keys.pages.ts';
import { bookingPages } from './bookings.pages.ts';
import { businessPages } from './business.pages.ts';
import { catalogFilePages } from './catalog-file.pages.ts';
import { connectedAppPages } from './connected-apps.pages.ts';
import { couponPages } from './coupons.pages.ts';
import { customerPages } from './customers.pages.ts';
import { invoicePages } from './invoices.pages.ts';
import { oauthAppPages } from './oauth-apps.pages.ts';
import { overviewPages } from './overview.pages.ts';
import { policyPages } from './policies.pages.ts';
import { servicePages } from './services.pages.ts';
import { sendNotFound } from './shell.ts';
import { signedInOnly } from './signed-in.ts';
import { teamPages } from './team.pages.ts';
import { webhookPages } from './webhooks.pages.ts';
import { zonePages } from './zones.pages.ts';

export function dashboardRoutes(app: FastifyInstance, deps: Deps): void {
  void app.register(async (pages) => {
    // Forms with a file input (OAuth app logos, catalog files) post multipart/form-data; only these pages
    // accept it, and signedInOnly reads it (within UPLOAD_LIMITS) once the session is known.
    await pages.register(multipart, { throwFileSizeLimit: false, limits: UPLOAD_LIMITS });
    signedInOnly(pages, deps);
    // Pages answer in HTML, never with the API's JSON error envelope. A record that is not
    // there (or belongs to the other environment) is the 404 page in the frame, saying what the
    // route's `notFound` says.
    pages.setErrorHandler((error, request, reply) => {
      if (request.session && error instanceof AppError && error.code === 'resource_not_found') {
        return sendNotFound(request, reply, request.routeOptions.config.notFound ?? 'There is no such page.');
      }
      return sendErrorPage(error, request, reply);
    });
    apiKeyPages(pages, deps);
    oauthAppPages(pages, deps);
    webhookPages(pages, deps);
    connectedAppPages(pages, deps);
    bookingPages(pages, deps);
    customerPages(pages, deps);
    invoicePages(pages, deps);
    overviewPages(pages, deps);
    servicePages(pages, deps);
    couponPages(pages, deps);
    policyPages(pages, deps);
    businessPages(pages, deps);
    catalogFilePages(pages, deps);
    zonePages(pages, deps);
    teamPages(pages, deps);
  });
}
