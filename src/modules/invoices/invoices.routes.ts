import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { created, ok } from '../../core/http/operation.ts';
import { routesOf } from '../../core/http/routes.ts';
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

export function invoiceRoutes(app: FastifyInstance, deps: Deps) {
  const route = routesOf(app, deps, { tags: ['Invoices'], examples: invoicesExamples, schemas: [Invoice] });

  route('GET /v1/invoices', 'invoices:read', {
    operationId: 'listInvoices',
    summary: 'List invoices',
    description:
      'Newest first. `date_from`/`date_to` filter on issued_at (a plain date is a whole UTC day, date_to inclusive; drafts have no issued_at). ' +
      '`min_amount`/`max_amount` filter on total. `status=overdue` includes pending invoices past their due date. ' +
      '`metadata[key]=value` keeps invoices whose metadata holds that pair.',
    list: InvoiceListQuery,
    response: ok(InvoiceList),
    run: invoices.listInvoices,
  });

  route('POST /v1/invoices', 'invoices:write', {
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
    run: createInvoice,
  });

  route('GET /v1/invoices/:id', 'invoices:read', {
    operationId: 'retrieveInvoice',
    summary: 'Retrieve an invoice',
    description: 'With line items, payments, refunds and the booking reference.',
    response: ok(Type.Ref('Invoice')),
    run: invoices.getInvoice,
  });

  route('PATCH /v1/invoices/:id', 'invoices:write', {
    operationId: 'updateInvoice',
    summary: 'Update an invoice',
    description:
      "Changes the invoice's `metadata` only, in any status: it merges key by key and an empty string deletes a key. " +
      'Amounts and status move through finalize, pay, void and refund. Sends no event.',
    body: UpdateInvoiceBody,
    response: ok(Type.Ref('Invoice')),
    run: invoices.updateInvoice,
  });

  route('POST /v1/invoices/:id/finalize', 'invoices:write', {
    operationId: 'finalizeInvoice',
    summary: 'Finalize a draft',
    'x-error-codes': ['invalid_state_transition'],
    description:
      'draft -> pending: the invoice gets its number and issued_at. Any other status: 409 invalid_state_transition.',
    body: FinalizeBody,
    optionalBody: true,
    response: ok(Type.Ref('Invoice'), 409),
    run: invoices.finalizeInvoice,
  });

  route('POST /v1/invoices/:id/pay', 'invoices:write', {
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
    body: PayBody,
    optionalBody: true,
    response: ok(Type.Ref('Invoice'), 402, 409),
    run: payInvoice,
  });

  route('POST /v1/invoices/:id/void', 'invoices:write', {
    operationId: 'voidInvoice',
    summary: 'Void an invoice',
    'x-error-codes': ['invalid_state_transition', 'invoice_already_paid'],
    description:
      'From draft, pending or overdue with nothing collected. When money was collected: 409 invoice_already_paid (refund instead).',
    body: VoidBody,
    optionalBody: true,
    response: ok(Type.Ref('Invoice'), 409),
    run: invoices.voidInvoice,
  });

  route('POST /v1/invoices/:id/refund', 'invoices:write', {
    operationId: 'refundInvoice',
    summary: 'Refund an invoice',
    'x-error-codes': ['refund_exceeds_amount_paid', 'invoice_not_paid'],
    description:
      '`amount` omitted refunds everything collected and not yet refunded; more than that is 400 refund_exceeds_amount_paid. ' +
      'Nothing collected: 409 invoice_not_paid. `refund_to` original_payment_method (default; through the processor) or account_credit ' +
      "(adds to the customer's credit_balance). The invoice's status does not change; it shows amount_refunded and refunds[].",
    body: RefundBody,
    optionalBody: true,
    response: created(Type.Ref('Refund'), 409),
    run: refundInvoice,
  });

  route('GET /v1/customers/:id/invoices', 'invoices:read', {
    operationId: 'listCustomerInvoices',
    summary: "List a customer's invoices",
    description: 'Newest first; the same filters as the invoice list.',
    list: CustomerInvoiceListQuery,
    response: ok(InvoiceList),
    run: invoices.listCustomerInvoices,
  });
}
