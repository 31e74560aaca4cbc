import { periodEnd, periodStart } from '../../core/dates.ts';
import { isoTimestamp, type Sql, transaction } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import type { Mailer } from '../../core/email.ts';
import { AppError, invalidParameter, notFound } from '../../core/errors.ts';
import { newId, randomBase62 } from '../../core/ids.ts';
import { pageRequest, pagination, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { adjustCustomerBalances } from '../customers/index.ts';
import {
  chargeCard,
  listPayments,
  listRefunds,
  type PaymentMethodRow,
  type PaymentRow,
  paymentMethodForCharge,
  paymentSummary,
  paymentView,
  processorFor,
  type RefundRow,
  refundView,
  requireProcessor,
} from '../payments/index.ts';
import * as repository from './invoices.repository.ts';
import type { CustomerInvoiceListQuery, InvoiceListQuery, InvoiceView } from './invoices.schemas.ts';
import type { LineItem } from './totals.ts';

export type InvoiceDeps = Deps;

const DUE_IN_DAYS = 14;

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return utcDay(date);
}

export function defaultDueDate(now: Date): string {
  return addDays(utcDay(now), DUE_IN_DAYS);
}

/** A pending invoice reads as overdue from the day after its due date, before the sweep runs. */
export function effectiveStatus(row: Pick<repository.InvoiceRow, 'status' | 'due_date'>, now: Date) {
  return row.status === 'pending' && row.due_date < utcDay(now) ? 'overdue' : row.status;
}

