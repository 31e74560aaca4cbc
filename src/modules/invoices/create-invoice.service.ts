// The ways an invoice comes to be: POST /v1/invoices, a booking's completion and a
// cancellation fee. The last two run inside the bookings module's transaction.
import { type Sql, transaction } from '../../core/db.ts';
import { invalidParameter, notFound } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import { findBookingCustomer } from './invoices.repository.ts';
import type { InvoiceView, NewInvoiceBody } from './invoices.schemas.ts';
import { defaultDueDate, type InvoiceDeps, issueInvoice } from './invoices.service.ts';
import { invoiceTotals, type LineItemInput, taxOn, taxRateUnits } from './totals.ts';

export async function createInvoice(deps: InvoiceDeps, tenant: Tenant, input: NewInvoiceBody): Promise<InvoiceView> {
  const taxRate = input.tax_rate ?? 0;
  if (taxRateUnits(taxRate) === null) {
    throw invalidParameter('tax_rate', 'tax_rate is a percent from 0 to 100 with at most 4 decimals.');
  }
  if (input.draft && input.auto_charge) {
    throw invalidParameter('auto_charge', 'A draft cannot be charged; finalize it, then pay it.');
  }
  const discount = input.discount ?? 0;
  const subtotal = input.line_items.reduce((sum, item) => sum + item.quantity * item.unit_price, 0);
  if (discount > subtotal) throw invalidParameter('discount', 'The discount is larger than the subtotal.');
  const totals = invoiceTotals(input.line_items, { taxRate, discount });
  const now = deps.clock.now();
  // A declined auto_charge still creates the invoice: 201 with last_payment_error set.
  const { invoice } = await transaction(deps.db, async (tx) => {
    if (input.booking_id !== undefined) await checkBookingReference(tx, tenant, input.booking_id, input.customer_id);
    return issueInvoice(tx, deps, tenant, {
      customerId: input.customer_id,
      bookingId: input.booking_id ?? null,
      lineItems: totals.lineItems,
      subtotal: totals.subtotal,
      discount: totals.discount,
      discountDescription: input.discount_description ?? null,
      taxRate,
      tax: totals.tax,
      total: totals.total,
      dueDate: input.due_date ?? defaultDueDate(now),
      draft: input.draft === true,
      sendEmail: input.send_email === true,
      charge: input.auto_charge ? 'required' : 'none',
    });
  });
  if (input.send_email && !input.draft) deps.mailer.wake();
  return invoice;
}

/** booking_id names a booking of this account and environment, for the invoice's customer. */
async function checkBookingReference(tx: Sql, tenant: Tenant, bookingId: string, customerId: string) {
  const bookingCustomer = await findBookingCustomer(tx, tenant, bookingId);
  if (bookingCustomer === null) throw notFound('booking', bookingId, 'booking_id');
  if (bookingCustomer !== customerId) {
    throw invalidParameter('booking_id', 'The booking belongs to another customer than customer_id.');
  }
}

export interface BookingInvoiceInput {
  bookingId: string;
  customerId: string;
  /** From the booking's pricing; the figures below are taken as given, not recomputed. */
  lineItems: LineItemInput[];
  subtotal: number;
  discount: number;
  discountDescription?: string | null;
  /** Percent; with `tax` omitted the tax is computed from it. */
  taxRate: number;
  tax?: number;
  total: number;
  dueDate?: string;
  sendEmail?: boolean;
}

/**
 * Issues a completed booking's invoice in the caller's (the booking's) transaction and charges
 * the customer's default card when there is one. A decline leaves the invoice pending with
 * last_payment_error; it does not throw, so the booking still completes. Call
 * `deps.mailer.wake()` after the commit when sendEmail is true.
 */
export async function createBookingInvoice(tx: Sql, deps: InvoiceDeps, tenant: Tenant, input: BookingInvoiceInput) {
  const now = deps.clock.now();
  const lineItems = input.lineItems.map((item) => ({ ...item, total: item.quantity * item.unit_price }));
  return issueInvoice(tx, deps, tenant, {
    customerId: input.customerId,
    bookingId: input.bookingId,
    lineItems,
    subtotal: input.subtotal,
    discount: input.discount,
    discountDescription: input.discountDescription ?? null,
    taxRate: input.taxRate,
    tax: input.tax ?? taxOn(input.subtotal - input.discount, input.taxRate),
    total: input.total,
    dueDate: input.dueDate ?? defaultDueDate(now),
    draft: false,
    sendEmail: input.sendEmail ?? false,
    charge: 'if_card_on_file',
  });
}

/** A pending invoice for a cancellation fee, in the caller's (the cancellation's) transaction. */
export async function createCancellationFeeInvoice(
  tx: Sql,
  deps: InvoiceDeps,
  tenant: Tenant,
  input: { bookingId: string; customerId: string; amount: number; description: string; sendEmail?: boolean },
) {
  const now = deps.clock.now();
  return issueInvoice(tx, deps, tenant, {
    customerId: input.customerId,
    bookingId: input.bookingId,
    lineItems: [{ description: input.description, quantity: 1, unit_price: input.amount, total: input.amount }],
    subtotal: input.amount,
    discount: 0,
    discountDescription: null,
    taxRate: 0,
    tax: 0,
    total: input.amount,
    dueDate: defaultDueDate(now),
    draft: false,
    sendEmail: input.sendEmail ?? false,
    charge: 'none',
  });
}
