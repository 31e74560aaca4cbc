// Cards on file, and the money an invoice takes and gives back: charges, offline payments and
// refunds. The invoices module calls the last three inside its transaction (deps bound to it),
// under the invoice's row lock.
import { isoTimestamp } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, invalidParameter } from '../../core/errors.ts';
import type { StatementPart } from '../../core/events.ts';
import { newId } from '../../core/ids.ts';
import { pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import { type PaymentProcessor, processorFor } from '../../core/payments.ts';
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
import { luhnValid } from './processor.ts';

export function requireProcessor(deps: Deps, tenant: Tenant): PaymentProcessor {
  const processor = processorFor(deps.payments, tenant.environment);
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

function paymentSummary(row: repository.PaymentRow): PaymentMethodSummary {
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

async function requirePaymentMethod(deps: Deps, tenant: Tenant, customerId: string, id: string) {
  return found(await repository.findPaymentMethod(deps.db, tenant, customerId, id), 'payment method', id);
}

export async function addPaymentMethod(
  deps: Deps,
  tenant: Tenant,
  customerId: string,
  input: NewPaymentMethodBody,
): Promise<PaymentMethodView> {
  await requireCustomer(deps, tenant, customerId);
  const processor = requireProcessor(deps, tenant);
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
  return inTransaction(deps, async (deps) => {
    await lockCustomer(deps, tenant, customerId);
    const first = (await repository.countPaymentMethods(deps.db, tenant, customerId)) === 0;
    const isDefault = first || input.is_default === true;
    if (isDefault) await repository.clearDefaultPaymentMethod(deps.db, tenant, customerId);
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
    await repository.insertPaymentMethod(deps.db, tenant, row);
    return paymentMethodView(row);
  });
}

export async function listPaymentMethods(
  deps: Deps,
  tenant: Tenant,
  customerId: string,
  query: PaymentMethodListQuery,
) {
  await requireCustomer(deps, tenant, customerId);
  const page = pageRequest(query);
  const filters = { ids: parseIds(query.ids, 'pm') };
  return pageOf(
    page,
    await repository.listPaymentMethods(deps.db, tenant, customerId, filters, page),
    paymentMethodView,
  );
}

export async function updatePaymentMethod(
  deps: Deps,
  tenant: Tenant,
  customerId: string,
  id: string,
  input: UpdatePaymentMethodBody,
): Promise<PaymentMethodView> {
  return inTransaction(deps, async (deps) => {
    await lockCustomer(deps, tenant, customerId);
    await requirePaymentMethod(deps, tenant, customerId, id);
    if (input.is_default) {
      await repository.clearDefaultPaymentMethod(deps.db, tenant, customerId);
      await repository.setDefaultPaymentMethod(deps.db, tenant, id);
    }
    return paymentMethodView(await requirePaymentMethod(deps, tenant, customerId, id));
  });
}

export async function removePaymentMethod(deps: Deps, tenant: Tenant, customerId: string, id: string) {
  await inTransaction(deps, async (deps) => {
    await lockCustomer(deps, tenant, customerId);
    await requirePaymentMethod(deps, tenant, customerId, id);
    await repository.removePaymentMethod(deps.db, tenant, customerId, id, deps.clock.now());
  });
}

/** A card on file as a charge needs it: which card, and the processor's token for it. */
export type CardOnFile = Pick<repository.PaymentMethodRow, 'id' | 'brand' | 'last4' | 'processor_token'>;

/**
 * The card a payment is taken from: the one named (400 when it is not this customer's), or
 * the customer's default card when none is named (undefined when there is none).
 */
export async function cardToCharge(
  deps: Deps,
  tenant: Tenant,
  card: { customerId: string; paymentMethodId?: string },
): Promise<CardOnFile | undefined> {
  if (card.paymentMethodId === undefined) {
    return repository.findDefaultPaymentMethod(deps.db, tenant, card.customerId);
  }
  return found(
    await repository.findPaymentMethod(deps.db, tenant, card.customerId, card.paymentMethodId),
    'payment method',
    card.paymentMethodId,
    'payment_method_id',
  );
}

/** Money an invoice is to take. */
export interface PaymentAttempt {
  invoiceId: string;
  customerId: string;
  amount: number;
  currency: string;
  now: Date;
}

/** The payments and refunds of these invoices, oldest first, as the invoices show them. */
export async function invoicePayments(
  deps: Deps,
  tenant: Tenant,
  invoiceIds: string[],
): Promise<{ payments: PaymentView[]; refunds: RefundView[] }> {
  const [payments, refunds] = await Promise.all([
    repository.listPayments(deps.db, tenant, invoiceIds),
    repository.listRefunds(deps.db, tenant, invoiceIds),
  ]);
  return { payments: payments.map(paymentView), refunds: refunds.map(refundView) };
}

/**
 * Charges a card and records the attempt, succeeded or failed, in the caller's transaction,
 * with its payment.succeeded or payment.failed event. Never throws for a decline.
 */
export async function chargeCard(
  deps: Deps,
  tenant: Tenant,
  charge: PaymentAttempt & { card: CardOnFile },
): Promise<PaymentView> {
  return record(deps, tenant, await chargeToRecord(deps, tenant, charge), charge.now);
}

/**
 * A charge made and not yet stored: the caller runs `insert` in its own statement and publishes
 * `event` with it, in its transaction (an invoice charged as it is created stores itself, its
 * payment and all their events in one statement). Never throws for a decline.
 */
export interface ChargeToRecord {
  payment: PaymentView;
  insert: StatementPart;
  event: { type: 'payment.succeeded' | 'payment.failed'; object: PaymentView };
}

/** Charges the card; the attempt, succeeded or failed, is the caller's to store (ChargeToRecord). */
export async function chargeToRecord(
  deps: Deps,
  tenant: Tenant,
  charge: PaymentAttempt & { card: CardOnFile },
): Promise<ChargeToRecord> {
  const { card } = charge;
  const result = await requireProcessor(deps, tenant).charge({
    token: card.processor_token,
    amount: charge.amount,
    currency: charge.currency,
  });
  return paymentToRecord(tenant, charge, {
    method: 'card',
    payment_method_id: card.id,
    brand: card.brand,
    last4: card.last4,
    status: result.ok ? 'succeeded' : 'failed',
    failure_code: result.ok ? null : result.code,
    failure_message: result.ok ? null : result.message,
    processor_reference: result.reference,
  });
}

/** Cash or a check handed to the business: nothing to charge, only the record. */
export function recordOfflinePayment(
  deps: Deps,
  tenant: Tenant,
  payment: PaymentAttempt & { method: 'cash' | 'check' },
): Promise<PaymentView> {
  const offline = paymentToRecord(tenant, payment, {
    method: payment.method,
    payment_method_id: null,
    brand: null,
    last4: null,
    status: 'succeeded',
    failure_code: null,
    failure_message: null,
    processor_reference: null,
  });
  return record(deps, tenant, offline, payment.now);
}

/** Stores a payment and publishes what became of it, in one round trip. */
async function record(deps: Deps, tenant: Tenant, payment: ChargeToRecord, now: Date): Promise<PaymentView> {
  await deps.events.publish(deps.db, tenant, payment.event.type, payment.payment, now, { with: [payment.insert] });
  return payment.payment;
}

function paymentToRecord(
  tenant: Tenant,
  attempt: PaymentAttempt,
  how: Omit<repository.PaymentRow, 'id' | 'invoice_id' | 'customer_id' | 'amount' | 'amount_refunded' | 'created_at'>,
): ChargeToRecord {
  const row: repository.PaymentRow = {
    id: newId('payment'),
    invoice_id: attempt.invoiceId,
    customer_id: attempt.customerId,
    amount: attempt.amount,
    ...how,
    amount_refunded: 0,
    created_at: attempt.now.toISOString(),
  };
  const payment = paymentView(row);
  return {
    payment,
    insert: { name: 'payment', statement: repository.paymentInsert(tenant, row) },
    event: { type: row.status === 'succeeded' ? 'payment.succeeded' : 'payment.failed', object: payment },
  };
}

/**
 * Records a refund in the caller's transaction (which holds the invoice's lock). To the
 * original payment method, the amount is taken from the newest payments first and card parts
 * go back through the processor; to account credit nothing leaves the business.
 */
export async function refundInvoicePayments(
  deps: Deps,
  tenant: Tenant,
  input: {
    invoiceId: string;
    customerId: string;
    amount: number;
    reason: string | null;
    refundTo: repository.RefundRow['refund_to'];
    now: Date;
  },
): Promise<RefundView> {
  if (input.refundTo === 'original_payment_method') {
    const payments = (await repository.listPayments(deps.db, tenant, [input.invoiceId]))
      .filter((payment) => payment.status === 'succeeded' && payment.amount > payment.amount_refunded)
      .reverse();
    let left = input.amount;
    for (const payment of payments) {
      if (left === 0) break;
      const part = Math.min(left, payment.amount - payment.amount_refunded);
      if (payment.method === 'card' && payment.processor_reference) {
        await requireProcessor(deps, tenant).refund({ chargeReference: payment.processor_reference, amount: part });
      }
      await repository.addPaymentRefunded(deps.db, tenant, payment.id, part);
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
  await repository.insertRefund(deps.db, tenant, row);
  const view = refundView(row);
  await deps.events.publish(deps.db, tenant, 'payment.refunded', view, input.now);
  return view;
}
