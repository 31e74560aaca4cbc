// Bookings: a list filtered by status, scheduled date and customer, and each booking with its
// timeline, crew, configuration, pricing, invoices and cancellation, read through the bookings
// module's own service functions (the same the API answers with).
import type { FastifyInstance } from 'fastify';
import { isCalendarDate } from '../../core/dates.ts';
import type { Deps } from '../../core/deps.ts';
import type { Tenant } from '../../core/tenant.ts';
import { type BookingDetailView, crewNames, getBooking, listBookings } from '../bookings/index.ts';
import { listProducts } from '../catalog/index.ts';
import { getCustomer } from '../customers/index.ts';
import type { PriceBreakdown } from '../pricing/index.ts';
import { html, requireSession, type SafeHtml, sessionTenant } from '../sessions/index.ts';
import { money, pageHeader, pager, queryValue, sendShell, when } from './dashboard.layout.ts';
import { orNotFound } from './forms.ts';

const BASE = '/dashboard/bookings';
const PER_PAGE = 25;
const STATUSES = ['confirmed', 'in_progress', 'completed', 'cancelled'] as const;
const SORTS = [
  { value: '-scheduled_at', label: 'Latest first' },
  { value: 'scheduled_at', label: 'Earliest first' },
] as const;

const STATUS_LABELS: Record<string, string> = {
  confirmed: 'confirmed',
  in_progress: 'in progress',
  completed: 'completed',
  cancelled: 'cancelled',
};

function statusBadge(status: string): SafeHtml {
  const tone: Record<string, string> = { confirmed: 'warn', in_progress: 'live', completed: 'ok', cancelled: 'muted' };
  return html`<span class="badge ${tone[status] ?? 'muted'}">${STATUS_LABELS[status] ?? status}</span>`;
}

