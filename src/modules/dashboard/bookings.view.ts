// Bookings: the list filtered by status, scheduled date and customer, and a booking with its
// timeline, crew, configuration, pricing, invoices and cancellation.
import type { Page } from '../../core/paging.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { money, pager, tableOrEmpty, when } from '../../web/widgets.ts';
import type { BookingDetailView, BookingView } from '../bookings/index.ts';
import type { ZoneClock } from '../catalog/index.ts';
import type { PriceBreakdown } from '../pricing/index.ts';
import { pageHeader } from './shell.ts';

export const BOOKINGS = '/dashboard/bookings';
export const BOOKING_STATUSES = ['confirmed', 'in_progress', 'completed', 'cancelled'] as const;
export const SORTS = [
  { value: '-scheduled_at', label: 'Latest first' },
  { value: 'scheduled_at', label: 'Earliest first' },
] as const;

export interface BookingFilters {
  status?: (typeof BOOKING_STATUSES)[number];
  sort: (typeof SORTS)[number]['value'];
  from: string;
  to: string;
  customerId: string;
  page: number;
}

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

/** The list's query string: its filters and, given one, a page. */
function listQuery(filters: BookingFilters, toPage?: number): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.from) params.set('date_from', filters.from);
  if (filters.to) params.set('date_to', filters.to);
  if (filters.customerId) params.set('customer_id', filters.customerId);
  if (filters.sort !== '-scheduled_at') params.set('sort', filters.sort);
  if (toPage) params.set('page', String(toPage));
  return params;
}

