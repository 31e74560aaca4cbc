import { periodEnd, periodStart } from '../../core/dates.ts';
import { allInOrder, isoTimestamp, isRetryableConflict } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found } from '../../core/errors.ts';
import { apiJson, apiShape } from '../../core/http/api-shape.ts';
import type { JsonPage } from '../../core/http/pagination.ts';
import { newId } from '../../core/ids.ts';
import { keptPage } from '../../core/kept-lists.ts';
import { mergeMetadata, metadataFilter, metadataView } from '../../core/metadata.ts';
import { type Page, pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { type HeldBookings, liveCatalog, Pricing, redeemCoupon, staffNames } from '../catalog/index.ts';
import {
  bookingStatsWrite,
  customerAddress,
  lockCustomer,
  lockCustomerForBooking,
  requireCustomer,
  setBookingStats,
} from '../customers/index.ts';
import { bookingInvoices } from '../invoices/index.ts';
import type { Configuration, Frequency } from '../pricing/index.ts';
import * as repository from './bookings.repository.ts';
import {
  Booking,
  BookingDetail,
  type BookingDetailView,
  type BookingListQuery,
  type BookingView,
  type CustomerBookingListQuery,
  type NewBookingBody,
  type UpdateBookingBody,
} from './bookings.schemas.ts';
import { holdOffered, insertedWithCrew, planBooking, priceBooking, scheduleCrew } from './scheduling.ts';

export function bookingView(row: repository.BookingRow): BookingView {
  return {
    id: row.id,
    object: 'booking',
    status: row.status,
    customer: {
      id: row.customer_id,
      name: `${row.customer_first_name} ${row.customer_last_name}`,
      email: row.customer_email,
    },
    service: { industry: row.industry, configuration: row.configuration as BookingView['service']['configuration'] },
    scheduled_at: isoTimestamp(row.scheduled_at),
    estimated_duration: row.estimated_duration,
    address: {
      id: row.address_id,
      street: row.address_street,
      city: row.address_city,
      state: row.address_state,
      zip: row.address_zip,
    },
    zone_id: row.zone_id,
    pricing: row.pricing,
    coupon_code: row.coupon?.code ?? null,
    assigned_crew: row.assigned_crew,
    notes: row.notes,
    metadata: metadataView(row.metadata),
    subscription_id: row.subscription_id,
    cancellation: row.cancellation,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export async function requireBooking(deps: Deps, tenant: Tenant, id: string, options: { forUpdate?: boolean } = {}) {
  return found(await repository.findBooking(deps.db, tenant, id, options), 'booking', id);
}

/**
 * The booking as GET one returns it (inside a transaction: as that transaction sees it).
 * `created`: the booking was just made, so no invoice can name it yet.
 */
export async function loadBookingDetail(
  deps: Deps,
  tenant: Tenant,
  id: string,
  options: { created?: boolean } = {},
): Promise<BookingDetailView> {
  const row = found(await repository.findBookingDetail(deps.db, tenant, id), 'booking', id);
  return bookingDetailView(row, options.created ? [] : await bookingInvoices(deps, tenant, id));
}

/** The detail row in the API's shape, so that events built from it carry exactly what GET returns. */
export function bookingDetailView(
  row: repository.BookingRow & repository.BookingExtras,
  invoices: BookingDetailView['invoices'],
): BookingDetailView {
  return asApiBookingDetail({
    ...bookingView(row),
    timeline: row.timeline,
    crew: row.crew,
    invoices,
    subscription: row.subscription,
  });
}

const asApiBookingDetail = apiShape<BookingDetailView>(BookingDetail, [Pricing]);

export function getBooking(deps: Deps, tenant: Tenant, id: string) {
  return loadBookingDetail(deps, tenant, id);
}

/** Runs a booking transaction again when PostgreSQL reports a deadlock or serialization failure. */
export async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 3 || !isRetryableConflict(error)) throw error;
    }
  }
}

/**
 * Recounts the customer's booking stats from the rows the transaction has just changed, and
 * hands them to customers, which own the customer row.
 */
export async function refreshCustomerStats(deps: Deps, tenant: Tenant, customerId: string) {
  await setBookingStats(deps, tenant, customerId, await repository.customerBookingStats(deps.db, tenant, customerId));
}

function recurring(configuration: Configuration): Exclude<Frequency, 'one-time'> | null {
  const frequency = configuration.frequency ?? 'one-time';
  return frequency === 'one-time' ? null : frequency;
}

