import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { documentExamples } from '../../core/http/openapi.ts';
import { action, created, ok, operation } from '../../core/http/operation.ts';
import { replyList, replyWith } from '../../core/http/replies.ts';
import { IdParams } from '../../core/http/schemas.ts';
import { payInvoice, refundInvoice } from './collection.service.ts';
import { createInvoice } from './create-invoice.service.ts';
import { invoicesExamples } from './invoices.examples.ts';
import {
  CustomerInvoiceListQuery,
  FinalizeBody,
  Invoice,
  InvoiceList,
  InvoiceListQuery,
  NewInvoiceBody,
  PayBody,
  RefundBody,
  UpdateInvoiceBody,
  VoidBody,
} from './invoices.schemas.ts';
import * as invoices from './invoices.service.ts';

const tags = ['Invoices'];

export function invoiceRoutes(app: FastifyInstance, deps: Deps) {
  documentExamples(app, invoicesExamples);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Invoice);

  api.get(
    '/v1/invoices',
    operation('invoices:read', tags, {
      operationId: 'listInvoices',
      summary: 'List invoices',
      description:
        'Newest first. `date_from`/`date_to` filter on issued_at (a plain date is a whole UTC day, date_to inclusive; drafts have no issued_at). ' +
        '`min_amount`/`max_amount` filter on total. `status=overdue` includes pending invoices past their due date. ' +
        '`metadata[key]=value` keeps invoices whose metadata holds that pair.',
      querystring: InvoiceListQuery,
      response: ok(InvoiceList),
    }),
    async (request, reply) =>
      replyList(reply, request.query, invoices.listInvoices(deps, tenantOf(request), request.query)),
  );

  api.post(
    '/v1/invoices',
    operation('invoices:write', tags, {
      operationId: 'createInvoice',
      summary: 'Create an invoice',
      description:
        'Required: customer_id and line_items. Created pending and numbered (INV-000001, sequential per environment) unless `draft` is true. ' +
        'tax = round((subtotal - discount) x tax_rate / 100), half-up. due_date defaults to 14 days from today (UTC); a past due_date makes the invoice overdue at once. ' +
        "`auto_charge` charges the customer's default card at once (400 parameter_invalid on auto_charge when there is none). " +
        'When that charge fails the invoice is still created: 201 with status pending and `last_payment_error` set. ' +
        '`send_email` e-mails the invoice to the customer when it is issued.',
      body: NewInvoiceBody,
      response: created(Type.Ref('Invoice')),
    }),
    async (request, reply) => replyWith(reply, 201, createInvoice(deps, tenantOf(request), request.body)),
  );

  api.get(
    '/v1/invoices/:id',
    operation('invoices:read', tags, {
      operationId: 'retrieveInvoice',
      summary: 'Retrieve an invoice',
      description: 'With line items, payments, refunds and the booking reference.',
      params: IdParams('id'),
      response: ok(Type.Ref('Invoice')),
    }),
    async (request) => invoices.getInvoice(deps, tenantOf(request), request.params.id),
  );

  api.patch(
    '/v1/invoices/:id',
    operation('invoices:write', tags, {
      operationId: 'updateInvoice',
      summary: 'Update an invoice',
      description:
        "Changes the invoice's `metadata` only, in any status: it merges key by key and an empty string deletes a key. " +
        'Amounts and status move through finalize, pay, void and refund. Sends no event.',
      params: IdParams('id'),
      body: UpdateInvoiceBody,
      response: ok(Type.Ref('Invoice')),
    }),
    async (request) => invoices.updateInvoice(deps, tenantOf(request), request.params.id, request.body),
  );

  api.post(
    '/v1/invoices/:id/finalize',
    action('invoices:write', tags, {
      operationId: 'finalizeInvoice',
      summary: 'Finalize a draft',
      'x-error-codes': ['invalid_state_transition'],
      description:
        'draft -> pending: the invoice gets its number and issued_at. Any other status: 409 invalid_state_transition.',
      params: IdParams('id'),
      body: FinalizeBody,
      response: ok(Type.Ref('Invoice'), 409),
    }),
    async (request) => invoices.finalizeInvoice(deps, tenantOf(request), request.params.id, request.body),
  );

  api.post(
    '/v1/invoices/:id/pay',
    action('invoices:write', tags, {
      operationId: 'payInvoice',
      summary: 'Pay an invoice',
      'x-error-codes': [
        'processor_not_configured',
        'card_declined',
        'insufficient_funds',
        'invoice_already_paid',
        'invalid_state_transition',
      ],
      description:
        "`payment_method_id` (a card of the invoice's customer; default: the customer's default card) or `method` cash|check for an offline payment. " +
        '`amount` defaults to the balance; less is a partial payment, more is 400 parameter_invalid. Fully paid -> paid. ' +
        'A failed charge is 402 card_error (card_declined, insufficient_funds): the invoice keeps its status, and the failed payment and `last_payment_error` are recorded. ' +
        'Drafts and void invoices: 409 invalid_state_transition; paid: 409 invoice_already_paid.',
      params: IdParams('id'),
      body: PayBody,
      response: ok(Type.Ref('Invoice'), 402, 409),
    }),
    async (request) => payInvoice(deps, tenantOf(request), request.params.id, request.body),
  );

  api.post(
    '/v1/invoices/:id/void',
    action('invoices:write', tags, {
      operationId: 'voidInvoice',
      summary: 'Void an invoice',
      'x-error-codes': ['invalid_state_transition', 'invoice_already_paid'],
      description:
        'From draft, pending or overdue with nothing collected. When money was collected: 409 invoice_already_paid (refund instead).',
      params: IdParams('id'),
      body: VoidBody,
      response: ok(Type.Ref('Invoice'), 409),
    }),
    async (request) => invoices.voidInvoice(deps, tenantOf(request), request.params.id, request.body),
  );

  api.post(
    '/v1/invoices/:id/refund',
    action('invoices:write', tags, {
      operationId: 'refundInvoice',
      summary: 'Refund an invoice',
      'x-error-codes': ['refund_exceeds_amount_paid', 'invoice_not_paid'],
      description:
        '`amount` omitted refunds everything collected and not yet refunded; more than that is 400 refund_exceeds_amount_paid. ' +
        'Nothing collected: 409 invoice_not_paid. `refund_to` original_payment_method (default; through the processor) or account_credit ' +
        "(adds to the customer's credit_balance). The invoice's status does not change; it shows amount_refunded and refunds[].",
      params: IdParams('id'),
      body: RefundBody,
      response: created(Type.Ref('Refund'), 409),
    }),
    async (request, reply) =>
      replyWith(reply, 201, refundInvoice(deps, tenantOf(request), request.params.id, request.body)),
  );

  api.get(
    '/v1/customers/:id/invoices',
    operation('invoices:read', tags, {
      operationId: 'listCustomerInvoices',
      summary: "List a customer's invoices",
      description: 'Newest first; the same filters as the invoice list.',
      params: IdParams('id'),
      querystring: CustomerInvoiceListQuery,
      response: ok(InvoiceList),
    }),
    async (request, reply) =>
      replyList(
        reply,
        request.query,
        invoices.listCustomerInvoices(deps, tenantOf(request), request.params.id, request.query),
      ),
  );
}
