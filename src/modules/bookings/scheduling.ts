// Pricing a booking and holding its crew's time, inside the booking's transaction, with the very
// code the services endpoints use (catalog loaders + pure availability and pricing functions).
// The database has the last word: the catalog's crew time refuses overlapping time for one person.
// Every function here runs in the booking's transaction: give it tx-bound deps.
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import { findOfferedSlot, freeStaffForSlot, type Slot, slotRefusal, takenMessage } from '../availability/index.ts';
import {
  type CrewTime,
  holdCrewTime,
  loadBookingContext,
  loadPricingContext,
  loadSchedulingContext,
  releaseCrewTime,
  type SchedulingContext,
} from '../catalog/index.ts';
import { type Configuration, type Coupon, type PriceBreakdown, priceConfiguration } from '../pricing/index.ts';

const MINUTE = 60_000;

/** 409 slot_unavailable; `why` says which rule refused the time (availability's `slotRefusal`). */
export function slotUnavailable(
  param = 'scheduled_at',
  why = 'That time is not available for this booking: pick a slot that availability offers for its estimated duration.',
): AppError {
  return new AppError('slot_unavailable', why, { param });
}

/**
 * Prices a configuration at an address's ZIP exactly as POST /v1/services/pricing does. A new
 * booking names its coupon by code (checked here, redeemed by the caller); re-pricing passes the
 * coupon stored with the booking, whose redemption was already counted.
 */
export async function priceBooking(
  deps: Deps,
  tenant: Tenant,
  input: {
    industry: string;
    zip: string;
    configuration: Configuration;
    couponCode?: string;
    coupon?: Coupon | null;
    now: Date;
  },
): Promise<{ pricing: PriceBreakdown; coupon: Coupon | null }> {
  const context = await loadPricingContext(deps, tenant, {
    industry: input.industry,
    zip: input.zip,
    couponCode: input.couponCode ?? null,
    now: input.now,
    params: { zip: 'address_id' },
  });
  const catalog =
    input.couponCode === undefined ? { ...context.catalog, coupon: input.coupon ?? null } : context.catalog;
  return { pricing: priceConfiguration(catalog, input.configuration), coupon: catalog.coupon };
}

/**
 * A new booking's price (priceBooking) and the crew free at its time (offerCrew), from one read
 * of the catalog: pricing's errors first, then the slot's.
 */
export async function planBooking(
  deps: Deps,
  tenant: Tenant,
  input: {
    bookingId: string;
    industry: string;
    zip: string;
    configuration: Configuration;
    couponCode?: string;
    startsAt: Date;
    now: Date;
  },
): Promise<{ pricing: PriceBreakdown; coupon: Coupon | null; offer: OfferedTime }> {
  const context = await loadBookingContext(deps, tenant, {
    industry: input.industry,
    zip: input.zip,
    couponCode: input.couponCode ?? null,
    at: input.startsAt,
    now: input.now,
    params: { zip: 'address_id' },
  });
  const pricing = priceConfiguration(context.pricing.catalog, input.configuration);
  const offer = offerIn(context.scheduling, { ...input, durationMinutes: pricing.estimated_duration });
  return { pricing, coupon: context.pricing.catalog.coupon, offer };
}

/** A time availability offers, and the crew members free for it, best first. */
export interface OfferedTime {
  zone: NonNullable<SchedulingContext['zone']>;
  slot: Slot;
  candidates: string[];
  start: Date;
  durationMinutes: number;
  param?: string;
}

export interface HeldSlot<T = true> {
  zoneId: string;
  staffId: string;
  slot: Slot;
  /** What the hold returned for the crew member held. */
  held: T;
}

/**
 * Holds one person's time, and may write with it in the same statement (a new booking's
 * insert): undefined when the time was taken.
 */
export type Hold<T> = (time: CrewTime) => Promise<T | undefined>;

/**
 * Checks that availability offers `startsAt` for the duration (the booking's own time does not
 * count against it) and lists the crew free then: `preferred` first (a rescheduled booking keeps
 * its crew when it can), then the least busy. Throws 409 slot_unavailable.
 */
