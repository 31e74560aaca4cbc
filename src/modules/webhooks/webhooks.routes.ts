import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { documentExamples } from '../../core/http/openapi.ts';
import { accepted, action, ok, operation } from '../../core/http/operation.ts';
import { replyList, replyWith } from '../../core/http/replies.ts';
import { resourceRoutes } from '../../core/http/resource-routes.ts';
import { IdParams } from '../../core/http/schemas.ts';
import { webhooksExamples } from './webhooks.examples.ts';
import {
  DeliveryList,
  DeliveryListQuery,
  NewWebhookBody,
  TestWebhookBody,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
  WebhookList,
  WebhookListQuery,
  WebhookWithSecret,
} from './webhooks.schemas.ts';
import * as webhooks from './webhooks.service.ts';

const tags = ['Webhooks'];

export function webhookRoutes(app: FastifyInstance, deps: Deps) {
  documentExamples(app, webhooksExamples);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  resourceRoutes(app, deps, {
    path: '/v1/webhooks',
    tags,
    noun: ['webhook endpoint', 'webhook endpoints'],
    operationNoun: ['webhook', 'webhooks'],
    object: Webhook,
    scopes: { read: 'webhooks:read', write: 'webhooks:write' },
    create: {
      description:
        'The URL must be https and resolve only to public addresses. The response carries the signing secret; it is not shown again (rotate_secret issues a new one).',
      body: NewWebhookBody,
      response: Type.Ref('WebhookWithSecret'),
      run: webhooks.createWebhook,
    },
    list: { query: WebhookListQuery, response: WebhookList, run: webhooks.listWebhooks },
    retrieve: { run: webhooks.getWebhook },
    update: {
      description: 'Status `disabled` stops deliveries; `active` resumes them (the 5-day failure count starts again).',
      body: UpdateWebhookBody,
      run: webhooks.updateWebhook,
    },
    remove: {
      description: 'Deletes the endpoint and its delivery records; nothing more is sent to it.',
      run: webhooks.deleteWebhook,
    },
  });
  app.addSchema(WebhookWithSecret);
  app.addSchema(WebhookDelivery);

  api.post(
    '/v1/webhooks/:id/test',
    action('webhooks:write', tags, {
      operationId: 'sendWebhookTestEvent',
      summary: 'Send a test event',
      description:
        'Queues a sample event with `test: true` for this endpoint only and returns its pending delivery record.',
      params: IdParams('id'),
      body: TestWebhookBody,
      response: accepted(Type.Ref('WebhookDelivery')),
    }),
    async (request, reply) =>
      replyWith(reply, 202, webhooks.sendTestEvent(deps, tenantOf(request), request.params.id, request.body)),
  );

  api.post(
    '/v1/webhooks/:id/rotate_secret',
    operation('webhooks:write', tags, {
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret',
      description:
        'Issues a new secret. For 24 hours deliveries carry two signatures, one per secret, so receivers can switch without missing any.',
      params: IdParams('id'),
      response: ok(Type.Ref('WebhookWithSecret')),
    }),
    async (request) => webhooks.rotateSecret(deps, tenantOf(request), request.params.id),
  );

  api.get(
    '/v1/webhooks/:id/deliveries',
    operation('webhooks:read', tags, {
      operationId: 'listWebhookDeliveries',
      summary: 'List delivery attempts',
      description: 'One record per attempt, newest first.',
      params: IdParams('id'),
      querystring: DeliveryListQuery,
      response: ok(DeliveryList),
    }),
    async (request, reply) =>
      replyList(
        reply,
        request.query,
        webhooks.listDeliveries(deps, tenantOf(request), request.params.id, request.query),
      ),
  );

  api.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/retry',
    operation('webhooks:write', tags, {
      operationId: 'retryWebhookDelivery',
      summary: 'Redeliver an event',
      description:
        "Sends the delivery's event again now and returns the new attempt's record (a waiting automatic retry is brought forward instead).",
      params: IdParams('id', 'delivery_id'),
      response: accepted(Type.Ref('WebhookDelivery')),
    }),
    async (request, reply) => {
      const params = request.params;
      const delivery = await webhooks.retryDelivery(deps, tenantOf(request), params.id, params.delivery_id);
      return reply.code(202).send(delivery);
    },
  );
}
