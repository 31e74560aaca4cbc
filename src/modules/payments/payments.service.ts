import { isoTimestamp, type Sql, transaction } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import { AppError, invalidParameter, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { pageRequest, pagination, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { lockCustomer, requireCustomer } from '../customers/index.ts';
import * as repository from './payments.repository.ts';
import type {
  NewPaymentMethodBody,
  PaymentMethodListQuery,
  PaymentMethodSummary,
  PaymentMethodView,
  PaymentView,
  RefundView,
  UpdatePaymentMethodBody,
} from './payments.schemas.ts';
import { luhnValid, type PaymentProcessor, type PaymentProcessors, processorFor } from './processor.ts';

export type PaymentDeps = Deps;

export function requireProcessor(processors: PaymentProcessors, tenant: Tenant): PaymentProcessor {
  const processor = processorFor(processors, tenant.environment);
  if (!processor) {
    throw new AppError(
      'processor_not_configured',
      'No payment processor is configured for the live environment, so cards cannot be added or charged. Offline payments (cash, check) still work.',
    );
  }
  return processor;
}

export function paymentMethodView(row: repository.PaymentMethodRow): PaymentMethodView {
  return {
    id: row.id,
    object: 'payment_method',
    customer_id: row.customer_id,
    type: 'card',
    brand: row.brand as PaymentMethodView['brand'],
    last4: row.last4,
    exp_month: row.exp_month,
    exp_year: row.exp_year,
    is_default: row.is_default,
    created_at: isoTimestamp(row.created_at),
  };
}

export function paymentSummary(row: repository.PaymentRow): PaymentMethodSummary {
  return { type: row.method, brand: row.brand, last4: row.last4 };
}

export function paymentView(row: repository.PaymentRow): PaymentView {
  return {
    id: row.id,
    object: 'payment',
    invoice_id: row.invoice_id,
    amount: row.amount,
    status: row.status,
    payment_method_id: row.payment_method_id,
    payment_method: paymentSummary(row),
    failure:
      row.status === 'failed'
        ? { code: row.failure_code ?? 'card_declined', message: row.failure_message ?? '' }
        : null,
    amount_refunded: row.amount_refunded,
    created_at: isoTimestamp(row.created_at),
  };
}

export function refundView(row: repository.RefundRow): RefundView {
  return {
    id: row.id,
    object: 'refund',
    invoice_id: row.invoice_id,
    amount: row.amount,
    reason: row.reason,
    refund_to: row.refund_to,
    status: row.status,
    created_at: isoTimestamp(row.created_at),
  };
}

async function requirePaymentMethod(db: Sql, tenant: Tenant, customerId: string, id: string) {
  const row = await repository.findPaymentMethod(db, tenant, customerId, id);
  if (!row) throw notFound('payment method', id);
  return row;
}

export async function addPaymentMethod(
  deps: PaymentDeps,
  tenant: Tenant,
  customerId: string,
  input: NewPaymentMethodBody,
): Promise<PaymentMethodView> {
  await requireCustomer(deps, tenant, customerId);
  const processor = requireProcessor(deps.payments, tenant);
  const number = input.card.number.replace(/[ -]/g, '');
  if (!luhnValid(number)) throw invalidParameter('card.number', 'The card number is not a valid card number.');
  const now = deps.clock.now();
  const expiry = input.card.exp_year * 12 + input.card.exp_month;
  if (expiry < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
    throw invalidParameter('card.exp_year', 'The card has expired.');
  }
  const stored = await processor.addCard({
    number,
    expMonth: input.card.exp_month,
    expYear: input.card.exp_year,
    cvc: input.card.cvc,
  });
  return transaction(deps.db, async (tx) => {
    await lockCustomer({ ...deps, db: tx }, tenant, customerId);
    const first = (await repository.countPaymentMethods(tx, tenant, customerId)) === 0;
    const isDefault = first || input.is_default === true;
    if (isDefault) await repository.clearDefaultPaymentMethod(tx, tenant, customerId);
    const row: repository.PaymentMethodRow = {
      id: newId('paymentMethod'),
      customer_id: customerId,
      type: 'card',
      brand: stored.brand,
      last4: stored.last4,
      exp_month: input.card.exp_month,
      exp_year: input.card.exp_year,
      processor_token: stored.token,
      is_default: isDefault,
      created_at: now.toISOString(),
    };
    await repository.insertPaymentMethod(tx, tenant, row);
    return paymentMethodView(row);
  });
}

export async function listPaymentMethods(
  deps: PaymentDeps,
  tenant: Tenant,
  customerId: string,
  query: PaymentMethodListQuery,
) {
  await requireCustomer(deps, tenant, customerId);
  const page = pageRequest(query);
  const { rows, total } = await repository.listPaymentMethods(
    deps.db,
    tenant,
    customerId,
    { ids: parseIds(query.ids, 'pm') },
    page,
  );
  return { data: rows.map(paymentMethodView), pagination: pagination(page, total) };
}

export async function updatePaymentMethod(
  deps: PaymentDeps,
  tenant: Tenant,
  customerId: string,
  id: string,
  input: UpdatePaymentMethodBody,
): Promise<PaymentMethodView> {
  return transaction(deps.db, async (tx) => {
    await lockCustomer({ ...deps, db: tx }, tenant, customerId);
    await requirePaymentMethod(tx, tenant, customerId, id);
    if (input.is_default) {
      await repository.clearDefaultPaymentMethod(tx, tenant, customerId);
      await repository.setDefaultPaymentMethod(tx, tenant, id);
    }
    return paymentMethodView(await requirePaymentMethod(tx, tenant, customerId, id));
  });
}

export async function removePaymentMethod(deps: PaymentDeps, tenant: Tenant, customerId: string, id: string) {
  await transaction(deps.db, async (tx) => {
    await lockCustomer({ ...deps, db: tx }, tenant, customerId);
    await requirePaymentMethod(tx, tenant, customerId, id);
    await repository.removePaymentMethod(tx, tenant, id, deps.clock.now());
    await repository.promoteDefaultPaymentMethod(tx, tenant, customerId);
  });
}

/** A card on file of this customer, for a payment; 400 when it is not theirs. */
export async function paymentMethodForCharge(
  db: Sql,
  tenant: Tenant,
  customerId: string,
  id: string | undefined,
): Promise<repository.PaymentMethodRow | undefined> {
  if (id === undefined) return repository.findDefaultPaymentMethod(db, tenant, customerId);
  const row = await repository.findPaymentMethod(db, tenant, customerId, id);
  if (!row) throw notFound('payment method', id, 'payment_method_id');
  return row;
}

export interface PaymentAttempt {
  invoiceId: string;
  customerId: string;
  amount: number;
  currency: string;
  now: Date;
}

/**
 * Charges a card and records the attempt, succeeded or failed, in the caller's transaction,
 * with its payment.succeeded or payment.failed event. Never throws for a decline.
 */
export async function chargeCard(
  deps: PaymentDeps,
  tx: Sql,
  tenant: Tenant,
  card: repository.PaymentMethodRow,
  attempt: PaymentAttempt,
): Promise<repository.PaymentRow> {
  const processor = requireProcessor(deps.payments, tenant);
  const result = await processor.charge({
    token: card.processor_token,
    amount: attempt.amount,
    currency: attempt.currency,
  });
  const row: repository.PaymentRow = {
    id: newId('payment'),
    invoice_id: attempt.invoiceId,
    customer_id: attempt.customerId,
    amount: attempt.amount,
    method: 'card',
    payment_method_id: card.id,
    brand: card.brand,
    last4: card.last4,
    status: result.ok ? 'succeeded' : 'failed',
    failure_code: result.ok ? null : result.code,
    failure_message: result.ok ? null : result.message,
    processor_reference: result.reference,
    amount_refunded: 0,
    created_at: attempt.now.toISOString(),
  };
  await repository.insertPayment(tx, tenant, row);
  await deps.events.publish(
    tx,
    tenant,
    result.ok ? 'payment.succeeded' : 'payment.failed',
    paymentView(row),
    attempt.now,
  );
  return row;
}

/** Cash or a check handed to the business: nothing to charge, only the record. */
export async function recordOfflinePayment(
  deps: PaymentDeps,
  tx: Sql,
  tenant: Tenant,
  method: 'cash' | 'check',
  attempt: PaymentAttempt,
): Promise<repository.PaymentRow> {
  const row: repository.PaymentRow = {
    id: newId('payment'),
    invoice_id: attempt.invoiceId,
    customer_id: attempt.customerId,
    amount: attempt.amount,
    method,
    payment_method_id: null,
    brand: null,
    last4: null,
    status: 'succeeded',
    failure_code: null,
    failure_message: null,
    processor_reference: null,
    amount_refunded: 0,
    created_at: attempt.now.toISOString(),
  };
  await repository.insertPayment(tx, tenant, row);
  await deps.events.publish(tx, tenant, 'payment.succeeded', paymentView(row), attempt.now);
  return row;
}

/**
 * Records a refund in the caller's transaction (which holds the invoice's lock). To the
 * original payment method, the amount is taken from the newest payments first and card parts
 * go back through the processor; to account credit nothing leaves the business.
 */
export async function refundInvoicePayments(
  deps: PaymentDeps,
  tx: Sql,
  tenant: Tenant,
  input: {
    invoiceId: string;
    customerId: string;
    amount: number;
    reason: string | null;
    refundTo: repository.RefundRow['refund_to'];
    now: Date;
  },
): Promise<repository.RefundRow> {
  if (input.refundTo === 'original_payment_method') {
    const payments = (await repository.listPayments(tx, tenant, [input.invoiceId]))
      .filter((payment) => payment.status === 'succeeded' && payment.amount > payment.amount_refunded)
      .reverse();
    let left = input.amount;
    for (const payment of payments) {
      if (left === 0) break;
      const part = Math.min(left, payment.amount - payment.amount_refunded);
      if (payment.method === 'card' && payment.processor_reference) {
        await requireProcessor(deps.payments, tenant).refund({
          chargeReference: payment.processor_reference,
          amount: part,
        });
      }
      await repository.addPaymentRefunded(tx, tenant, payment.id, part);
      left -= part;
    }
    // The caller checked the amount against what the invoice collected; this is a guard.
    if (left > 0) throw new Error('refund larger than the refundable payments');
  }
  const row: repository.RefundRow = {
    id: newId('refund'),
    invoice_id: input.invoiceId,
    customer_id: input.customerId,
    amount: input.amount,
    reason: input.reason,
    refund_to: input.refundTo,
    status: 'succeeded',
    created_at: input.now.toISOString(),
  };
  await repository.insertRefund(tx, tenant, row);
  await deps.events.publish(tx, tenant, 'payment.refunded', refundView(row), input.now);
  return row;
}