export async function createBooking(deps: Deps, tenant: Tenant, input: NewBookingBody) {
  const startsAt = new Date(input.scheduled_at);
  const configuration = input.configuration as Configuration;
  return withRetry(() =>
    inTransaction(deps, async (deps) => {
      const now = deps.clock.now();
      // one round trip: the customer locked, and the catalog version and coupon the price needs
      const [{ customerId, address }, live] = await allInOrder([
        lockCustomerForBooking(deps, tenant, {
          customerId: input.customer_id,
          customerParam: 'customer_id',
          addressId: input.address_id,
          addressParam: 'address_id',
        }),
        liveCatalog(deps, tenant, input.coupon_code),
      ]);
      const { pricing, coupon, offer } = await planBooking(deps, tenant, {
        industry: input.industry,
        zip: address.zip,
        configuration,
        couponCode: input.coupon_code,
        live,
        startsAt,
        now,
      });
      // counted here, once, under the coupon's row lock: the limit holds under any concurrency
      if (coupon && !(await redeemCoupon(deps, tenant, coupon.id))) {
        throw new AppError('invalid_coupon', `The coupon ${coupon.code} has been used up.`, { param: 'coupon_code' });
      }
      const frequency = recurring(configuration);
      let subscriptionId: string | null = null;
      if (frequency) {
        subscriptionId = newId('subscription');
        await repository.insertSubscription(deps.db, tenant, {
          id: subscriptionId,
          customerId,
          frequency,
          now,
        });
      }
      // the crew member's time is held by the booking's insert itself, one round trip for two
      const id = newId('booking');
      const { held: inserted } = await holdOffered(deps, tenant, { ...offer, bookingId: id }, (hold) =>
        insertedWithCrew(
          repository.insertBooking(
            deps.db,
            tenant,
            {
              id,
              customerId,
              addressId: address.id,
              zoneId: offer.zone.id,
              subscriptionId,
              industry: input.industry,
              configuration,
              coupon,
              pricing,
              scheduledAt: startsAt,
              notes: input.notes ?? null,
              metadata: mergeMetadata({}, input.metadata),
              timeline: [{ status: 'confirmed', at: now.toISOString(), note: 'Booked' }],
              now,
            },
            (stats) => bookingStatsWrite(tenant, customerId, stats),
            hold,
          ),
        ),
      );
      // just made, so no invoice names it yet
      const view = bookingDetailView(inserted, []);
      // the counts go last, with the event and COMMIT right behind: their rows are shared by the
      // whole environment
      await deps.events.publish(deps.db, tenant, 'booking.created', view, now, {
        with: repository.bookingCountsChange(tenant, { confirmed: 1 }),
        last: true,
      });
      return view;
    }),
  );
}

type ListQuery = BookingListQuery | (CustomerBookingListQuery & { customer_id?: string });

function listFilters(query: ListQuery): repository.BookingFilters {
  return {
    status: query.status,
    customerId: query.customer_id,
    zoneId: query.zone_id,
    scheduledFrom: periodStart(query.date_from),
    scheduledBefore: periodEnd(query.date_to),
    ids: parseIds(query.ids, 'bk'),
    metadata: metadataFilter(query),
  };
}

/** A page of bookings as views (the dashboard's). */
export async function listBookings(deps: Deps, tenant: Tenant, query: ListQuery): Promise<Page<BookingView>> {
  const page = pageRequest(query);
  return pageOf(
    page,
    await repository.listBookings(deps.db, tenant, listFilters(query), query.sort, page),
    bookingView,
  );
}

const bookingJson = apiJson<BookingView>(Booking, [Pricing]);

/**
 * A page of bookings as the API sends it: a list asked for again is answered from each booking's
 * JSON kept at the versions of its rows (`keptPage`, docs/caching.md).
 */
export function listBookingsJson(deps: Deps, tenant: Tenant, query: ListQuery): Promise<Page<BookingView> | JsonPage> {
  const page = pageRequest(query);
  const filters = listFilters(query);
  return keptPage(deps, tenant, {
    question: JSON.stringify([filters, query.sort, page]),
    page,
    whole: () => repository.listBookings(deps.db, tenant, filters, query.sort, page),
    versions: () => repository.listBookingVersions(deps.db, tenant, filters, query.sort, page),
    items: (ids) => repository.findBookingsWithVersions(deps.db, tenant, ids),
    view: bookingView,
    json: bookingJson,
  });
}

/** The names of the crew assigned to `bookings`, by staff id (lists carry only the ids). */
export function crewNames(deps: Deps, tenant: Tenant, bookings: BookingView[]): Promise<Map<string, string>> {
  return staffNames(deps, tenant, [...new Set(bookings.flatMap((booking) => booking.assigned_crew))]);
}

export async function listCustomerBookings(
  deps: Deps,
  tenant: Tenant,
  customerId: string,
  query: CustomerBookingListQuery,
) {
  await requireCustomer(deps, tenant, customerId);
  return listBookingsJson(deps, tenant, { ...query, customer_id: customerId });
}

/**
 * PATCH: scheduled_at, configuration, notes, address_id; confirmed bookings only. A new time,
 * configuration or address re-checks availability (the booking's own time does not count
 * against it), keeps the crew when free and frees the old time, all in one transaction.
 */
