import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { serviceUnavailable } from '../../core/errors.ts';
import { documentExamples } from '../../core/http/openapi.ts';

const tags = ['Operations'];

export function healthRoutes(app: FastifyInstance, deps: Deps) {
  documentExamples(app, {
    responses: { checkLiveness: { status: 'ok' }, checkReadiness: { status: 'ok', database: 'postgres' } },
  });
  app.get(
    '/healthz',
    {
      schema: {
        tags,
        operationId: 'checkLiveness',
        summary: 'The process is up',
        description: 'Answers 200 while the process runs, without touching the database: for liveness probes.',
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
        operationId: 'checkReadiness',
        summary: 'The database answers',
        description:
          'Answers 200 when the database answers a query, 503 with Retry-After when it does not: for readiness probes and load balancers.',
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
