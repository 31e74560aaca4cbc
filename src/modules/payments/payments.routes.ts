import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { created, noContent, ok } from '../../core/http/operation.ts';
import { routesOf } from '../../core/http/routes.ts';
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

export function paymentMethodRoutes(app: FastifyInstance, deps: Deps) {
  const route = routesOf(app, deps, {
    tags: ['Payment methods'],
    examples: paymentsExamples,
    schemas: [PaymentMethod, Payment, Refund],
  });

  route('POST /v1/customers/:id/payment_methods', 'customers:write', {
    operationId: 'createPaymentMethod',
    summary: 'Add a card',
    'x-error-codes': ['processor_not_configured', 'card_declined'],
    description:
      'The card number and cvc go to the payment processor and are never stored or logged; only brand and last4 are kept. ' +
      "A number failing the Luhn check is 400 parameter_invalid (param card.number). A customer's first card becomes the default. " +
      'Test environment test cards: 4242424242424242 and 5555555555554444 succeed; 4000000000000002 is declined ' +
      '(card_declined) and 4000000000009995 fails with insufficient_funds, when charged (not when added). ' +
      'In the live environment without a configured processor: 400 processor_not_configured.',
    body: NewPaymentMethodBody,
    response: created(Type.Ref('PaymentMethod')),
    run: payments.addPaymentMethod,
  });

  route('GET /v1/customers/:id/payment_methods', 'customers:read', {
    operationId: 'listPaymentMethods',
    summary: "List a customer's cards",
    description: "A customer's saved cards, the default first.",
    list: PaymentMethodListQuery,
    response: ok(PaymentMethodList),
    run: payments.listPaymentMethods,
  });

  route('PATCH /v1/customers/:id/payment_methods/:pm_id', 'customers:write', {
    operationId: 'updatePaymentMethod',
    summary: 'Make a card the default',
    description: '`{"is_default": true}` moves the default to this card.',
    body: UpdatePaymentMethodBody,
    response: ok(Type.Ref('PaymentMethod')),
    run: payments.updatePaymentMethod,
  });

  route('DELETE /v1/customers/:id/payment_methods/:pm_id', 'customers:write', {
    operationId: 'deletePaymentMethod',
    summary: 'Remove a card',
    description: 'When the default card goes, the newest remaining card becomes the default.',
    response: noContent(),
    run: payments.removePaymentMethod,
  });
}