export async function updateBooking(deps: Deps, tenant: Tenant, id: string, input: UpdateBookingBody) {
  return withRetry(() =>
    inTransaction(deps, async (deps) => {
      const now = deps.clock.now();
      const row = await requireBooking(deps, tenant, id, { forUpdate: true });
      // metadata is the integrator's, not the booking's plan: it may change in any status
      const metadataOnly = input.metadata !== undefined && Object.keys(input).length === 1;
      if (row.status !== 'confirmed' && !metadataOnly) {
        throw new AppError(
          'invalid_state_transition',
          `Only a confirmed booking can be changed; this one is ${row.status}.`,
        );
      }
      await lockCustomer(deps, tenant, row.customer_id);
      const addressChanged = input.address_id !== undefined && input.address_id !== row.address_id;
      const address = addressChanged
        ? await customerAddress(deps, tenant, {
            customerId: row.customer_id,
            addressId: input.address_id as string,
            param: 'address_id',
          })
        : { id: row.address_id, zip: row.address_zip };
      const configuration = (input.configuration as Configuration | undefined) ?? row.configuration;
      const repriced = input.configuration !== undefined || addressChanged;
      const pricing = repriced
        ? (
            await priceBooking(deps, tenant, {
              industry: row.industry,
              zip: address.zip,
              configuration,
              coupon: row.coupon,
              now,
            })
          ).pricing
        : row.pricing;
      const previousStart = new Date(row.scheduled_at);
      const startsAt = input.scheduled_at === undefined ? previousStart : new Date(input.scheduled_at);
      const moved = startsAt.getTime() !== previousStart.getTime();

      const changes: repository.BookingChanges = {};
      if (moved || repriced) {
        const held = await scheduleCrew(deps, tenant, {
          bookingId: id,
          zip: address.zip,
          industry: row.industry,
          startsAt,
          durationMinutes: pricing.estimated_duration,
          now,
          preferred: row.assigned_crew,
          rescheduling: true,
        });
        Object.assign(changes, { zoneId: held.zoneId, assignedCrew: [held.staffId], scheduledAt: startsAt });
      }
      if (repriced) Object.assign(changes, { configuration, pricing, addressId: address.id });
      if (input.notes !== undefined) changes.notes = input.notes;
      if (input.metadata !== undefined) changes.metadata = mergeMetadata(row.metadata, input.metadata);
      if (input.configuration !== undefined) {
        changes.subscriptionId = await reconcileSubscription(deps, tenant, row, recurring(configuration), now);
      }
      if (moved) {
        changes.timeline = {
          status: 'confirmed',
          at: now.toISOString(),
          note: `Rescheduled from ${previousStart.toISOString()} to ${startsAt.toISOString()}`,
        };
      }
      if (Object.keys(changes).length === 0) return loadBookingDetail(deps, tenant, id);
      await repository.updateBooking(deps.db, tenant, id, changes, now);
      await refreshCustomerStats(deps, tenant, row.customer_id);
      const view = await loadBookingDetail(deps, tenant, id);
      await deps.events.publish(deps.db, tenant, moved ? 'booking.rescheduled' : 'booking.updated', view, now);
      return view;
    }),
  );
}

/**
 * A new frequency on PATCH: one-time ends the subscription, a recurring one starts or
 * changes it. Returns the booking's subscription id.
 */
async function reconcileSubscription(
  deps: Deps,
  tenant: Tenant,
  row: repository.BookingRow,
  frequency: Exclude<Frequency, 'one-time'> | null,
  now: Date,
): Promise<string | null> {
  const current = row.subscription_id
    ? await repository.findSubscription(deps.db, tenant, row.subscription_id)
    : undefined;
  const live = current && current.status !== 'cancelled' ? current : undefined;
  if (!frequency) {
    if (live) await repository.updateSubscription(deps.db, tenant, live.id, { status: 'cancelled' }, now);
    return row.subscription_id;
  }
  if (live) {
    await repository.updateSubscription(deps.db, tenant, live.id, { frequency, status: 'active' }, now);
    return live.id;
  }
  const id = newId('subscription');
  await repository.insertSubscription(deps.db, tenant, { id, customerId: row.customer_id, frequency, now });
  return id;
}

/** Whether the customer has bookings still to be done (customers keep their last address for them). */
export function customerHasOpenBookings(deps: Deps, tenant: Tenant, customerId: string): Promise<boolean> {
  return repository.hasOpenBookings(deps.db, tenant, customerId);
}

/** The catalog's rule before it archives or changes a zone or crew member (HeldBookings). */
export const bookingsHeldBy: HeldBookings = async (deps, tenant, holder, from) => {
  const rows = await repository.findHeldBookings(deps.db, tenant, holder, from);
  return rows.map((row) => ({
    id: row.id,
    zoneId: row.zone_id,
    industry: row.industry,
    scheduledAt: new Date(isoTimestamp(row.scheduled_at)),
    durationMinutes: row.estimated_duration,
  }));
};
