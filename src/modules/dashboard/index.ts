// The admins' dashboard (CONTRACT §10): server-rendered pages over the same service functions
// the API uses. Sign-in and sessions live in the sessions module.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { messagePage, sendPage } from '../sessions/index.ts';
import { apiKeyPages } from './api-keys.pages.ts';
import { customerPages } from './customers.pages.ts';
import { overviewPages } from './overview.pages.ts';

export { csrfField, integrationsHeader, pageHeader, sendShell } from './dashboard.layout.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  void app.register(async (pages) => {
    // Pages answer in HTML, never with the API's JSON error envelope.
    pages.setErrorHandler((error, request, reply) => {
      request.log.error({ err: error }, 'dashboard page failed');
      return sendPage(
        reply,
        messagePage('Something went wrong', 'The page could not be shown. Try again in a moment.', {
          href: '/dashboard',
          label: 'Back to the dashboard',
        }),
        500,
      );
    });
    apiKeyPages(pages, ctx);
    customerPages(pages, ctx);
    overviewPages(pages, ctx);
  });
}