export async function offerCrew(
  deps: Deps,
  tenant: Tenant,
  input: {
    bookingId: string;
    zip: string;
    industry: string;
    startsAt: Date;
    durationMinutes: number;
    now: Date;
    preferred?: string[];
    param?: string;
  },
): Promise<OfferedTime> {
  const context = await loadSchedulingContext(deps, tenant, {
    zip: input.zip,
    industry: input.industry,
    at: input.startsAt,
    industryParam: 'industry',
  });
  return offerIn(context, input);
}

/** offerCrew on a scheduling context already loaded. */
function offerIn(context: SchedulingContext, input: Parameters<typeof offerCrew>[2]): OfferedTime {
  if (!context.zone || !context.date) throw slotUnavailable(input.param);
  const scheduling = {
    date: context.date,
    zone: context.zone,
    staff: context.staff,
    blocks: context.blocks,
    durationMinutes: input.durationMinutes,
    ignoreBookingId: input.bookingId,
  };
  const slot = findOfferedSlot({ ...scheduling, now: input.now, startsAt: input.startsAt });
  if (!slot)
    throw slotUnavailable(input.param, slotRefusal({ ...scheduling, now: input.now, startsAt: input.startsAt }));
  return {
    zone: context.zone,
    slot,
    candidates: preferFirst(freeStaffForSlot({ ...scheduling, startsAt: input.startsAt }), input.preferred),
    start: input.startsAt,
    durationMinutes: input.durationMinutes,
    param: input.param,
  };
}

/**
 * Holds the offered time for the first candidate the database lets through, with `hold` (the
 * catalog's holdCrewTime unless given). Throws 409 slot_unavailable when a concurrent booking
 * held the last free crew member first.
 */
export async function holdOffered<T = true>(
  deps: Deps,
  tenant: Tenant,
  offer: OfferedTime & { bookingId: string },
  hold?: Hold<T>,
): Promise<HeldSlot<T>> {
  const held = await holdFirstFree(deps, tenant, { zone: offer.zone }, offer, hold);
  if (!held) throw slotUnavailable(offer.param, takenMessage(offer.zone, offer.start));
  return { zoneId: offer.zone.id, slot: offer.slot, ...held };
}

/** offerCrew, then holdOffered; a reschedule frees the booking's own time in between. */
export async function scheduleCrew(
  deps: Deps,
  tenant: Tenant,
  input: Parameters<typeof offerCrew>[2] & {
    /** The booking already holds time (reschedule): free it in this transaction. */
    rescheduling?: boolean;
  },
): Promise<HeldSlot> {
  const offer = await offerCrew(deps, tenant, input);
  if (input.rescheduling) await releaseCrewTime(deps, tenant, input.bookingId);
  return holdOffered(deps, tenant, { ...offer, bookingId: input.bookingId });
}

function preferFirst(candidates: string[], preferred: string[] = []): string[] {
  const first = candidates.filter((id) => preferred.includes(id));
  return [...first, ...candidates.filter((id) => !preferred.includes(id))];
}

/**
 * Holds the time block [start, start + duration + travel buffer) for each candidate in turn
 * until the exclusion constraint lets one through. It waits for a concurrent holder to commit or
 * roll back, so two transactions, in one process or in two, never both get a person. null when
 * none is free.
 */
export async function holdFirstFree<T = true>(
  deps: Deps,
  tenant: Tenant,
  context: { zone: NonNullable<SchedulingContext['zone']> },
  input: { bookingId: string; candidates: string[]; start: Date; durationMinutes: number },
  hold: Hold<T> = async (time) => ((await holdCrewTime(deps, tenant, time)) ? (true as T) : undefined),
): Promise<{ staffId: string; held: T } | null> {
  const buffer = context.zone.travelBufferMinutes;
  // an empty range is refused by the table; a zero-minute job still holds a minute
  const minutes = Math.max(1, input.durationMinutes + buffer);
  const end = new Date(input.start.getTime() + minutes * MINUTE);
  for (const staffId of input.candidates) {
    const held = await hold({ staffId, bookingId: input.bookingId, start: input.start, end });
    if (held !== undefined) return { staffId, held };
  }
  return null;
}
