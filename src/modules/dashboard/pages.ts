// The two read-only page shapes the dashboard repeats: a list (filters from the query string)
// and one record by id. Each reads through one service call and renders inside the frame.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Tenant } from '../../core/tenant.ts';
import { type Session, sessionTenant } from '../sessions/index.ts';
import { type ShellOptions, sendShell } from './shell.ts';

/** The route options of a dashboard page: hidden from the API's OpenAPI document. */
export const PAGE = { schema: { hide: true } };

/** The route options of a page about one record, whose 404 says `notFound`. */
export function recordRoute(notFound: string) {
  return { ...PAGE, config: { notFound } };
}

/** A request for a page about one record. */
export type RecordRequest = FastifyRequest<{ Params: { id: string } }>;

/** Rows a list page shows at once. */
export const PER_PAGE = 25;

/** What a page's loader gets: the session's tenant (account and the environment on screen). */
export interface PageContext {
  tenant: Tenant;
  session: Session;
}

/** A list page at `path`: `load` reads the request's filters and returns the page. */
export function listPage(
  app: FastifyInstance,
  path: string,
  load: (request: FastifyRequest, context: PageContext) => Promise<ShellOptions>,
): void {
  app.get(path, PAGE, async (request, reply) => {
    const context = { tenant: sessionTenant(request.session), session: request.session };
    return sendShell(request, reply, await load(request, context));
  });
}

/**
 * A page about one record at `${path}/:id`. The service's not-found error becomes the framed 404
 * saying `notFound`.
 */
export function recordPage(
  app: FastifyInstance,
  path: string,
  notFound: string,
  load: (id: string, context: PageContext) => Promise<ShellOptions>,
): void {
  app.get(`${path}/:id`, recordRoute(notFound), async (request: RecordRequest, reply) => {
    const context = { tenant: sessionTenant(request.session), session: request.session };
    return sendShell(request, reply, await load(request.params.id, context));
  });
}
