// Customers: search and a detail view with addresses and stats, read through the customers
// module's own service functions (the same the API answers with).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import { type AddressView, type CustomerView, getCustomer, listCustomers } from '../customers/index.ts';
import { html, requireSession, type SafeHtml, sessionTenant } from '../sessions/index.ts';
import { money, pageHeader, pager, queryValue, sendShell, when } from './dashboard.layout.ts';
import { sendNotFound } from './not-found.ts';

const BASE = '/dashboard/customers';
const PER_PAGE = 25;
const STATUSES = ['active', 'inactive', 'deactivated'] as const;

function statusBadge(status: string): SafeHtml {
  const tone = status === 'active' ? 'ok' : status === 'deactivated' ? 'bad' : 'muted';
  return html`<span class="badge ${tone}">${status}</span>`;
}

function fullName(customer: CustomerView): string {
  return `${customer.first_name} ${customer.last_name}`.trim();
}

export function customerPages(app: FastifyInstance, deps: Deps): void {
  app.get(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const search = queryValue(request, 'search').trim().slice(0, 200);
    const statusParam = queryValue(request, 'status');
    const status = STATUSES.find((candidate) => candidate === statusParam);
    const page = Math.max(1, Math.min(10_000, Number.parseInt(queryValue(request, 'page'), 10) || 1));
    const list = await listCustomers(deps, sessionTenant(session), {
      page,
      per_page: PER_PAGE,
      search: search || undefined,
      status,
    });
    const link = (toPage: number) => {
      const params = new URLSearchParams();
      if (search) params.set('search', search);
      if (status) params.set('status', status);
      params.set('page', String(toPage));
      return `${BASE}?${params}`;
    };
    const rows = list.data.map(
      (customer) => html`<tr>
  <td><a href="${BASE}/${customer.id}"><strong>${fullName(customer)}</strong></a></td>
  <td>${customer.email}</td>
  <td class="hide-narrow">${customer.phone ?? ''}</td>
  <td>${statusBadge(customer.status)}</td>
  <td class="num hide-narrow">${customer.stats.total_bookings}</td>
  <td class="num hide-narrow">${money(customer.stats.total_spent)}</td>
</tr>`,
    );
    const { total, total_pages: totalPages } = list.pagination;
    return sendShell(request, reply, session, {
      title: 'Customers',
      content: html`${pageHeader({ title: 'Customers', description: `Everyone who books with you (${session.environment} data).` })}
<form class="toolbar" method="get" action="${BASE}" role="search">
  <div class="field"><label for="search">Search</label>
    <input id="search" name="search" type="search" value="${search}" placeholder="Name, e-mail or phone"></div>
  <div class="field"><label for="status">Status</label>
    <select id="status" name="status">
      <option value="">Any status</option>
      ${STATUSES.map((value) => html`<option value="${value}" ${value === status ? html`selected` : null}>${value}</option>`)}
    </select></div>
  <button type="submit" class="secondary">Search</button>
</form>
${
  list.data.length === 0
    ? html`<div class="table-wrap"><div class="empty"><strong>No customers found</strong>${
        search || status ? 'Try another search.' : 'Customers you create through the API appear here.'
      }</div></div>`
    : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Customers</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col" class="hide-narrow">Phone</th>
  <th scope="col">Status</th><th scope="col" class="num hide-narrow">Bookings</th><th scope="col" class="num hide-narrow">Spent</th></tr></thead>
  <tbody>${rows}</tbody></table></div>
${pager({ noun: 'customer', total, page, totalPages, link })}`
}`,
    });
  });

  app.get<{ Params: { id: string } }>(`${BASE}/:id`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    let customer: CustomerView;
    try {
      customer = await getCustomer(deps, sessionTenant(session), request.params.id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'resource_not_found') {
        return sendNotFound(request, reply, session, 'There is no such customer.');
      }
      throw error;
    }
    // The schema types addresses by $ref; they are AddressViews.
    const addresses = (customer.addresses as AddressView[]).map(
      (address) => html`<li class="panel">
  <strong>${address.label}</strong> ${address.is_default ? html`<span class="badge ok">Default</span>` : null}
  <p>${address.street}<br>${address.city}, ${address.state} ${address.zip}</p>
  ${address.access_notes ? html`<p class="hint">Access: ${address.access_notes}</p>` : null}
</li>`,
    );
    return sendShell(request, reply, session, {
      title: fullName(customer),
      content: html`${pageHeader({
        title: fullName(customer),
        breadcrumbs: [{ href: BASE, label: 'Customers' }],
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
</div>`,
    });
  });
}
