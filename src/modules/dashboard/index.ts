// The admins' dashboard (CONTRACT §10): server-rendered pages over the same service functions
// the API uses. Sign-in and sessions live in the sessions module.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { AppError, isServiceUnavailable } from '../../core/errors.ts';
import { logUnavailable } from '../../core/logger.ts';
import { currentSession, messagePage, requireSession, sendPage } from '../sessions/index.ts';
import { apiKeyPages } from './api-keys.pages.ts';
import { bookingPages } from './bookings.pages.ts';
import { connectedAppPages } from './connected-apps.pages.ts';
import { customerPages } from './customers.pages.ts';
import { LOGO_MAX_BYTES } from './forms.ts';
import { invoicePages } from './invoices.pages.ts';
import { oauthAppPages } from './oauth-apps.pages.ts';
import { overviewPages } from './overview.pages.ts';
import { webhookPages } from './webhooks.pages.ts';

export { csrfField, integrationsHeader, pageHeader, sendShell } from './dashboard.layout.ts';

const DASHBOARD_LINK = { href: '/dashboard', label: 'Back to the dashboard' };

export function dashboardRoutes(app: FastifyInstance, deps: Deps): void {
  void app.register(async (pages) => {
    // Forms with a file input (OAuth app logos) post multipart/form-data; only these pages
    // accept it. Each handler reads the parts itself, within the limits of forms.ts.
    await pages.register(multipart, {
      throwFileSizeLimit: false,
      limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 100, parts: 101 },
    });
    // Nobody without a session gets to make us read an upload: a multipart post is refused
    // (the usual redirect to the login page) before its body is touched, and the connection is
    // closed rather than drained. The form's CSRF token is checked once its fields are read.
    pages.addHook('preHandler', async (request, reply) => {
      if (!request.isMultipart() || (await currentSession(deps, request))) return;
      reply.header('connection', 'close');
      await requireSession(deps, request, reply);
      return reply;
    });
    // Pages answer in HTML, never with the API's JSON error envelope.
    pages.setErrorHandler((error, request, reply) => {
      if (isServiceUnavailable(error)) {
        logUnavailable(request.log, 'dashboard', error);
        return sendPage(
          reply.header('retry-after', '1'),
          messagePage(
            'Temporarily unavailable',
            'The dashboard is temporarily unavailable. Your data is safe; try again in a moment.',
            { href: request.method === 'GET' ? request.url : '/dashboard', label: 'Try again' },
          ),
          503,
        );
      }
      // A client's mistake (an unreadable body, a path id that cannot exist) keeps its 4xx.
      const status = error instanceof AppError ? error.status : (error as { statusCode?: number }).statusCode;
      if (status !== undefined && status >= 400 && status < 500) {
        const page =
          status === 404
            ? messagePage('Not found', 'There is nothing at this address.', DASHBOARD_LINK)
            : messagePage('Request not understood', 'Go back, reload the page and try again.', DASHBOARD_LINK);
        return sendPage(reply, page, status);
      }
      request.log.error({ err: error }, 'dashboard page failed');
      return sendPage(
        reply,
        messagePage('Something went wrong', 'The page could not be shown. Try again in a moment.', DASHBOARD_LINK),
        500,
      );
    });
    apiKeyPages(pages, deps);
    oauthAppPages(pages, deps);
    webhookPages(pages, deps);
    connectedAppPages(pages, deps);
    bookingPages(pages, deps);
    customerPages(pages, deps);
    invoicePages(pages, deps);
    overviewPages(pages, deps);
  });
}