/** "junk-removal" → "Junk removal": the slug is what a booking carries. */
function industryName(slug: string): string {
  const words = slug.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A YYYY-MM-DD query value that is a real date, or ''. */
function dateParam(value: string): string {
  return isCalendarDate(value) ? value : '';
}

export function bookingPages(app: FastifyInstance, deps: Deps): void {
  app.get(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const tenant = sessionTenant(session);
    const statusParam = queryValue(request, 'status');
    const status = STATUSES.find((candidate) => candidate === statusParam);
    const sortParam = queryValue(request, 'sort');
    const sort = SORTS.find((candidate) => candidate.value === sortParam)?.value ?? '-scheduled_at';
    const from = dateParam(queryValue(request, 'date_from'));
    const to = dateParam(queryValue(request, 'date_to'));
    const customerParam = queryValue(request, 'customer_id');
    const customerId = customerParam.trim().slice(0, 64);
    const page = Math.max(1, Math.min(10_000, Number.parseInt(queryValue(request, 'page'), 10) || 1));
    let customerName: string | undefined;
    if (customerId) {
      const found = await orNotFound(request, reply, session, 'There is no such customer.', () =>
        getCustomer(deps, tenant, customerId),
      );
      if (!found.found) return found.reply;
      customerName = `${found.value.first_name} ${found.value.last_name}`.trim();
    }
    const list = await listBookings(deps, tenant, {
      page,
      per_page: PER_PAGE,
      sort,
      status,
      ...(customerId ? { customer_id: customerId } : {}),
      ...(from ? { date_from: from } : {}),
      ...(to ? { date_to: to } : {}),
    });
    const crew = await crewNames(deps, tenant, list.data);
    const filters = (toPage?: number) => {
      const params = new URLSearchParams();
      if (status) params.set('status', status);
      if (from) params.set('date_from', from);
      if (to) params.set('date_to', to);
      if (customerId) params.set('customer_id', customerId);
      if (sort !== '-scheduled_at') params.set('sort', sort);
      if (toPage) params.set('page', String(toPage));
      return params;
    };
    const link = (toPage: number) => `${BASE}?${filters(toPage)}`;
    const rows = list.data.map((booking) => {
      // The schema types pricing by $ref; it is the pricing module's breakdown.
      const pricing = booking.pricing as PriceBreakdown;
      return html`<tr>
  <td><a href="${BASE}/${booking.id}"><strong>${when(booking.scheduled_at)}</strong></a>
    <div class="hint">${booking.estimated_duration} min</div></td>
  <td><a href="/dashboard/customers/${booking.customer.id}">${booking.customer.name}</a><div class="hint hide-narrow">${booking.address.street}, ${booking.address.city}</div></td>
  <td class="hide-narrow">${industryName(booking.service.industry)}</td>
  <td>${statusBadge(booking.status)}</td>
  <td class="hide-narrow">${booking.assigned_crew.map((id) => crew.get(id) ?? id).join(', ') || '—'}</td>
  <td class="num">${money(pricing.total, pricing.currency)}</td>
</tr>`;
    });
    const { total, total_pages: totalPages } = list.pagination;
    const filtered = Boolean(status || from || to || customerId);
    const title = customerName ? `Bookings of ${customerName}` : 'Bookings';
    return sendShell(request, reply, session, {
      title,
      content: html`${pageHeader({
        title,
        description: `Visits booked with you, by scheduled time (${session.environment} data).`,
        breadcrumbs: customerName
          ? [
              { href: BASE, label: 'Bookings' },
              { href: `/dashboard/customers/${customerId}`, label: customerName },
            ]
          : undefined,
      })}
<form class="toolbar" method="get" action="${BASE}" aria-label="Filter bookings">
  ${customerId ? html`<input type="hidden" name="customer_id" value="${customerId}">` : null}
  <div class="field"><label for="status">Status</label>
    <select id="status" name="status">
      <option value="">Any status</option>
      ${STATUSES.map((value) => html`<option value="${value}" ${value === status ? html`selected` : null}>${STATUS_LABELS[value]}</option>`)}
    </select></div>
  <div class="field"><label for="date_from">Scheduled from</label><input id="date_from" name="date_from" type="date" value="${from}"></div>
  <div class="field"><label for="date_to">Scheduled to</label><input id="date_to" name="date_to" type="date" value="${to}"></div>
  <div class="field"><label for="sort">Order</label>
    <select id="sort" name="sort">
      ${SORTS.map((option) => html`<option value="${option.value}" ${option.value === sort ? html`selected` : null}>${option.label}</option>`)}
    </select></div>
  <button type="submit" class="secondary">Filter</button>
  ${filtered ? html`<a class="button link" href="${BASE}">Clear</a>` : null}
</form>
<p class="hint">Dates are whole days in UTC, as in the API's <code>date_from</code> and <code>date_to</code>.</p>
${
  list.data.length === 0
    ? html`<div class="table-wrap"><div class="empty"><strong>No bookings found</strong>${
        filtered ? 'Try other filters.' : 'Bookings made through the API appear here.'
      }</div></div>`
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Bookings</caption>
  <thead><tr><th scope="col">Scheduled</th><th scope="col">Customer</th><th scope="col" class="hide-narrow">Industry</th>
  <th scope="col">Status</th><th scope="col" class="hide-narrow">Crew</th><th scope="col" class="num">Total</th></tr></thead>
  <tbody>${rows}</tbody></table></div>
${pager({ noun: 'booking', total, page, totalPages, link })}`
}`,
    });
  });

  app.get<{ Params: { id: string } }>(`${BASE}/:id`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const tenant = sessionTenant(session);
    const found = await orNotFound(request, reply, session, 'There is no such booking.', () =>
      getBooking(deps, tenant, request.params.id),
    );
    if (!found.found) return found.reply;
    const booking = found.value;
    const pricing = booking.pricing as PriceBreakdown; // typed by $ref in the schema
    const title = `${industryName(booking.service.industry)} for ${booking.customer.name}`;
    return sendShell(request, reply, session, {
      title,
      content: html`${pageHeader({
        title,
        breadcrumbs: [{ href: BASE, label: 'Bookings' }],
        description: `Booking ${booking.id}`,
      })}
<div class="stats">
  <div class="stat"><div class="label">Status</div><div class="value">${statusBadge(booking.status)}</div></div>
  <div class="stat"><div class="label">Scheduled</div><div class="value">${when(booking.scheduled_at)}</div></div>
  <div class="stat"><div class="label">Duration</div><div class="value">${booking.estimated_duration} min</div></div>
  <div class="stat"><div class="label">Total</div><div class="value">${money(pricing.total, pricing.currency)}</div></div>
</div>
${booking.cancellation ? cancellationPanel(booking, pricing.currency) : null}
<div class="grid-2">
  <section class="panel" aria-labelledby="booking-details-title">
    <h2 id="booking-details-title">Details</h2>
    <dl class="details">
      <dt>Customer</dt><dd><a href="/dashboard/customers/${booking.customer.id}">${booking.customer.name}</a><br><span class="hint">${booking.customer.email}</span></dd>
      <dt>Address</dt><dd>${booking.address.street}<br>${booking.address.city}, ${booking.address.state} ${booking.address.zip}</dd>
      <dt>Zone</dt><dd>${pricing.zone?.name ?? '—'}</dd>
      <dt>Crew</dt><dd>${booking.crew.length ? html`<ul class="plain">${booking.crew.map((member) => html`<li>${member.name}</li>`)}</ul>` : 'Not assigned'}</dd>
      <dt>Subscription</dt><dd>${
        booking.subscription
          ? html`${booking.subscription.frequency}, ${booking.subscription.status.replace('_', ' ')} <span class="hint mono">${booking.subscription.id}</span>`
          : 'One-time'
      }</dd>
      <dt>Notes</dt><dd>${booking.notes ? html`<div class="pre">${booking.notes}</div>` : '—'}</dd>
      <dt>Booked</dt><dd>${when(booking.created_at)}</dd>
      <dt>ID</dt><dd class="mono">${booking.id}</dd>
    </dl>
  </section>
  <section class="panel" aria-labelledby="timeline-title">
    <h2 id="timeline-title">Timeline</h2>
    <ol class="timeline">${booking.timeline.map(
      (entry) => html`<li>${statusBadge(entry.status)} ${when(entry.at)}<div>${entry.note}</div></li>`,
    )}</ol>
  </section>
</div>
<div class="grid-2">
  <section class="panel" aria-labelledby="service-title">
    <h2 id="service-title">Service</h2>
    ${await configurationDetails(deps, tenant, booking)}
  </section>
  <section aria-labelledby="pricing-title">
    <h2 id="pricing-title">Pricing</h2>
    ${pricingTable(pricing)}
  </section>
</div>
<section aria-labelledby="booking-invoices-title">
  <h2 id="booking-invoices-title">Invoices</h2>
  ${
    booking.invoices.length
      ? html`<div class="table-wrap"><table>
    <thead><tr><th scope="col">Number</th><th scope="col">Status</th><th scope="col" class="num">Total</th></tr></thead>
    <tbody>${booking.invoices.map(
      (invoice) => html`<tr><td><a href="/dashboard/invoices/${invoice.id}">${invoice.number ?? 'Draft'}</a></td>
      <td><span class="badge muted">${invoice.status}</span></td><td class="num">${money(invoice.total, pricing.currency)}</td></tr>`,
    )}</tbody></table></div>`
      : html`<p class="hint">No invoices yet: completing the booking issues one.</p>`
  }
</section>`,
    });
  });
}

function cancellationPanel(booking: BookingDetailView, currency: string): SafeHtml | null {
  const cancellation = booking.cancellation;
  if (!cancellation) return null;
  const policy: Record<string, string> = {
    free_cancellation: 'Free cancellation',
    late_cancellation: 'Late cancellation',
    in_progress: 'Cancelled while in progress',
  };
  return html`<section class="alert warning" aria-labelledby="cancellation-title">
  <h2 id="cancellation-title">Cancelled ${when(cancellation.cancelled_at)}</h2>
  <dl class="details">
    <dt>Reason</dt><dd>${cancellation.reason ?? '—'}</dd>
    <dt>Fee</dt><dd>${money(cancellation.fee.amount, currency)} · ${policy[cancellation.fee.policy] ?? cancellation.fee.policy}${
      cancellation.fee.invoice_id
        ? html` · <a href="/dashboard/invoices/${cancellation.fee.invoice_id}">fee invoice</a>`
        : null
    }</dd>
    <dt>Customer notified</dt><dd>${cancellation.notify_customer ? 'Yes' : 'No'}</dd>
  </dl>
</section>`;
}

/** What was booked, with product names from the catalog (ids when a product has gone since). */
async function configurationDetails(deps: Deps, tenant: Tenant, booking: BookingDetailView): Promise<SafeHtml> {
  const configuration = booking.service.configuration;
  const lines = [...(configuration.items ?? []), ...(configuration.sections ?? [])];
  const names = new Map<string, string>();
  if (lines.length) {
    try {
      const catalog = await listProducts(deps, tenant, booking.service.industry);
      for (const category of catalog.categories) {
        for (const product of category.products) names.set(product.id, product.name);
      }
    } catch {
      // the industry is no longer offered: show the ids the booking keeps
    }
  }
  const pricing = booking.pricing as PriceBreakdown;
  return html`<dl class="details">
  <dt>Industry</dt><dd>${industryName(booking.service.industry)}</dd>
  ${configuration.bedrooms !== undefined ? html`<dt>Bedrooms</dt><dd>${configuration.bedrooms}</dd>` : null}
  ${configuration.bathrooms !== undefined ? html`<dt>Bathrooms</dt><dd>${configuration.bathrooms}</dd>` : null}
  ${
    lines.length
      ? html`<dt>${configuration.items ? 'Items' : 'Sections'}</dt><dd><ul class="plain">${lines.map(
          (line) => html`<li>${line.quantity ?? 1} × ${names.get(line.product_id) ?? line.product_id}</li>`,
        )}</ul></dd>`
      : null
  }
  <dt>Extras</dt><dd>${
    pricing.extras.length
      ? html`<ul class="plain">${pricing.extras.map((extra) => html`<li>${extra.quantity} × ${extra.name}</li>`)}</ul>`
      : 'None'
  }</dd>
  <dt>Frequency</dt><dd>${configuration.frequency ?? 'one-time'}</dd>
</dl>`;
}

function pricingTable(pricing: PriceBreakdown): SafeHtml {
  const currency = pricing.currency;
  const row = (label: string, cents: number, strong = false) =>
    html`<tr class="${strong ? 'total' : ''}"><th scope="row">${label}</th><td class="num">${money(cents, currency)}</td></tr>`;
  return html`<div class="table-wrap"><table class="pricing">
  <caption class="visually-hidden">Pricing breakdown</caption>
  <tbody>
    ${row('Base price', pricing.base_price)}
    ${pricing.zone_adjustment ? row(`Zone adjustment${pricing.zone ? ` (${pricing.zone.name})` : ''}`, pricing.zone_adjustment) : null}
    ${pricing.extras.map((extra) => row(`${extra.name} × ${extra.quantity}`, extra.total))}
  </tbody>
  <tfoot>
    ${row('Subtotal', pricing.subtotal)}
    ${pricing.discounts.map((discount) => row(discount.description, -discount.amount))}
    ${pricing.tax ? row(`Tax (${pricing.tax_rate} %)`, pricing.tax) : null}
    ${row('Total', pricing.total, true)}
  </tfoot>
</table></div>`;
}
