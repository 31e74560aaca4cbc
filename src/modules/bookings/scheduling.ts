// Pricing a booking and holding its crew's time, inside the booking's transaction, with the very
// code the services endpoints use (catalog loaders + pure availability and pricing functions).
// The database has the last word: the catalog's crew time refuses overlapping time for one person.
// Every function here runs in the booking's transaction: give it tx-bound deps.
import type { SQL } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import { findOfferedSlot, freeStaffForSlot, type Slot, slotRefusal, takenMessage } from '../availability/index.ts';
import {
  type CrewHold,
  crewTimeHold,
  freeCandidates,
  holdCrewTime,
  type LiveCatalog,
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
 * A new booking's price (priceBooking) and who could do it at its time (offerCrew), at the catalog
 * version read `live` with the customer's lock: with the catalog cached, no statement of its own.
 * Pricing's errors come first, then the slot's.
 */
export async function planBooking(
  deps: Deps,
  tenant: Tenant,
  input: {
    industry: string;
    zip: string;
    configuration: Configuration;
    couponCode?: string;
    live: LiveCatalog;
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
    live: input.live,
    params: { zip: 'address_id' },
  });
  const pricing = priceConfiguration(context.pricing.catalog, input.configuration);
  const offer = offerIn(context.scheduling, { ...input, durationMinutes: pricing.estimated_duration });
  return { pricing, coupon: context.pricing.catalog.coupon, offer };
}

/** A time availability offers the job, and the crew who work then; the hold weighs their booked time. */
export interface OfferedTime {
  zone: NonNullable<SchedulingContext['zone']>;
  /** The zone's local date of `start`. */
  date: string;
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
 * Runs a crew hold (the catalog's crewTimeHold statement), alone or inside the statement that
 * writes with it: the held member and what the write returned, undefined when nobody was held.
 */
export type Hold<T> = (hold: SQL) => Promise<{ staffId: string; held: T } | undefined>;

/**
 * Checks that availability offers `startsAt` for the duration by every rule that needs no crew
 * time (the zone's day and hours, the slot grid, notice, the crew's hours) and lists the crew
 * working then. Whether they are booked then is the hold's to find, in the statement that writes
 * (holdOffered): a reschedule frees its own time first, so it never counts against it. Throws
 * 409 slot_unavailable.
 */
export async function offerCrew(
  deps: Deps,
  tenant: Tenant,
  input: {
    zip: string;
    industry: string;
    startsAt: Date;
    durationMinutes: number;
    now: Date;
    param?: string;
  },
): Promise<OfferedTime> {
  const context = await loadSchedulingContext(deps, tenant, {
    zip: input.zip,
    industry: input.industry,
    at: input.startsAt,
    industryParam: 'industry',
    crewTime: false,
  });
  return offerIn(context, input);
}

/** offerCrew on a scheduling context already loaded. */
function offerIn(context: SchedulingContext, input: Parameters<typeof offerCrew>[2]): OfferedTime {
  if (!context.zone || !context.date) throw slotUnavailable(input.param);
  // availability as if nobody were booked: the crew's booked time is the hold's to weigh
  const scheduling = {
    date: context.date,
    zone: context.zone,
    staff: context.staff,
    booked: {},
    durationMinutes: input.durationMinutes,
  };
  const slot = findOfferedSlot({ ...scheduling, now: input.now, startsAt: input.startsAt });
  if (!slot)
    throw slotUnavailable(input.param, slotRefusal({ ...scheduling, now: input.now, startsAt: input.startsAt }));
  return {
    zone: context.zone,
    date: context.date,
    slot,
    candidates: freeStaffForSlot({ ...scheduling, startsAt: input.startsAt }),
    start: input.startsAt,
    durationMinutes: input.durationMinutes,
    param: input.param,
  };
}

/**
 * Holds the offered time (holdCrew) with `hold` (the plain hold unless given). Throws 409
 * slot_unavailable when everyone who could do it is booked then.
 */
export async function holdOffered<T = true>(
  deps: Deps,
  tenant: Tenant,
  offer: OfferedTime & { bookingId: string; preferred?: string[] },
  hold?: Hold<T>,
): Promise<HeldSlot<T>> {
  const held = await holdCrew(deps, tenant, offer, hold);
  if (!held) throw slotUnavailable(offer.param, takenMessage(offer.zone, offer.start));
  return { zoneId: offer.zone.id, slot: offer.slot, ...held };
}

/** offerCrew, then holdOffered; a reschedule frees the booking's own time in between. */
export async function scheduleCrew(
  deps: Deps,
  tenant: Tenant,
  input: Parameters<typeof offerCrew>[2] & {
    bookingId: string;
    /** Chosen first when free: a rescheduled booking keeps its crew when it can. */
    preferred?: string[];
    /** The booking already holds time (reschedule): free it in this transaction. */
    rescheduling?: boolean;
  },
): Promise<HeldSlot> {
  const offer = await offerCrew(deps, tenant, input);
  if (input.rescheduling) await releaseCrewTime(deps, tenant, input.bookingId);
  return holdOffered(deps, tenant, { ...offer, bookingId: input.bookingId, preferred: input.preferred });
}

/** A booking's insert as a crew hold's write: the booking with the member it holds, if any. */
export async function insertedWithCrew<Row extends { assigned_crew: string[] }>(
  insert: Promise<Row | undefined>,
): Promise<{ staffId: string; held: Row } | undefined> {
  const row = await insert;
  const staffId = row?.assigned_crew[0];
  return row && staffId !== undefined ? { staffId, held: row } : undefined;
}

/**
 * Holds [start, start + duration + travel buffer) for one of the candidates, the database choosing
 * among those free then: the preferred first, then the least busy (the catalog's crewTimeHold). It
 * waits for a concurrent holder to commit or roll back, so two transactions, in one process or in
 * two, never both get a person; a pick lost that way is tried again among those still free. null
 * when nobody is free.
 */
export async function holdCrew<T = true>(
  deps: Deps,
  tenant: Tenant,
  offer: Pick<OfferedTime, 'zone' | 'date' | 'candidates' | 'start' | 'durationMinutes'> & {
    bookingId: string;
    preferred?: string[];
  },
  hold: Hold<T> = async (statement) => {
    const staffId = await holdCrewTime(deps, statement);
    return staffId === undefined ? undefined : { staffId, held: true as T };
  },
): Promise<{ staffId: string; held: T } | null> {
  // an empty range is refused by the table; a zero-minute job still holds a minute
  const minutes = Math.max(1, offer.durationMinutes + offer.zone.travelBufferMinutes);
  const time: CrewHold = {
    candidates: offer.candidates,
    preferred: offer.preferred ?? [],
    bookingId: offer.bookingId,
    start: offer.start,
    end: new Date(offer.start.getTime() + minutes * MINUTE),
    date: offer.date,
    timezone: offer.zone.timezone,
  };
  while (time.candidates.length > 0) {
    const held = await hold(crewTimeHold(tenant, time));
    if (held) return held;
    // the one picked was taken (or archived) meanwhile: each round has one candidate fewer
    const free = await freeCandidates(deps, tenant, time);
    if (free.length >= time.candidates.length) break;
    time.candidates = free;
  }
  return null;
}
