import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { serviceUnavailable } from '../../core/errors.ts';

const tags = ['Operations'];

export function healthRoutes(app: FastifyInstance, deps: Deps) {
  app.get(
    '/healthz',
    {
      schema: {
        tags,
        summary: 'The process is up',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'The database answers',
        security: [],
        response: { 200: Type.Object({ status: Type.Literal('ok'), database: Type.String() }) },
      },
    },
    async () => {
      try {
        await deps.database.ping();
      } catch {
        // not logged: the requests and workers that need the database report the outage
        throw serviceUnavailable('The database is not reachable.');
      }
      return { status: 'ok' as const, database: deps.database.kind };
    },
  );
}
