// A booking's status changes, each by its own endpoint (CONTRACT §5):
//   start     confirmed -> in_progress
//   complete  confirmed | in_progress -> completed (invoice + charge, next recurring occurrence)
//   cancel    confirmed | in_progress -> cancelled (crew time freed, fee under the policy)
// Anything else is 409 invalid_state_transition.
import { addDays } from '../../core/dates.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { formatMoney } from '../../core/money.ts';
import type { Tenant } from '../../core/tenant.ts';
import { availableSlots, freeStaffForSlot, localDate, localTime, minutesOfDay } from '../availability/index.ts';
import { loadCatalogSettings, loadSchedulingContext, releaseCrewTime } from '../catalog/index.ts';
import { bookingStatsWrite, lockCustomer } from '../customers/index.ts';
import { createBookingInvoice, createCancellationFeeInvoice } from '../invoices/index.ts';
import { cancellationFee, type PriceBreakdown } from '../pricing/index.ts';
import * as repository from './bookings.repository.ts';
import type { CancelBookingBody } from './bookings.schemas.ts';
import {
  bookingDetailView,
  loadBookingDetail,
  refreshCustomerStats,
  requireBooking,
  withRetry,
} from './bookings.service.ts';
import { holdCrew, insertedWithCrew, priceBooking } from './scheduling.ts';

type Status = repository.BookingStatus;

/** The booking_counts deltas of one booking moving `from` -> `to` (plus new confirmed ones). */
function moveCount(from: Status, to: Status, newlyConfirmed = 0): Partial<Record<Status, number>> {
  const deltas: Partial<Record<Status, number>> = { [to]: 1 };
  deltas[from] = (deltas[from] ?? 0) - 1;
  deltas.confirmed = (deltas.confirmed ?? 0) + newlyConfirmed;
  return deltas;
}

function refuse(action: string, status: Status): AppError {
  return new AppError('invalid_state_transition', `A ${status.replace('_', ' ')} booking cannot be ${action}.`);
}

/** Locks the booking and checks it may move from where it is. */
async function lockForTransition(deps: Deps, tenant: Tenant, id: string, action: string, from: Status[]) {
  const row = await requireBooking(deps, tenant, id, { forUpdate: true });
  if (!from.includes(row.status)) throw refuse(action, row.status);
  return row;
}

/** Sets the booking's new status and adds it to the timeline. */
async function moveTo(
  deps: Deps,
  tenant: Tenant,
  id: string,
  to: { status: Status; note: string; now: Date },
  changes: repository.BookingChanges = {},
) {
  const timeline = { status: to.status, at: to.now.toISOString(), note: to.note };
  await repository.updateBooking(deps.db, tenant, id, { ...changes, status: to.status, timeline }, to.now);
}

export async function startBooking(deps: Deps, tenant: Tenant, id: string) {
  return inTransaction(deps, async (deps) => {
    const now = deps.clock.now();
    await lockForTransition(deps, tenant, id, 'started', ['confirmed']);
    await moveTo(deps, tenant, id, { status: 'in_progress', note: 'Started', now });
    const view = await loadBookingDetail(deps, tenant, id);
    await deps.events.publish(deps.db, tenant, 'booking.started', view, now, {
      with: repository.bookingCountsChange(tenant, { confirmed: -1, in_progress: 1 }),
    });
    return view;
  });
}

