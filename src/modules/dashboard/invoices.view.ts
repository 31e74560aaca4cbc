// Invoices: the list filtered by status and issue date, and an invoice with its line items,
// payments and refunds.
import type { Page } from '../../core/paging.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { money, pager, tableOrEmpty, when } from '../../web/widgets.ts';
import type { InvoiceView } from '../invoices/index.ts';
import type { PaymentView, RefundView } from '../payments/index.ts';
import { pageHeader } from './shell.ts';

export const INVOICES = '/dashboard/invoices';
export const INVOICE_STATUSES = ['draft', 'pending', 'paid', 'overdue', 'void'] as const;

export interface InvoiceFilters {
  status?: (typeof INVOICE_STATUSES)[number];
  from: string;
  to: string;
  page: number;
}

function statusBadge(status: string): SafeHtml {
  const tone: Record<string, string> = { paid: 'ok', pending: 'warn', overdue: 'bad', draft: 'muted', void: 'muted' };
  return html`<span class="badge ${tone[status] ?? 'muted'}">${status}</span>`;
}

function paymentMethodLabel(method: { type: string; brand: string | null; last4: string | null } | null): string {
  if (!method) return '—';
  if (method.type === 'card') return `${method.brand ?? 'Card'} •••• ${method.last4 ?? ''}`.trim();
  return method.type === 'cash' ? 'Cash' : 'Check';
}

function listLink(filters: InvoiceFilters, page: number): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  params.set('page', String(page));
  return `${INVOICES}?${params}`;
}

export function invoiceListView(list: Page<InvoiceView>, filters: InvoiceFilters, environment: string): SafeHtml {
  const { status, from, to } = filters;
  const rows = list.data.map(
    (invoice) => html`<tr>
  <td><a href="${INVOICES}/${invoice.id}"><strong>${invoice.number ?? 'Draft'}</strong></a></td>
  <td>${invoice.customer.name}<div class="hint hide-narrow">${invoice.customer.email}</div></td>
  <td>${statusBadge(invoice.status)}</td>
  <td class="num">${money(invoice.total, invoice.currency)}</td>
  <td class="num hide-narrow">${money(invoice.balance, invoice.currency)}</td>
  <td class="hide-narrow">${when(invoice.issued_at, 'Not issued')}</td>
  <td class="hide-narrow">${invoice.due_date}</td>
</tr>`,
  );
  const { total, total_pages: totalPages } = list.pagination;
  const filtered = Boolean(status || from || to);
  return html`${pageHeader({ title: 'Invoices', description: `What you billed and what was paid (${environment} data).` })}
<form class="toolbar" method="get" action="${INVOICES}" aria-label="Filter invoices">
  <div class="field"><label for="status">Status</label>
    <select id="status" name="status">
      <option value="">Any status</option>
      ${INVOICE_STATUSES.map((value) => html`<option value="${value}" ${value === status ? html`selected` : null}>${value}</option>`)}
    </select></div>
  <div class="field"><label for="from">Issued from</label><input id="from" name="from" type="date" value="${from}"></div>
  <div class="field"><label for="to">Issued to</label><input id="to" name="to" type="date" value="${to}"></div>
  <button type="submit" class="secondary">Filter</button>
  ${filtered ? html`<a class="button link" href="${INVOICES}">Clear</a>` : null}
</form>
${tableOrEmpty(
  list.data.length,
  {
    title: 'No invoices found',
    hint: filtered
      ? 'Try other filters.'
      : 'Invoices you create through the API, or that bookings create, appear here.',
  },
  () => html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Invoices</caption>
  <thead><tr><th scope="col">Number</th><th scope="col">Customer</th><th scope="col">Status</th>
  <th scope="col" class="num">Total</th><th scope="col" class="num hide-narrow">Balance</th>
  <th scope="col" class="hide-narrow">Issued</th><th scope="col" class="hide-narrow">Due</th></tr></thead>
  <tbody>${rows}</tbody></table></div>
${pager({ noun: 'invoice', total, page: filters.page, totalPages, link: (page) => listLink(filters, page) })}`,
)}`;
}

export function invoiceTitle(invoice: InvoiceView): string {
  return invoice.number ? `Invoice ${invoice.number}` : 'Draft invoice';
}

export function invoiceView(invoice: InvoiceView): SafeHtml {
  const title = invoiceTitle(invoice);
  return html`${pageHeader({
    title,
    breadcrumbs: [{ href: INVOICES, label: 'Invoices' }],
    description: `${invoice.customer.name} · ${money(invoice.total, invoice.currency)}`,
  })}
<div class="stats">
  <div class="stat"><div class="label">Status</div><div class="value">${statusBadge(invoice.status)}</div></div>
  <div class="stat"><div class="label">Total</div><div class="value">${money(invoice.total, invoice.currency)}</div></div>
  <div class="stat"><div class="label">Paid</div><div class="value">${money(invoice.amount_paid, invoice.currency)}</div></div>
  <div class="stat"><div class="label">Balance</div><div class="value">${money(invoice.balance, invoice.currency)}</div></div>
