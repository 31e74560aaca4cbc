import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { documentExamples } from '../../core/http/openapi.ts';
import { created, noContent, ok, operation } from '../../core/http/operation.ts';
import { replyList, replyNoContent, replyWith } from '../../core/http/replies.ts';
import { IdParams } from '../../core/http/schemas.ts';
import { paymentsExamples } from './payments.examples.ts';
import {
  NewPaymentMethodBody,
  Payment,
  PaymentMethod,
  PaymentMethodList,
  PaymentMethodListQuery,
  Refund,
  UpdatePaymentMethodBody,
} from './payments.schemas.ts';
import * as payments from './payments.service.ts';

const tags = ['Payment methods'];

export function paymentMethodRoutes(app: FastifyInstance, deps: Deps) {
  documentExamples(app, paymentsExamples);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(PaymentMethod);
  app.addSchema(Payment);
  app.addSchema(Refund);

  api.post(
    '/v1/customers/:id/payment_methods',
    operation('customers:write', tags, {
      operationId: 'createPaymentMethod',
      summary: 'Add a card',
      'x-error-codes': ['processor_not_configured', 'card_declined'],
      description:
        'The card number and cvc go to the payment processor and are never stored or logged; only brand and last4 are kept. ' +
        "A number failing the Luhn check is 400 parameter_invalid (param card.number). A customer's first card becomes the default. " +
        'Test environment test cards: 4242424242424242 and 5555555555554444 succeed; 4000000000000002 is declined ' +
        '(card_declined) and 4000000000009995 fails with insufficient_funds, when charged (not when added). ' +
        'In the live environment without a configured processor: 400 processor_not_configured.',
      params: IdParams('id'),
      body: NewPaymentMethodBody,
      response: created(Type.Ref('PaymentMethod')),
    }),
    async (request, reply) =>
      replyWith(reply, 201, payments.addPaymentMethod(deps, tenantOf(request), request.params.id, request.body)),
  );

  api.get(
    '/v1/customers/:id/payment_methods',
    operation('customers:read', tags, {
      operationId: 'listPaymentMethods',
      summary: "List a customer's cards",
      description: "A customer's saved cards, the default first.",
      params: IdParams('id'),
      querystring: PaymentMethodListQuery,
      response: ok(PaymentMethodList),
    }),
    async (request, reply) =>
      replyList(
        reply,
        request.query,
        payments.listPaymentMethods(deps, tenantOf(request), request.params.id, request.query),
      ),
  );

  api.patch(
    '/v1/customers/:id/payment_methods/:pm_id',
    operation('customers:write', tags, {
      operationId: 'updatePaymentMethod',
      summary: 'Make a card the default',
      description: '`{"is_default": true}` moves the default to this card.',
      params: IdParams('id', 'pm_id'),
      body: UpdatePaymentMethodBody,
      response: ok(Type.Ref('PaymentMethod')),
    }),
    async (request) =>
      payments.updatePaymentMethod(deps, tenantOf(request), request.params.id, request.params.pm_id, request.body),
  );

  api.delete(
    '/v1/customers/:id/payment_methods/:pm_id',
    operation('customers:write', tags, {
      operationId: 'deletePaymentMethod',
      summary: 'Remove a card',
      description: 'When the default card goes, the newest remaining card becomes the default.',
      params: IdParams('id', 'pm_id'),
      response: noContent(),
    }),
    async (request, reply) =>
      replyNoContent(
        reply,
        payments.removePaymentMethod(deps, tenantOf(request), request.params.id, request.params.pm_id),
      ),
  );
}
