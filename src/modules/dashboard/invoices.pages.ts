// Invoices: a list filtered by status and issue date, and each invoice with its line items,
// payments and refunds, read through the invoices module's own service functions (the same
// the API answers with, so statuses such as overdue read the same everywhere).
import type { FastifyInstance } from 'fastify';
import { isCalendarDate } from '../../core/dates.ts';
import type { Deps } from '../../core/deps.ts';
import { getInvoice, type InvoiceView, listInvoices } from '../invoices/index.ts';
import type { PaymentView, RefundView } from '../payments/index.ts';
import { html, requireSession, type SafeHtml, sessionTenant } from '../sessions/index.ts';
import { money, pageHeader, pager, queryValue, sendShell, when } from './dashboard.layout.ts';
import { orNotFound } from './forms.ts';

const BASE = '/dashboard/invoices';
const PER_PAGE = 25;
const STATUSES = ['draft', 'pending', 'paid', 'overdue', 'void'] as const;

function statusBadge(status: string): SafeHtml {
  const tone: Record<string, string> = { paid: 'ok', pending: 'warn', overdue: 'bad', draft: 'muted', void: 'muted' };
  return html`<span class="badge ${tone[status] ?? 'muted'}">${status}</span>`;
}

/** A YYYY-MM-DD query value that is a real date, or ''. */
function dateParam(value: string): string {
  return isCalendarDate(value) ? value : '';
}

function paymentMethodLabel(method: { type: string; brand: string | null; last4: string | null } | null): string {
  if (!method) return '—';
  if (method.type === 'card') return `${method.brand ?? 'Card'} •••• ${method.last4 ?? ''}`.trim();
  return method.type === 'cash' ? 'Cash' : 'Check';
}

export function invoicePages(app: FastifyInstance, deps: Deps): void {
  app.get(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const statusParam = queryValue(request, 'status');
    const status = STATUSES.find((candidate) => candidate === statusParam);
    const from = dateParam(queryValue(request, 'from'));
    const to = dateParam(queryValue(request, 'to'));
    const page = Math.max(1, Math.min(10_000, Number.parseInt(queryValue(request, 'page'), 10) || 1));
    const list = await listInvoices(deps, sessionTenant(session), {
      page,
      per_page: PER_PAGE,
      status,
      ...(from ? { date_from: from } : {}),
      ...(to ? { date_to: to } : {}),
    });
    const link = (toPage: number) => {
      const params = new URLSearchParams();
      if (status) params.set('status', status);
      if (from) params.set('from', from);
      if (to) params.set('to', to);
      params.set('page', String(toPage));
      return `${BASE}?${params}`;
    };
    const rows = list.data.map(
      (invoice) => html`<tr>
  <td><a href="${BASE}/${invoice.id}"><strong>${invoice.number ?? 'Draft'}</strong></a></td>
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
    return sendShell(request, reply, session, {
      title: 'Invoices',
      content: html`${pageHeader({ title: 'Invoices', description: `What you billed and what was paid (${session.environment} data).` })}
<form class="toolbar" method="get" action="${BASE}" aria-label="Filter invoices">
  <div class="field"><label for="status">Status</label>
    <select id="status" name="status">
      <option value="">Any status</option>
      ${STATUSES.map((value) => html`<option value="${value}" ${value === status ? html`selected` : null}>${value}</option>`)}
    </select></div>
  <div class="field"><label for="from">Issued from</label><input id="from" name="from" type="date" value="${from}"></div>
  <div class="field"><label for="to">Issued to</label><input id="to" name="to" type="date" value="${to}"></div>
  <button type="submit" class="secondary">Filter</button>
  ${filtered ? html`<a class="button link" href="${BASE}">Clear</a>` : null}
</form>
${
  list.data.length === 0
    ? html`<div class="table-wrap"><div class="empty"><strong>No invoices found</strong>${
        filtered ? 'Try other filters.' : 'Invoices you create through the API, or that bookings create, appear here.'
      }</div></div>`
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Invoices</caption>
  <thead><tr><th scope="col">Number</th><th scope="col">Customer</th><th scope="col">Status</th>
  <th scope="col" class="num">Total</th><th scope="col" class="num hide-narrow">Balance</th>
  <th scope="col" class="hide-narrow">Issued</th><th scope="col" class="hide-narrow">Due</th></tr></thead>
  <tbody>${rows}</tbody></table></div>
${pager({ noun: 'invoice', total, page, totalPages, link })}`
}`,
    });
  });

  app.get<{ Params: { id: string } }>(`${BASE}/:id`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const found = await orNotFound(request, reply, session, 'There is no such invoice.', () =>
      getInvoice(deps, sessionTenant(session), request.params.id),
    );
    if (!found.found) return found.reply;
    const invoice = found.value;
    const title = invoice.number ? `Invoice ${invoice.number}` : 'Draft invoice';
    return sendShell(request, reply, session, {
      title,
      content: html`${pageHeader({
        title,
        breadcrumbs: [{ href: BASE, label: 'Invoices' }],
        description: `${invoice.customer.name} · ${money(invoice.total, invoice.currency)}`,
      })}
<div class="stats">
  <div class="stat"><div class="label">Status</div><div class="value">${statusBadge(invoice.status)}</div></div>
  <div class="stat"><div class="label">Total</div><div class="value">${money(invoice.total, invoice.currency)}</div></div>
  <div class="stat"><div class="label">Paid</div><div class="value">${money(invoice.amount_paid, invoice.currency)}</div></div>
  <div class="stat"><div class="label">Balance</div><div class="value">${money(invoice.balance, invoice.currency)}</div></div>
</div>
${invoiceBody(invoice)}`,
    });
  });
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
