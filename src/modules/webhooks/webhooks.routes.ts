import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { emptyBodyIsEmptyObject } from '../../core/http/empty-body.ts';
import { sendList } from '../../core/http/pagination.ts';
import { CommonErrors, errors, IdParams } from '../../core/http/schemas.ts';
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
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Webhook);
  app.addSchema(WebhookWithSecret);
  app.addSchema(WebhookDelivery);

  api.post(
    '/v1/webhooks',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Create a webhook endpoint',
        description:
          'The URL must be https and resolve only to public addresses. The response carries the signing secret; it is not shown again (rotate_secret issues a new one).',
        body: NewWebhookBody,
        response: { 201: Type.Ref('WebhookWithSecret'), ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      const webhook = await webhooks.createWebhook(deps, tenantOf(request), request.body);
      return reply.code(201).send(webhook);
    },
  );

  api.get(
    '/v1/webhooks',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        summary: 'List webhook endpoints',
        querystring: WebhookListQuery,
        response: { 200: WebhookList, ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      const list = await webhooks.listWebhooks(deps, tenantOf(request), request.query);
      return sendList(reply, list, request.query.fields);
    },
  );

  api.get(
    '/v1/webhooks/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        summary: 'Retrieve a webhook endpoint',
        params: IdParams('id'),
        response: { 200: Type.Ref('Webhook'), ...errors(...CommonErrors) },
      },
    },
    async (request) => webhooks.getWebhook(deps, tenantOf(request), request.params.id),
  );

  api.patch(
    '/v1/webhooks/:id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Update a webhook endpoint',
        description:
          'Status `disabled` stops deliveries; `active` resumes them (the 5-day failure count starts again).',
        params: IdParams('id'),
        body: UpdateWebhookBody,
        response: { 200: Type.Ref('Webhook'), ...errors(...CommonErrors) },
      },
    },
    async (request) => webhooks.updateWebhook(deps, tenantOf(request), request.params.id, request.body),
  );

  api.delete(
    '/v1/webhooks/:id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint',
        description: 'Deletes the endpoint and its delivery records; nothing more is sent to it.',
        params: IdParams('id'),
        response: { 204: Type.Null(), ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      await webhooks.deleteWebhook(deps, tenantOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/v1/webhooks/:id/test',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Send a test event',
        description:
          'Queues a sample event with `test: true` for this endpoint only and returns its pending delivery record.',
        params: IdParams('id'),
        body: TestWebhookBody,
        response: { 202: Type.Ref('WebhookDelivery'), ...errors(...CommonErrors) },
      },
      preValidation: emptyBodyIsEmptyObject,
    },
    async (request, reply) => {
      const delivery = await webhooks.sendTestEvent(deps, tenantOf(request), request.params.id, request.body);
      return reply.code(202).send(delivery);
    },
  );

  api.post(
    '/v1/webhooks/:id/rotate_secret',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Rotate the signing secret',
        description:
          'Issues a new secret. For 24 hours deliveries carry two signatures, one per secret, so receivers can switch without missing any.',
        params: IdParams('id'),
        response: { 200: Type.Ref('WebhookWithSecret'), ...errors(...CommonErrors) },
      },
    },
    async (request) => webhooks.rotateSecret(deps, tenantOf(request), request.params.id),
  );

  api.get(
    '/v1/webhooks/:id/deliveries',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags,
        summary: 'List delivery attempts',
        description: 'One record per attempt, newest first.',
        params: IdParams('id'),
        querystring: DeliveryListQuery,
        response: { 200: DeliveryList, ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      const list = await webhooks.listDeliveries(deps, tenantOf(request), request.params.id, request.query);
      return sendList(reply, list, request.query.fields);
    },
  );

  api.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/retry',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        tags,
        summary: 'Redeliver an event',
        description:
          "Sends the delivery's event again now and returns the new attempt's record (a waiting automatic retry is brought forward instead).",
        params: IdParams('id', 'delivery_id'),
        response: { 202: Type.Ref('WebhookDelivery'), ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      const params = request.params;
      const delivery = await webhooks.retryDelivery(deps, tenantOf(request), params.id, params.delivery_id);
      return reply.code(202).send(delivery);
    },
  );
}