export function invoiceView(
  row: repository.InvoiceRow,
  payments: PaymentRow[],
  refunds: RefundRow[],
  now: Date,
): InvoiceView {
  return {
    id: row.id,
    object: 'invoice',
    number: row.number,
    status: effectiveStatus(row, now),
    customer: {
      id: row.customer_id,
      name: `${row.customer_first_name} ${row.customer_last_name}`,
      email: row.customer_email,
    },
    booking_id: row.booking_id,
    currency: row.currency,
    // jsonb keeps keys in its own order: set the API's, so that events match GET byte for byte
    line_items: row.line_items.map(({ description, quantity, unit_price, total }) => ({
      description,
      quantity,
      unit_price,
      total,
    })),
    subtotal: row.subtotal,
    discount: row.discount,
    discount_description: row.discount_description,
    tax_rate: row.tax_rate,
    tax: row.tax,
    total: row.total,
    amount_paid: row.amount_paid,
    amount_refunded: row.amount_refunded,
    balance: row.total - row.amount_paid,
    due_date: row.due_date,
    issued_at: isoTimestamp(row.issued_at),
    paid_at: isoTimestamp(row.paid_at),
    voided_at: isoTimestamp(row.voided_at),
    void_reason: row.void_reason,
    payment_method: row.payment_method && {
      type: row.payment_method.type,
      brand: row.payment_method.brand,
      last4: row.payment_method.last4,
    },
    last_payment_error: row.last_payment_error && {
      code: row.last_payment_error.code,
      message: row.last_payment_error.message,
      at: row.last_payment_error.at,
    },
    payments: payments.filter((payment) => payment.invoice_id === row.id).map(paymentView),
    refunds: refunds.filter((refund) => refund.invoice_id === row.id).map(refundView),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export async function requireInvoice(db: Sql, tenant: Tenant, id: string, options: { forUpdate?: boolean } = {}) {
  const row = await repository.findInvoice(db, tenant, id, options);
  if (!row) throw notFound('invoice', id);
  return row;
}

/** The invoice as the API returns it (inside a transaction: as that transaction sees it). */
export async function loadInvoiceView(db: Sql, tenant: Tenant, id: string, now: Date): Promise<InvoiceView> {
  const row = await requireInvoice(db, tenant, id);
  const [payments, refunds] = await Promise.all([listPayments(db, tenant, [id]), listRefunds(db, tenant, [id])]);
  return invoiceView(row, payments, refunds, now);
}

export function getInvoice(deps: Pick<InvoiceDeps, 'db' | 'clock'>, tenant: Tenant, id: string) {
  return loadInvoiceView(deps.db, tenant, id, deps.clock.now());
}

/** What an invoice bills; totals are given, so a booking's invoice equals its pricing exactly. */
export interface InvoiceSpec {
  customerId: string;
  bookingId: string | null;
  lineItems: LineItem[];
  subtotal: number;
  discount: number;
  discountDescription: string | null;
  taxRate: number;
  tax: number;
  total: number;
  dueDate: string;
  draft: boolean;
  sendEmail: boolean;
  /** required: the default card must be charged (400 without one); if_card_on_file: when there is one. */
  charge: 'none' | 'required' | 'if_card_on_file';
}

export interface IssuedInvoice {
  invoice: InvoiceView;
  /** Set when the charge was attempted and failed; the invoice stays pending with the failure. */
  declined: { code: string; message: string } | null;
}

/** Creates an invoice in the caller's transaction, numbers it unless draft, and charges it if asked. */
export async function issueInvoice(
  tx: Sql,
  deps: InvoiceDeps,
  tenant: Tenant,
  spec: InvoiceSpec,
): Promise<IssuedInvoice> {
  const now = deps.clock.now();
  const charging = spec.charge !== 'none' && !spec.draft && spec.total > 0;
  // Locked first when money may move: the charge updates the customer's stats (lock order).
  const party = await repository.findInvoiceParty(tx, tenant, spec.customerId, { lock: charging });
  if (!party) throw notFound('customer', spec.customerId, 'customer_id');
  let card: PaymentMethodRow | undefined;
  if (charging) {
    if (spec.charge === 'required') requireProcessor(deps.payments, tenant);
    // Without a processor (live, unconfigured) a booking's invoice is simply left to be paid.
    if (processorFor(deps.payments, tenant.environment)) {
      card = await paymentMethodForCharge(tx, tenant, spec.customerId, undefined);
    }
    if (!card && spec.charge === 'required') {
      throw invalidParameter('auto_charge', 'The customer has no default card to charge; add one first.');
    }
  }

  const issued = !spec.draft;
  const zeroTotal = issued && spec.total === 0;
  // Inserted as a draft and issued by the last statement: the numbering lock is then held
  // only from there to the commit, so concurrent issuers queue as briefly as possible.
  const row: repository.InvoiceRow = {
    id: newId('invoice'),
    number: null,
    status: 'draft',
    customer_id: spec.customerId,
    customer_first_name: party.first_name,
    customer_last_name: party.last_name,
    customer_email: party.email,
    booking_id: spec.bookingId,
    currency: party.currency,
    line_items: spec.lineItems,
    subtotal: spec.subtotal,
    discount: spec.discount,
    discount_description: spec.discountDescription,
    tax_rate: spec.taxRate,
    tax: spec.tax,
    total: spec.total,
    amount_paid: 0,
    amount_refunded: 0,
    due_date: spec.dueDate,
    send_email: spec.sendEmail,
    issued_at: null,
    paid_at: null,
    voided_at: null,
    void_reason: null,
    payment_method: null,
    last_payment_error: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await repository.insertInvoice(tx, tenant, { ...row, issued_at: null, paid_at: null, now });
  if (!issued) {
    const draft = invoiceView(row, [], [], now);
    await deps.events.publish(tx, tenant, 'invoice.created', draft, now);
    return { invoice: draft, declined: null };
  }

  let declined: IssuedInvoice['declined'] = null;
  let payment: PaymentRow | undefined;
  // An issued invoice always has a number; until the numbering statement, run last, takes the
  // real one, the invoice and its events carry a unique placeholder it replaces.
  const placeholder = numberPlaceholder();
  const issuing: repository.InvoiceChanges = {
    number: placeholder,
    status: zeroTotal ? 'paid' : 'pending',
    issued_at: now,
    paid_at: zeroTotal ? now : undefined,
  };
  if (card) {
    payment = await chargeCard(deps, tx, tenant, card, {
      invoiceId: row.id,
      customerId: row.customer_id,
      amount: row.total,
      currency: row.currency,
      now,
    });
    if (payment.status === 'succeeded') {
      Object.assign(issuing, {
        status: 'paid',
        amount_paid: row.total,
        paid_at: now,
        payment_method: paymentSummary(payment),
      });
      await adjustCustomerBalances({ ...deps, db: tx }, tenant, row.customer_id, { spent: row.total });
    } else {
      declined = { code: payment.failure_code ?? 'card_declined', message: payment.failure_message ?? '' };
      issuing.last_payment_error = { ...declined, at: now.toISOString() };
    }
  }
  await repository.updateInvoice(tx, tenant, row.id, issuing, now);

  // invoice.created shows the invoice as issued, before any charge; then what the charge did.
  Object.assign(row, {
    number: placeholder,
    status: zeroTotal ? 'paid' : 'pending',
    issued_at: now.toISOString(),
    paid_at: zeroTotal ? now.toISOString() : null,
  });
  const eventIds = [(await deps.events.publish(tx, tenant, 'invoice.created', invoiceView(row, [], [], now), now)).id];
  const payments = payment ? [payment] : [];
  if (payment?.status === 'succeeded') {
    Object.assign(row, {
      status: 'paid',
      amount_paid: row.total,
      paid_at: now.toISOString(),
      payment_method: paymentSummary(payment),
    });
  }
  row.last_payment_error = issuing.last_payment_error ?? null;
  const invoice = invoiceView(row, payments, [], now);
  if (invoice.status === 'paid')
    eventIds.push((await deps.events.publish(tx, tenant, 'invoice.paid', invoice, now)).id);
  invoice.number = await repository.assignInvoiceNumber(tx, tenant, { invoiceId: row.id, placeholder, eventIds });
  if (spec.sendEmail) await queueInvoiceEmail(tx, deps.mailer, tenant, invoice, party.business_name);
  return { invoice, declined };
}

/** Stands in for an invoice's number until it is taken; unguessable, so no text can contain it. */
function numberPlaceholder(): string {
  return `number-pending-${randomBase62(24)}`;
}

async function queueInvoiceEmail(
  tx: Sql,
  mailer: Mailer,
  tenant: Tenant,
  invoice: InvoiceView,
  business: string,
): Promise<void> {
  const money = (cents: number) => `${(cents / 100).toFixed(2)} ${invoice.currency.toUpperCase()}`;
  const lines = invoice.line_items.map(
    (item) => `  ${item.description} x ${item.quantity} @ ${money(item.unit_price)} = ${money(item.total)}`,
  );
  const owed =
    invoice.balance > 0 ? `Amount due: ${money(invoice.balance)} by ${invoice.due_date}.` : 'Paid in full. Thank you!';
  await mailer.queue(tx, tenant, {
    kind: 'invoice',
    to: invoice.customer.email,
    subject: `Invoice ${invoice.number} from ${business}`,
    text:
      `Hello ${invoice.customer.name},\n\nHere is invoice ${invoice.number} from ${business}.\n\n` +
      `${lines.join('\n')}\n\nSubtotal: ${money(invoice.subtotal)}\n` +
      (invoice.discount > 0 ? `Discount: -${money(invoice.discount)}\n` : '') +
      `Tax: ${money(invoice.tax)}\nTotal: ${money(invoice.total)}\n\n${owed}\n`,
  });
}

export async function finalizeInvoice(
  deps: InvoiceDeps,
  tenant: Tenant,
  id: string,
  input: { send_email?: boolean },
): Promise<InvoiceView> {
  const now = deps.clock.now();
  const invoice = await transaction(deps.db, async (tx) => {
    const row = await requireInvoice(tx, tenant, id, { forUpdate: true });
    if (row.status !== 'draft') {
      throw new AppError('invalid_state_transition', `Only a draft can be finalized; this invoice is ${row.status}.`);
    }
    const zeroTotal = row.total === 0;
    const placeholder = numberPlaceholder();
    await repository.updateInvoice(
      tx,
      tenant,
      id,
      {
        number: placeholder,
        status: zeroTotal ? 'paid' : 'pending',
        issued_at: now,
        paid_at: zeroTotal ? now : undefined,
      },
      now,
    );
    const view = await loadInvoiceView(tx, tenant, id, now);
    const eventIds: string[] = [];
    for (const type of zeroTotal
      ? (['invoice.finalized', 'invoice.paid'] as const)
      : (['invoice.finalized'] as const)) {
      eventIds.push((await deps.events.publish(tx, tenant, type, view, now)).id);
    }
    view.number = await repository.assignInvoiceNumber(tx, tenant, { invoiceId: id, placeholder, eventIds });
    if (input.send_email ?? row.send_email) {
      const party = await repository.findInvoiceParty(tx, tenant, row.customer_id);
      await queueInvoiceEmail(tx, deps.mailer, tenant, view, party?.business_name ?? 'Fieldhand');
    }
    return view;
  });
  deps.mailer.wake();
  return invoice;
}

export async function voidInvoice(
  deps: InvoiceDeps,
  tenant: Tenant,
  id: string,
  input: { reason?: string },
): Promise<InvoiceView> {
  const now = deps.clock.now();
  return transaction(deps.db, async (tx) => {
    const row = await requireInvoice(tx, tenant, id, { forUpdate: true });
    if (row.status === 'void') throw new AppError('invalid_state_transition', 'This invoice is already void.');
    if (row.status === 'paid' || row.amount_paid > 0) {
      throw new AppError(
        'invoice_already_paid',
        'Money was collected on this invoice, so it cannot be voided; refund it instead.',
      );
    }
    // Charges capture at once, so there is no authorisation to release.
    await repository.updateInvoice(
      tx,
      tenant,
      id,
      { status: 'void', voided_at: now, void_reason: input.reason ?? null },
      now,
    );
    const view = await loadInvoiceView(tx, tenant, id, now);
    await deps.events.publish(tx, tenant, 'invoice.voided', view, now);
    return view;
  });
}

export async function listInvoices(
  deps: Pick<InvoiceDeps, 'db' | 'clock'>,
  tenant: Tenant,
  query: InvoiceListQuery | (CustomerInvoiceListQuery & { customer_id?: string }),
) {
  const now = deps.clock.now();
  const page = pageRequest(query);
  const { rows, total } = await repository.listInvoices(
    deps.db,
    tenant,
    {
      status: query.status,
      customerId: query.customer_id,
      issuedFrom: periodStart(query.date_from),
      issuedBefore: periodEnd(query.date_to),
      minTotal: query.min_amount,
      maxTotal: query.max_amount,
      ids: parseIds(query.ids, 'inv'),
    },
    page,
    utcDay(now),
  );
  const ids = rows.map((row) => row.id);
  const [payments, refunds] = await Promise.all([
    listPayments(deps.db, tenant, ids),
    listRefunds(deps.db, tenant, ids),
  ]);
  return { data: rows.map((row) => invoiceView(row, payments, refunds, now)), pagination: pagination(page, total) };
}

export async function listCustomerInvoices(
  deps: Pick<InvoiceDeps, 'db' | 'clock'>,
  tenant: Tenant,
  customerId: string,
  query: CustomerInvoiceListQuery,
) {
  if (!(await repository.findInvoiceParty(deps.db, tenant, customerId))) throw notFound('customer', customerId);
  return listInvoices(deps, tenant, { ...query, customer_id: customerId });
}

/**
 * One pass of the overdue sweep: persists `overdue` for pending invoices past due and
 * publishes invoice.overdue once per invoice. Returns how many it marked. `accountId` limits
 * the sweep to one account.
 */
export async function markOverdueInvoices(
  deps: InvoiceDeps,
  options: { limit?: number; accountId?: string } = {},
): Promise<number> {
  const now = deps.clock.now();
  return transaction(deps.db, async (tx) => {
    const marked = await repository.markOverdue(tx, utcDay(now), now, options.limit ?? 100, options.accountId);
    for (const invoice of marked) {
      const tenant: Tenant = { accountId: invoice.account_id, environment: invoice.environment };
      await deps.events.publish(tx, tenant, 'invoice.overdue', await loadInvoiceView(tx, tenant, invoice.id, now), now);
    }
    return marked.length;
  });
}

/** A booking's invoice references, as GET /v1/bookings/:id shows them. */
export async function bookingInvoices(db: Sql, tenant: Tenant, bookingId: string, now: Date) {
  const rows = await repository.listBookingInvoices(db, tenant, bookingId);
  return rows.map((row) => ({ id: row.id, number: row.number, status: effectiveStatus(row, now), total: row.total }));
}