export function bookingListView(
  list: Page<BookingView>,
  filters: BookingFilters,
  context: { environment: string; customerName?: string; crew: Map<string, string>; zones: Map<string, ZoneClock> },
): SafeHtml {
  const { status, sort, from, to, customerId } = filters;
  const { customerName, crew, zones } = context;
  const link = (toPage: number) => `${BOOKINGS}?${listQuery(filters, toPage)}`;
  const rows = list.data.map((booking) => {
    // The schema types pricing by $ref; it is the pricing module's breakdown.
    const pricing = booking.pricing as PriceBreakdown;
    return html`<tr>
  <td><a href="${BOOKINGS}/${booking.id}"><strong>${when(booking.scheduled_at, undefined, timeZoneOf(booking, zones))}</strong></a>
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
  return html`${pageHeader({
    title,
    description: `Visits booked with you, by scheduled time (${context.environment} data).`,
    breadcrumbs: customerName
      ? [
          { href: BOOKINGS, label: 'Bookings' },
          { href: `/dashboard/customers/${customerId}`, label: customerName },
        ]
      : undefined,
  })}
<form class="toolbar" method="get" action="${BOOKINGS}" aria-label="Filter bookings">
  ${customerId ? html`<input type="hidden" name="customer_id" value="${customerId}">` : null}
  <div class="field"><label for="status">Status</label>
    <select id="status" name="status">
      <option value="">Any status</option>
      ${BOOKING_STATUSES.map((value) => html`<option value="${value}" ${value === status ? html`selected` : null}>${STATUS_LABELS[value]}</option>`)}
    </select></div>
  <div class="field"><label for="date_from">Scheduled from</label><input id="date_from" name="date_from" type="date" value="${from}"></div>
  <div class="field"><label for="date_to">Scheduled to</label><input id="date_to" name="date_to" type="date" value="${to}"></div>
  <div class="field"><label for="sort">Order</label>
    <select id="sort" name="sort">
      ${SORTS.map((option) => html`<option value="${option.value}" ${option.value === sort ? html`selected` : null}>${option.label}</option>`)}
    </select></div>
  <button type="submit" class="secondary">Filter</button>
  ${filtered ? html`<a class="button link" href="${BOOKINGS}">Clear</a>` : null}
</form>
<p class="hint">Dates are whole days in UTC, as in the API's <code>date_from</code> and <code>date_to</code>.</p>
${tableOrEmpty(
  list.data.length,
  { title: 'No bookings found', hint: filtered ? 'Try other filters.' : 'Bookings made through the API appear here.' },
  () => html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Bookings</caption>
  <thead><tr><th scope="col">Scheduled</th><th scope="col">Customer</th><th scope="col" class="hide-narrow">Industry</th>
  <th scope="col">Status</th><th scope="col" class="hide-narrow">Crew</th><th scope="col" class="num">Total</th></tr></thead>
  <tbody>${rows}</tbody></table></div>
${pager({ noun: 'booking', total, page: filters.page, totalPages, link })}`,
)}`;
}

export function bookingTitle(booking: BookingDetailView): string {
  return `${industryName(booking.service.industry)} for ${booking.customer.name}`;
}

/** The booking's zone's time zone: its times are shown as the crew and customer live them. */
function timeZoneOf(booking: { zone_id: string | null }, zones: Map<string, ZoneClock>): string | undefined {
  return booking.zone_id ? zones.get(booking.zone_id)?.timezone : undefined;
}

/**
 * A booking, its times in its zone's local time; `productNames` names the catalog products its
 * configuration lists.
 */
export function bookingView(
  booking: BookingDetailView,
  productNames: Map<string, string>,
  zone: ZoneClock | undefined,
): SafeHtml {
  const pricing = booking.pricing as PriceBreakdown; // typed by $ref in the schema
  const title = bookingTitle(booking);
  const at = (iso: string | null) => when(iso, undefined, zone?.timezone);
  return html`${pageHeader({
    title,
    breadcrumbs: [{ href: BOOKINGS, label: 'Bookings' }],
    description: `Booking ${booking.id}`,
  })}
<div class="stats">
  <div class="stat"><div class="label">Status</div><div class="value">${statusBadge(booking.status)}</div></div>
  <div class="stat"><div class="label">Scheduled</div><div class="value">${at(booking.scheduled_at)}</div></div>
  <div class="stat"><div class="label">Duration</div><div class="value">${booking.estimated_duration} min</div></div>
  <div class="stat"><div class="label">Total</div><div class="value">${money(pricing.total, pricing.currency)}</div></div>
</div>
${booking.cancellation ? cancellationPanel(booking, pricing.currency, at) : null}
<div class="grid-2">
  <section class="panel" aria-labelledby="booking-details-title">
    <h2 id="booking-details-title">Details</h2>
    <dl class="details">
      <dt>Customer</dt><dd><a href="/dashboard/customers/${booking.customer.id}">${booking.customer.name}</a><br><span class="hint">${booking.customer.email}</span></dd>
      <dt>Address</dt><dd>${booking.address.street}<br>${booking.address.city}, ${booking.address.state} ${booking.address.zip}</dd>
      <dt>Zone</dt><dd>${zone ? html`${zone.name}<br><span class="hint">Times in ${zone.timezone}</span>` : (pricing.zone?.name ?? '—')}</dd>
      <dt>Crew</dt><dd>${booking.crew.length ? html`<ul class="plain">${booking.crew.map((member) => html`<li>${member.name}</li>`)}</ul>` : 'Not assigned'}</dd>
      <dt>Subscription</dt><dd>${
        booking.subscription
          ? html`${booking.subscription.frequency}, ${booking.subscription.status.replace('_', ' ')} <span class="hint mono">${booking.subscription.id}</span>`
          : 'One-time'
      }</dd>
      <dt>Notes</dt><dd>${booking.notes ? html`<div class="pre">${booking.notes}</div>` : '—'}</dd>
      <dt>Booked</dt><dd>${at(booking.created_at)}</dd>
      <dt>ID</dt><dd class="mono">${booking.id}</dd>
    </dl>
  </section>
  <section class="panel" aria-labelledby="timeline-title">
    <h2 id="timeline-title">Timeline</h2>
    <ol class="timeline">${booking.timeline.map(
      (entry) => html`<li>${statusBadge(entry.status)} ${at(entry.at)}<div>${entry.note}</div></li>`,
    )}</ol>
  </section>
</div>
<div class="grid-2">
  <section class="panel" aria-labelledby="service-title">
    <h2 id="service-title">Service</h2>
    ${configurationDetails(booking, productNames)}
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
</section>`;
}

function cancellationPanel(
  booking: BookingDetailView,
  currency: string,
  at: (iso: string | null) => SafeHtml,
): SafeHtml | null {
  const cancellation = booking.cancellation;
  if (!cancellation) return null;
  const policy: Record<string, string> = {
    free_cancellation: 'Free cancellation',
    late_cancellation: 'Late cancellation',
    in_progress: 'Cancelled while in progress',
  };
  return html`<section class="alert warning" aria-labelledby="cancellation-title">
  <h2 id="cancellation-title">Cancelled ${at(cancellation.cancelled_at)}</h2>
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

/** What was booked, with product names from the catalog (ids when a product has gone since). */
function configurationDetails(booking: BookingDetailView, names: Map<string, string>): SafeHtml {
  const configuration = booking.service.configuration;
  const lines = [...(configuration.items ?? []), ...(configuration.sections ?? [])];
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
