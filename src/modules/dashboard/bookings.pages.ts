// Bookings: a list filtered by status, scheduled date and customer, and each booking with its
// timeline, crew, configuration, pricing, invoices and cancellation, read through the bookings
// module's own service functions (the same the API answers with).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import type { Tenant } from '../../core/tenant.ts';
import { choiceValue, dateValue, pageNumber, queryValue } from '../../web/forms.ts';
import { type BookingDetailView, crewNames, getBooking, listBookings } from '../bookings/index.ts';
import { listProducts, zoneClocks } from '../catalog/index.ts';
import { getCustomer } from '../customers/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import {
  BOOKING_STATUSES,
  BOOKINGS,
  type BookingFilters,
  bookingListView,
  bookingTitle,
  bookingView,
  SORTS,
} from './bookings.view.ts';
import { PER_PAGE, recordPage } from './pages.ts';
import { sendShell } from './shell.ts';

export function bookingPages(app: FastifyInstance, deps: Deps): void {
  app.get(
    BOOKINGS,
    { schema: { hide: true }, config: { notFound: 'There is no such customer.' } },
    async (request, reply) => {
      const tenant = sessionTenant(request.session);
      const filters: BookingFilters = {
        status: choiceValue(request, 'status', BOOKING_STATUSES),
        sort:
          choiceValue(
            request,
            'sort',
            SORTS.map((sort) => sort.value),
          ) ?? '-scheduled_at',
        from: dateValue(request, 'date_from'),
        to: dateValue(request, 'date_to'),
        customerId: queryValue(request, 'customer_id').trim().slice(0, 64),
        page: pageNumber(request),
      };
      const customer = filters.customerId ? await getCustomer(deps, tenant, filters.customerId) : undefined;
      const list = await listBookings(deps, tenant, {
        page: filters.page,
        per_page: PER_PAGE,
        sort: filters.sort,
        status: filters.status,
        ...(filters.customerId ? { customer_id: filters.customerId } : {}),
        ...(filters.from ? { date_from: filters.from } : {}),
        ...(filters.to ? { date_to: filters.to } : {}),
      });
      const crew = await crewNames(deps, tenant, list.data);
      const zones = await zoneClocks(
        deps,
        tenant,
        list.data.flatMap((booking) => booking.zone_id ?? []),
      );
      const customerName = customer && `${customer.first_name} ${customer.last_name}`.trim();
      const environment = request.session.environment;
      return sendShell(request, reply, {
        title: customerName ? `Bookings of ${customerName}` : 'Bookings',
        content: bookingListView(list, filters, { environment, customerName, crew, zones }),
      });
    },
  );

  recordPage(app, BOOKINGS, 'There is no such booking.', async (id, { tenant }) => {
    const booking = await getBooking(deps, tenant, id);
    const names = await productNames(deps, tenant, booking);
    const zone = booking.zone_id ? (await zoneClocks(deps, tenant, [booking.zone_id])).get(booking.zone_id) : undefined;
    return { title: bookingTitle(booking), content: bookingView(booking, names, zone) };
  });
}

/** The names of the catalog products a booking lists, by id (none when it lists none). */
async function productNames(deps: Deps, tenant: Tenant, booking: BookingDetailView): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const configuration = booking.service.configuration;
  if (!configuration.items?.length && !configuration.sections?.length) return names;
  try {
    const catalog = await listProducts(deps, tenant, booking.service.industry);
    for (const category of catalog.categories) {
      for (const product of category.products) names.set(product.id, product.name);
    }
  } catch {
    // the industry is no longer offered: show the ids the booking keeps
  }
  return names;
}
