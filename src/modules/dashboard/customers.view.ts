// Customers: the searchable list and a customer with their addresses and stats.
import type { Page } from '../../core/paging.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { money, pager, tableOrEmpty, when } from '../../web/widgets.ts';
import type { AddressView, CustomerView } from '../customers/index.ts';
import { pageHeader } from './shell.ts';

export const CUSTOMERS = '/dashboard/customers';
export const CUSTOMER_STATUSES = ['active', 'inactive', 'deactivated'] as const;

export interface CustomerFilters {
  search: string;
  status?: (typeof CUSTOMER_STATUSES)[number];
  page: number;
}

function statusBadge(status: string): SafeHtml {
  const tone = status === 'active' ? 'ok' : status === 'deactivated' ? 'bad' : 'muted';
  return html`<span class="badge ${tone}">${status}</span>`;
}

export function fullName(customer: CustomerView): string {
  return `${customer.first_name} ${customer.last_name}`.trim();
}

function listLink(filters: CustomerFilters, page: number): string {
  const params = new URLSearchParams();
  if (filters.search) params.set('search', filters.search);
  if (filters.status) params.set('status', filters.status);
  params.set('page', String(page));
  return `${CUSTOMERS}?${params}`;
}

export function customerListView(list: Page<CustomerView>, filters: CustomerFilters, environment: string): SafeHtml {
  const { search, status } = filters;
  const rows = list.data.map(
    (customer) => html`<tr>
  <td><a href="${CUSTOMERS}/${customer.id}"><strong>${fullName(customer)}</strong></a></td>
  <td>${customer.email}</td>
  <td class="hide-narrow">${customer.phone ?? ''}</td>
  <td>${statusBadge(customer.status)}</td>
  <td class="num hide-narrow">${customer.stats.total_bookings}</td>
  <td class="num hide-narrow">${money(customer.stats.total_spent)}</td>
</tr>`,
  );
  const { total, total_pages: totalPages } = list.pagination;
  return html`${pageHeader({ title: 'Customers', description: `Everyone who books with you (${environment} data).` })}
<form class="toolbar" method="get" action="${CUSTOMERS}" role="search">
  <div class="field"><label for="search">Search</label>
    <input id="search" name="search" type="search" value="${search}" placeholder="Name, e-mail or phone"></div>
  <div class="field"><label for="status">Status</label>
    <select id="status" name="status">
      <option value="">Any status</option>
      ${CUSTOMER_STATUSES.map((value) => html`<option value="${value}" ${value === status ? html`selected` : null}>${value}</option>`)}
    </select></div>
  <button type="submit" class="secondary">Search</button>
</form>
${tableOrEmpty(
  list.data.length,
  {
    title: 'No customers found',
    hint: search || status ? 'Try another search.' : 'Customers you create through the API appear here.',
  },
  () => html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Customers</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col" class="hide-narrow">Phone</th>
  <th scope="col">Status</th><th scope="col" class="num hide-narrow">Bookings</th><th scope="col" class="num hide-narrow">Spent</th></tr></thead>
  <tbody>${rows}</tbody></table></div>
${pager({ noun: 'customer', total, page: filters.page, totalPages, link: (page) => listLink(filters, page) })}`,
)}`;
}

export function customerView(customer: CustomerView): SafeHtml {
  // The schema types addresses by $ref; they are AddressViews.
  const addresses = (customer.addresses as AddressView[]).map(
    (address) => html`<li class="panel">
  <strong>${address.label}</strong> ${address.is_default ? html`<span class="badge ok">Default</span>` : null}
  <p>${address.street}<br>${address.city}, ${address.state} ${address.zip}</p>
  ${address.access_notes ? html`<p class="hint">Access: ${address.access_notes}</p>` : null}
</li>`,
  );
  return html`${pageHeader({
    title: fullName(customer),
    breadcrumbs: [{ href: CUSTOMERS, label: 'Customers' }],
    description: customer.email,
  })}
<div class="stats">
  <a class="stat" href="/dashboard/bookings?customer_id=${customer.id}"><div class="label">Bookings</div><div class="value">${customer.stats.total_bookings}</div></a>
  <div class="stat"><div class="label">Total spent</div><div class="value">${money(customer.stats.total_spent)}</div></div>
  <div class="stat"><div class="label">Last booking</div><div class="value">${when(customer.stats.last_booking_at, 'None yet')}</div></div>
  <div class="stat"><div class="label">Account credit</div><div class="value">${money(customer.credit_balance)}</div></div>
</div>
<div class="grid-2">
  <section class="panel" aria-labelledby="details-title">
    <h2 id="details-title">Details</h2>
    <dl class="details">
      <dt>Status</dt><dd>${statusBadge(customer.status)}</dd>
      <dt>E-mail</dt><dd>${customer.email}</dd>
      <dt>Phone</dt><dd>${customer.phone ?? '—'}</dd>
      <dt>Contact by</dt><dd>${customer.preferences.preferred_contact}</dd>
      <dt>Marketing</dt><dd>${customer.preferences.marketing_opt_in ? 'Opted in' : 'Not opted in'}</dd>
      <dt>Subscription</dt><dd>${customer.stats.active_subscription ? 'Active' : 'None'}</dd>
      <dt>Customer since</dt><dd>${when(customer.created_at)}</dd>
      <dt>ID</dt><dd class="mono">${customer.id}</dd>
    </dl>
  </section>
  <section aria-labelledby="addresses-title">
    <h2 id="addresses-title">Addresses</h2>
    ${addresses.length ? html`<ul class="plain">${addresses}</ul>` : html`<p class="hint">No addresses yet.</p>`}
  </section>
</div>`;
}
