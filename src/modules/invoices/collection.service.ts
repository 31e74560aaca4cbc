// Taking and returning money on an invoice: /pay (card or offline, partial allowed) and
// refunds. Each runs under the invoice's row lock, so concurrent requests cannot over-collect
// or over-refund.
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, invalidParameter } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import { adjustCustomerBalances } from '../customers/index.ts';
import {
  cardToCharge,
  chargeCard,
  type PaymentView,
  type RefundView,
  recordOfflinePayment,
  refundInvoicePayments,
  requireProcessor,
} from '../payments/index.ts';
import * as repository from './invoices.repository.ts';
import type { InvoiceView, PayBody, RefundBody } from './invoices.schemas.ts';
import { getInvoice, requireInvoice } from './invoices.service.ts';

/** Refuses payment on invoices that cannot take it. */
function assertPayable(row: repository.InvoiceRow): void {
  if (row.status === 'draft') {
    throw new AppError('invalid_state_transition', 'A draft cannot be paid; finalize it first.');
  }
  if (row.status === 'void') throw new AppError('invalid_state_transition', 'A void invoice cannot be paid.');
  if (row.status === 'paid') throw new AppError('invoice_already_paid', 'This invoice is already paid in full.');
}

/**
 * Collects a payment. A declined card is recorded (failed payment, last_payment_error,
 * payment.failed) and committed, then reported as 402 card_error.
 */
export async function payInvoice(deps: Deps, tenant: Tenant, id: string, input: PayBody): Promise<InvoiceView> {
  if (input.method !== undefined && input.payment_method_id !== undefined) {
    throw invalidParameter('method', 'Send either payment_method_id (a card) or method (cash, check), not both.');
  }
  const now = deps.clock.now();
  type Outcome = { view: InvoiceView } | { declined: { code: string; message: string } };
  const outcome = await inTransaction(deps, async (deps): Promise<Outcome> => {
    const row = await requireInvoice(deps, tenant, id, { forUpdate: true });
    assertPayable(row);
    const balance = row.total - row.amount_paid;
    const amount = input.amount ?? balance;
    if (amount > balance) {
      throw invalidParameter('amount', `The amount is more than the balance of ${balance} cents.`);
    }
    const attempt = { invoiceId: id, customerId: row.customer_id, amount, currency: row.currency, now };
    let payment: PaymentView;
    if (input.method !== undefined) {
      payment = await recordOfflinePayment(deps, tenant, { ...attempt, method: input.method });
    } else {
      requireProcessor(deps, tenant);
      const card = await cardToCharge(deps, tenant, {
        customerId: row.customer_id,
        paymentMethodId: input.payment_method_id,
      });
      if (!card) {
        throw new AppError(
          'missing_required_field',
          'The customer has no default card: send payment_method_id, or method for an offline payment.',
          { param: 'payment_method_id' },
        );
      }
      payment = await chargeCard(deps, tenant, { ...attempt, card });
    }
    if (payment.failure) {
      const error = { ...payment.failure, at: now.toISOString() };
      await repository.updateInvoice(deps.db, tenant, id, { last_payment_error: error }, now);
      return { declined: error };
    }
    const paidInFull = row.amount_paid + amount === row.total;
    await repository.updateInvoice(
      deps.db,
      tenant,
      id,
      {
        amount_paid: row.amount_paid + amount,
        status: paidInFull ? 'paid' : undefined,
        paid_at: paidInFull ? now : undefined,
        payment_method: payment.payment_method,
        last_payment_error: null,
      },
      now,
    );
    await adjustCustomerBalances(deps, tenant, row.customer_id, { spent: amount });
    const view = await getInvoice(deps, tenant, id);
    if (paidInFull) await deps.events.publish(deps.db, tenant, 'invoice.paid', view, now);
    return { view };
  });
  if ('declined' in outcome) {
    const code = outcome.declined.code === 'insufficient_funds' ? 'insufficient_funds' : 'card_declined';
    throw new AppError(code, outcome.declined.message || 'The card was declined.', { param: 'payment_method_id' });
  }
  return outcome.view;
}

export async function refundInvoice(deps: Deps, tenant: Tenant, id: string, input: RefundBody): Promise<RefundView> {
  const now = deps.clock.now();
  return inTransaction(deps, async (deps) => {
    // The lock makes concurrent refunds queue, each seeing what the previous refunded.
    const row = await requireInvoice(deps, tenant, id, { forUpdate: true });
    if (row.amount_paid === 0) {
      throw new AppError('invoice_not_paid', 'Nothing was collected on this invoice, so there is nothing to refund.');
    }
    const refundable = row.amount_paid - row.amount_refunded;
    const amount = input.amount ?? refundable;
    if (refundable === 0 || amount > refundable) {
      throw new AppError(
        'refund_exceeds_amount_paid',
        `The refund is more than the ${refundable} cents collected and not yet refunded.`,
        { param: 'amount' },
      );
    }
    const refundTo = input.refund_to ?? 'original_payment_method';
    const refund = await refundInvoicePayments(deps, tenant, {
      invoiceId: id,
      customerId: row.customer_id,
      amount,
      reason: input.reason ?? null,
      refundTo,
      now,
    });
    await repository.updateInvoice(deps.db, tenant, id, { amount_refunded: row.amount_refunded + amount }, now);
    await adjustCustomerBalances(
      deps,
      tenant,
      row.customer_id,
      refundTo === 'account_credit' ? { credit: amount } : { spent: -amount },
    );
    return refund;
  });
}
