// Requests that arrive after SIGTERM (on connections still open) are refused in the API's own
// shape, with Request-Id, Retry-After and Connection: close, so that clients and load balancers
// retry elsewhere; requests already running finish. Fastify's own 503 (return503OnClosing) has
// another body and no Request-Id, so the app turns it off and registers this instead.
import type { FastifyInstance } from 'fastify';
import { serviceUnavailable } from '../errors.ts';

export function refuseRequestsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw serviceUnavailable('The server is shutting down; retry the request.');
  });
}
