// An invoice as the API (and its events) show it.
import { utcDay } from '../../core/dates.ts';
import { isoTimestamp } from '../../core/db.ts';
import { metadataView } from '../../core/metadata.ts';
import type { PaymentView, RefundView } from '../payments/index.ts';
import type { InvoiceRow } from './invoices.repository.ts';
import type { InvoiceView } from './invoices.schemas.ts';

/** A pending invoice reads as overdue from the day after its due date, before the sweep runs. */
export function effectiveStatus(row: Pick<InvoiceRow, 'status' | 'due_date'>, now: Date) {
  return row.status === 'pending' && row.due_date < utcDay(now) ? 'overdue' : row.status;
}

/** `payments` and `refunds` may include other invoices' (a list's): the invoice takes its own. */
export function invoiceView(row: InvoiceRow, payments: PaymentView[], refunds: RefundView[], now: Date): InvoiceView {
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
    payments: payments.filter((payment) => payment.invoice_id === row.id),
    refunds: refunds.filter((refund) => refund.invoice_id === row.id),
    metadata: metadataView(row.metadata),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}