function industryLabel(slug: string): string {
  const words = slug.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function serviceDescription(row: repository.BookingRow): string {
  const config = row.configuration;
  const name = industryLabel(row.industry);
  if (config.bedrooms !== undefined || config.bathrooms !== undefined) {
    return `${name}: ${plural(config.bedrooms ?? 0, 'bedroom')}, ${plural(config.bathrooms ?? 0, 'bathroom')}`;
  }
  const lines = config.items ?? config.sections ?? [];
  const count = lines.reduce((sum, line) => sum + (line.quantity ?? 1), 0);
  return `${name}: ${plural(count, config.items ? 'item' : 'section')}`;
}

/** The invoice lines of a booking's pricing: the service (zone adjustment included), then each extra. */
function invoiceLines(row: repository.BookingRow, pricing: PriceBreakdown) {
  return [
    { description: serviceDescription(row), quantity: 1, unit_price: pricing.base_price + pricing.zone_adjustment },
    ...pricing.extras.map((extra) => ({
      description: extra.name,
      quantity: extra.quantity,
      unit_price: extra.unit_price,
    })),
  ];
}

export async function completeBooking(deps: Deps, tenant: Tenant, id: string) {
  return withRetry(() =>
    inTransaction(deps, async (deps) => {
      const now = deps.clock.now();
      const row = await lockForTransition(deps, tenant, id, 'completed', ['confirmed', 'in_progress']);
      await lockCustomer(deps, tenant, row.customer_id);
      await moveTo(deps, tenant, id, { status: 'completed', note: 'Completed', now });
      // the next occurrence holds crew time, so it goes before the invoice's numbering lock
      const next = row.subscription_id ? await bookNextOccurrence(deps, tenant, row, now) : false;
      const pricing = row.pricing;
      await createBookingInvoice(deps, tenant, {
        bookingId: id,
        customerId: row.customer_id,
        lineItems: invoiceLines(row, pricing),
        subtotal: pricing.subtotal,
        discount: pricing.discount,
        discountDescription: pricing.discounts.map((discount) => discount.description).join('; ') || null,
        taxRate: pricing.tax_rate,
        tax: pricing.tax,
        total: pricing.total,
      });
      await refreshCustomerStats(deps, tenant, row.customer_id);
      const view = await loadBookingDetail(deps, tenant, id);
      await deps.events.publish(deps.db, tenant, 'booking.completed', view, now, {
        with: repository.bookingCountsChange(tenant, moveCount(row.status, 'completed', next ? 1 : 0)),
      });
      return view;
    }),
  );
}

const RECURRENCE_DAYS = { weekly: 7, 'bi-weekly': 14, monthly: 28 } as const;
const DAY_MS = 86_400_000;

/**
 * Books a subscription's next occurrence (CONTRACT §5): the same local time 7, 14 or 28 days
 * later if free, else the nearest free slot that day, else none and the subscription needs
 * attention. Priced afresh from the catalog, without the first booking's coupon.
 */
async function bookNextOccurrence(deps: Deps, tenant: Tenant, row: repository.BookingRow, now: Date): Promise<boolean> {
  const subscription = row.subscription_id
    ? await repository.findSubscription(deps.db, tenant, row.subscription_id)
    : undefined;
  if (subscription?.status !== 'active') return false;
  const days = RECURRENCE_DAYS[subscription.frequency];
  const previous = new Date(row.scheduled_at).getTime();
  const needsAttention = async () => {
    await repository.updateSubscription(deps.db, tenant, subscription.id, { status: 'needs_attention' }, now);
    return false;
  };

  let context = await loadSchedulingContext(deps, tenant, {
    zip: row.address_zip,
    industry: row.industry,
    at: new Date(previous + days * DAY_MS),
  });
  if (!context.zone) return needsAttention();
  const timezone = context.zone.timezone;
  const date = addDays(localDate(previous, timezone), days);
  if (context.date !== date) {
    context = await loadSchedulingContext(deps, tenant, { zip: row.address_zip, industry: row.industry, date });
  }
  const zone = context.zone;
  if (!zone) return needsAttention();
  let pricing: PriceBreakdown;
  try {
    ({ pricing } = await priceBooking(deps, tenant, {
      industry: row.industry,
      zip: row.address_zip,
      configuration: row.configuration,
      coupon: null,
      now,
    }));
  } catch (error) {
    // the catalog no longer prices this service here: a person has to look at it
    if (error instanceof AppError) return needsAttention();
    throw error;
  }
  const scheduling = {
    date,
    zone,
    staff: context.staff,
    booked: context.booked,
    durationMinutes: pricing.estimated_duration,
  };
  const wanted = minutesOfDay(localTime(previous, timezone));
  const slots = availableSlots({ ...scheduling, now }).available_slots.sort(
    (a, b) =>
      Math.abs(minutesOfDay(a.start) - wanted) - Math.abs(minutesOfDay(b.start) - wanted) ||
      (a.start < b.start ? -1 : 1),
  );
  const id = newId('booking');
  for (const slot of slots) {
    const startsAt = new Date(slot.starts_at);
    // the crew member's time is held by the booking's insert itself, as for a new booking; the
    // crew who served the subscription last are chosen first
    const held = await holdCrew(
      deps,
      tenant,
      {
        zone,
        date,
        candidates: freeStaffForSlot({ ...scheduling, startsAt }),
        preferred: row.assigned_crew,
        bookingId: id,
        start: startsAt,
        durationMinutes: pricing.estimated_duration,
      },
      (hold) =>
        insertedWithCrew(
          repository.insertBooking(
            deps.db,
            tenant,
            {
              id,
              customerId: row.customer_id,
              addressId: row.address_id,
              zoneId: zone.id,
              subscriptionId: subscription.id,
              industry: row.industry,
              configuration: row.configuration,
              coupon: null,
              pricing,
              scheduledAt: startsAt,
              notes: row.notes,
              // the integrator's keys follow the subscription, like the notes
              metadata: row.metadata,
              timeline: [
                {
                  status: 'confirmed',
                  at: now.toISOString(),
                  note: `Next ${subscription.frequency} occurrence after ${row.id}`,
                },
              ],
              now,
            },
            (stats) => bookingStatsWrite(tenant, row.customer_id, stats),
            hold,
          ),
        ),
    );
    if (!held) continue;
    const detail = held.held;
    await deps.events.publish(deps.db, tenant, 'booking.created', bookingDetailView(detail, []), now);
    return true;
  }
  return needsAttention();
}

export async function cancelBooking(deps: Deps, tenant: Tenant, id: string, input: CancelBookingBody) {
  const notify = input.notify_customer === true;
  const view = await withRetry(() =>
    inTransaction(deps, async (deps) => {
      const now = deps.clock.now();
      const row = await lockForTransition(deps, tenant, id, 'cancelled', ['confirmed', 'in_progress']);
      await lockCustomer(deps, tenant, row.customer_id);
      const settings = await loadCatalogSettings(deps, tenant);
      const fee = cancellationFee(settings.cancellation_policy, {
        total: row.total,
        status: row.status,
        scheduledAt: new Date(row.scheduled_at),
        cancelledAt: now,
      });
      await releaseCrewTime(deps, tenant, id);
      // the subscription's open occurrence is gone, so nothing would book the next one
      if (row.subscription_id) {
        const subscription = await repository.findSubscription(deps.db, tenant, row.subscription_id);
        if (subscription && subscription.status !== 'cancelled') {
          await repository.updateSubscription(deps.db, tenant, subscription.id, { status: 'cancelled' }, now);
        }
      }
      let invoiceId: string | null = null;
      if (fee.amount > 0) {
        const percent =
          fee.policy === 'in_progress'
            ? settings.cancellation_policy.in_progress_fee_percent
            : settings.cancellation_policy.late_cancellation_fee_percent;
        const { invoice } = await createCancellationFeeInvoice(deps, tenant, {
          bookingId: id,
          customerId: row.customer_id,
          amount: fee.amount,
          description: `Cancellation fee: ${percent}% of booking ${id} (${fee.policy.replace('_', ' ')})`,
        });
        invoiceId = invoice.id;
      }
      const cancellation: repository.Cancellation = {
        reason: input.reason ?? null,
        cancelled_at: now.toISOString(),
        notify_customer: notify,
        fee: { amount: fee.amount, policy: fee.policy, invoice_id: invoiceId },
      };
      const note = input.reason ? `Cancelled: ${input.reason}` : 'Cancelled';
      await moveTo(deps, tenant, id, { status: 'cancelled', note, now }, { cancellation });
      await refreshCustomerStats(deps, tenant, row.customer_id);
      if (notify) {
        const when = new Date(row.scheduled_at).toUTCString();
        const feeLine =
          fee.amount > 0
            ? `A cancellation fee of ${formatMoney(fee.amount, row.pricing.currency)} applies; an invoice follows.\n`
            : 'No cancellation fee applies.\n';
        await deps.mailer.queue(deps.db, tenant, {
          kind: 'booking_cancelled',
          to: row.customer_email,
          subject: 'Your booking has been cancelled',
          text:
            `Hello ${row.customer_first_name},\n\nYour ${industryLabel(row.industry).toLowerCase()} booking for ${when} ` +
            `has been cancelled.${input.reason ? ` Reason: ${input.reason}.` : ''}\n\n${feeLine}`,
        });
      }
      const view = await loadBookingDetail(deps, tenant, id);
      await deps.events.publish(deps.db, tenant, 'booking.cancelled', view, now, {
        with: repository.bookingCountsChange(tenant, moveCount(row.status, 'cancelled')),
      });
      return view;
    }),
  );
  if (notify) deps.mailer.wake();
  return view;
}