</div>
${invoiceBody(invoice)}`;
}

function invoiceBody(invoice: InvoiceView): SafeHtml {
  const currency = invoice.currency;
  const lines = invoice.line_items.map(
    (line) => html`<tr><td>${line.description}</td><td class="num">${line.quantity}</td>
      <td class="num">${money(line.unit_price, currency)}</td><td class="num">${money(line.total, currency)}</td></tr>`,
  );
  const totalRow = (label: string, cents: number, strong = false) =>
    html`<tr class="${strong ? 'total' : ''}"><th scope="row" colspan="3" class="num">${label}</th><td class="num">${money(cents, currency)}</td></tr>`;
  // The schema types these by $ref; they are the payments module's views.
  const payments = invoice.payments as PaymentView[];
  const refunds = invoice.refunds as RefundView[];
  return html`<div class="grid-2">
  <section class="panel" aria-labelledby="invoice-details-title">
    <h2 id="invoice-details-title">Details</h2>
    <dl class="details">
      <dt>Customer</dt><dd><a href="/dashboard/customers/${invoice.customer.id}">${invoice.customer.name}</a><br><span class="hint">${invoice.customer.email}</span></dd>
      <dt>Number</dt><dd>${invoice.number ?? 'Given when issued'}</dd>
      <dt>Issued</dt><dd>${when(invoice.issued_at, 'Not issued')}</dd>
      <dt>Due</dt><dd>${invoice.due_date}</dd>
      ${invoice.paid_at ? html`<dt>Paid</dt><dd>${when(invoice.paid_at)}</dd>` : null}
      ${invoice.voided_at ? html`<dt>Voided</dt><dd>${when(invoice.voided_at)}${invoice.void_reason ? html`<br><span class="hint">${invoice.void_reason}</span>` : null}</dd>` : null}
      <dt>Paid with</dt><dd>${paymentMethodLabel(invoice.payment_method)}</dd>
      ${invoice.booking_id ? html`<dt>Booking</dt><dd class="mono">${invoice.booking_id}</dd>` : null}
      <dt>ID</dt><dd class="mono">${invoice.id}</dd>
    </dl>
    ${
      invoice.last_payment_error
        ? html`<div class="alert error">Last payment failed (${invoice.last_payment_error.code}): ${invoice.last_payment_error.message}
        <span class="hint">${when(invoice.last_payment_error.at)}</span></div>`
        : null
    }
  </section>
  <section aria-labelledby="lines-title">
    <h2 id="lines-title">Line items</h2>
    <div class="table-wrap"><table>
      <thead><tr><th scope="col">Description</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
      <tbody>${lines}</tbody>
      <tfoot>
        ${totalRow('Subtotal', invoice.subtotal)}
        ${invoice.discount ? totalRow(`Discount${invoice.discount_description ? ` (${invoice.discount_description})` : ''}`, -invoice.discount) : null}
        ${invoice.tax ? totalRow(`Tax (${invoice.tax_rate} %)`, invoice.tax) : null}
        ${totalRow('Total', invoice.total, true)}
        ${invoice.amount_refunded ? totalRow('Refunded', invoice.amount_refunded) : null}
      </tfoot>
    </table></div>
  </section>
</div>
<section aria-labelledby="payments-title">
  <h2 id="payments-title">Payments</h2>
  ${
    payments.length
      ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">When</th><th scope="col">Method</th><th scope="col">Status</th><th scope="col" class="num">Amount</th><th scope="col" class="num hide-narrow">Refunded</th></tr></thead>
    <tbody>${payments.map(
      (payment) => html`<tr><td>${when(payment.created_at)}</td><td>${paymentMethodLabel(payment.payment_method)}</td>
      <td>${payment.status === 'succeeded' ? html`<span class="badge ok">succeeded</span>` : html`<span class="badge bad">failed</span>${payment.failure ? html`<div class="hint">${payment.failure.message}</div>` : null}`}</td>
      <td class="num">${money(payment.amount, currency)}</td><td class="num hide-narrow">${money(payment.amount_refunded, currency)}</td></tr>`,
    )}</tbody></table></div>`
      : html`<p class="hint">No payments yet.</p>`
  }
</section>
<section aria-labelledby="refunds-title">
  <h2 id="refunds-title">Refunds</h2>
  ${
    refunds.length
      ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">When</th><th scope="col">To</th><th scope="col">Reason</th><th scope="col">Status</th><th scope="col" class="num">Amount</th></tr></thead>
    <tbody>${refunds.map(
      (refund) => html`<tr><td>${when(refund.created_at)}</td>
      <td>${refund.refund_to === 'account_credit' ? 'Account credit' : 'Original payment method'}</td>
      <td>${refund.reason ?? '—'}</td><td><span class="badge muted">${refund.status}</span></td>
      <td class="num">${money(refund.amount, currency)}</td></tr>`,
    )}</tbody></table></div>`
      : html`<p class="hint">No refunds.</p>`
  }
</section>`;
}
