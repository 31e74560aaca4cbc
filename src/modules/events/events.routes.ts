// GET /v1/events and /v1/events/:id: what webhooks carried, for an integrator catching up
// after downtime or checking what it missed (CONTRACT §13).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { documentExamples } from '../../core/http/openapi.ts';
import { ok, operation } from '../../core/http/operation.ts';
import { replyList } from '../../core/http/replies.ts';
import { IdParams } from '../../core/http/schemas.ts';
import { eventsExamples } from './events.examples.ts';
import { Event, EventList, EventListQuery } from './events.schemas.ts';
import { EVENT_RETENTION_DAYS, getEvent, listEvents } from './events.service.ts';

const tags = ['Events'];

export function eventRoutes(app: FastifyInstance, deps: Deps) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Event);
  documentExamples(app, eventsExamples);

  api.get(
    '/v1/events',
    operation('events:read', tags, {
      operationId: 'listEvents',
      summary: 'List events',
      description:
        `The events of the last ${EVENT_RETENTION_DAYS} days, newest first, each exactly as webhooks carried it. ` +
        '`type` takes an event type, `resource.*` or `*`; `created_after`/`created_before` are strict. ' +
        'Sample events sent by Send Test are not listed.',
      querystring: EventListQuery,
      response: ok(EventList),
    }),
    async (request, reply) => replyList(reply, request.query, listEvents(deps, tenantOf(request), request.query)),
  );

  api.get(
    '/v1/events/:id',
    operation('events:read', tags, {
      operationId: 'retrieveEvent',
      summary: 'Retrieve an event',
      description: `One event of the last ${EVENT_RETENTION_DAYS} days; an older one is 404 resource_not_found.`,
      params: IdParams('id'),
      response: ok(Type.Ref('Event')),
    }),
    async (request) => getEvent(deps, tenantOf(request), request.params.id),
  );
}
