import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { accepted, ok } from '../../core/http/operation.ts';
import { resourceRoutes } from '../../core/http/resource-routes.ts';
import { routesOf } from '../../core/http/routes.ts';
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
  const route = routesOf(app, deps, { tags, examples: webhooksExamples });
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

  route('POST /v1/webhooks/:id/test', 'webhooks:write', {
    operationId: 'sendWebhookTestEvent',
    summary: 'Send a test event',
    description:
      'Queues a sample event with `test: true` for this endpoint only and returns its pending delivery record.',
    body: TestWebhookBody,
    optionalBody: true,
    response: accepted(Type.Ref('WebhookDelivery')),
    run: webhooks.sendTestEvent,
  });

  route('POST /v1/webhooks/:id/rotate_secret', 'webhooks:write', {
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description:
      'Issues a new secret. For 24 hours deliveries carry two signatures, one per secret, so receivers can switch without missing any.',
    response: ok(Type.Ref('WebhookWithSecret')),
    run: webhooks.rotateSecret,
  });

  route('GET /v1/webhooks/:id/deliveries', 'webhooks:read', {
    operationId: 'listWebhookDeliveries',
    summary: 'List delivery attempts',
    description: 'One record per attempt, newest first.',
    list: DeliveryListQuery,
    response: ok(DeliveryList),
    run: webhooks.listDeliveries,
  });

  route('POST /v1/webhooks/:id/deliveries/:delivery_id/retry', 'webhooks:write', {
    operationId: 'retryWebhookDelivery',
    summary: 'Redeliver an event',
    description:
      "Sends the delivery's event again now and returns the new attempt's record (a waiting automatic retry is brought forward instead).",
    response: accepted(Type.Ref('WebhookDelivery')),
    run: webhooks.retryDelivery,
  });
}
