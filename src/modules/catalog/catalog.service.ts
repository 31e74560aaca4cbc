// The services endpoints; the loaders bookings use to run the very same availability and
// pricing rules inside their own transaction; and what other modules do with the catalog's
// tables (coupon redemptions, crew time, zone ZIPs, staff names), given tx-bound deps.
import type { SQL } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import { AppError, found, invalidParameter } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import { type Availability, availableSlots, type SchedulingInput, type ZoneSchedule } from '../availability/index.ts';
import {
  type Configuration,
  type Coupon,
  couponProblem,
  type PriceBreakdown,
  type PricingCatalog,
  priceConfiguration,
} from '../pricing/index.ts';
import * as repository from './catalog.repository.ts';
import type { AvailabilityQuery, PricingBody } from './catalog.schemas.ts';
import { bookingRows, type LiveCatalog, pricingRows, readLiveCatalog, schedulingRows } from './catalog-cache.ts';
import { type CatalogSettings, settingsFrom } from './settings.ts';

async function industryBySlug(deps: Deps, tenant: Tenant, slug: string) {
  return found(await repository.findActiveIndustry(deps.db, tenant, slug), 'industry', slug);
}

export async function listProducts(deps: Deps, tenant: Tenant, slug: string) {
  const industry = await industryBySlug(deps, tenant, slug);
  const { categories, products } = await repository.listCategoriesWithProducts(deps.db, tenant, industry.id);
  return {
    industry: industry.slug,
    categories: categories.map((category) => ({
      id: category.id,
      name: category.name,
      slug: category.slug,
      products: products
        .filter((product) => product.category_id === category.id)
        .map(({ category_id: _, ...product }) => product),
    })),
  };
}

export async function listExtras(deps: Deps, tenant: Tenant, slug: string) {
  const industry = await industryBySlug(deps, tenant, slug);
  return { data: await repository.listExtras(deps.db, tenant, industry.id) };
}

function unknownIndustry(slug: string, param: string): AppError {
  return invalidParameter(param, `No such industry: '${slug}'.`);
}

/** What availability needs for a ZIP, industry and day; `zone` is null outside every zone. */
export interface SchedulingContext {
  industry: { id: string; slug: string; configurationType: 'room_based' | 'item_based' | 'section_based' };
  /** The zone's local date. */
  date: string | null;
  zone: ZoneSchedule | null;
  staff: SchedulingInput['staff'];
  booked: SchedulingInput['booked'];
}

/**
 * Loads the zone covering the ZIP and serving the industry, its crew and their booked time
 * around the zone's local `date` (or the local date at `at`). An unknown industry is 400
 * parameter_invalid on `industryParam` (default "industry").
 */
export async function loadSchedulingContext(
  deps: Deps,
  tenant: Tenant,
  input: {
    zip: string;
    industry: string;
    date?: string;
    at?: Date;
    industryParam?: string;
    /** false: no crew time (`booked` empty), for a caller whose hold weighs it. */
    crewTime?: boolean;
  },
): Promise<SchedulingContext> {
  return schedulingContext(await schedulingRows(deps, tenant, input), input);
}

function schedulingContext(
  rows: repository.SchedulingRows,
  input: { industry: string; industryParam?: string },
): SchedulingContext {
  if (!rows.industry) throw unknownIndustry(input.industry, input.industryParam ?? 'industry');
  const zone = rows.zone;
  return {
    industry: {
      id: rows.industry.id,
      slug: rows.industry.slug,
      configurationType: rows.industry.configuration_type,
    },
    date: rows.date,
    zone: zone && {
      id: zone.id,
      name: zone.name,
      timezone: zone.timezone,
      hours: zone.hours,
      slotIntervalMinutes: zone.slot_interval_minutes,
      travelBufferMinutes: zone.travel_buffer_minutes,
      leadTimeMinutes: zone.lead_time_minutes,
    },
    staff: rows.staff,
    booked: rows.booked,
  };
}

export async function getAvailability(deps: Deps, tenant: Tenant, query: AvailabilityQuery) {
  const context = await loadSchedulingContext(deps, tenant, {
    zip: query.zip.trim(),
    industry: query.industry,
    date: query.date,
  });
  if (!context.zone) {
    return { date: query.date, zone: null, available_slots: [], fully_booked: false } satisfies Availability;
  }
  return availableSlots({
    date: query.date,
    now: deps.clock.now(),
    durationMinutes: query.duration,
    zone: context.zone,
    staff: context.staff,
    booked: context.booked,
  });
}

function couponOf(row: repository.CouponRow): Coupon {
  return {
    id: row.id,
    code: row.code,
    description: row.description,
    percentOff: row.percent_off === null ? null : Number(row.percent_off),
    amountOff: row.amount_off,
    validFrom: row.valid_from ? new Date(row.valid_from) : null,
    validUntil: row.valid_until ? new Date(row.valid_until) : null,
    maxRedemptions: row.max_redemptions,
    timesRedeemed: row.times_redeemed,
    industries: row.industries,
    isActive: row.is_active,
  };
}

export interface PricingContext {
  catalog: PricingCatalog;
  settings: CatalogSettings;
}

/**
 * Loads what a price needs and checks the ZIP and coupon: a ZIP outside every zone serving the
 * industry is 400 parameter_invalid (zip); an unknown, expired, used-up or wrong-industry
 * coupon is 400 invalid_coupon (coupon_code). Param names can be overridden by callers.
 */
export async function loadPricingContext(
  deps: Deps,
  tenant: Tenant,
  input: {
    industry: string;
    zip?: string | null;
    couponCode?: string | null;
    now: Date;
    params?: { industry?: string; zip?: string; couponCode?: string };
  },
): Promise<PricingContext> {
  const zip = input.zip?.trim() ?? null;
  const couponCode = input.couponCode?.trim() || null;
  return pricingContext(await pricingRows(deps, tenant, { industry: input.industry, zip, couponCode }), {
    ...input,
    zip,
    couponCode,
  });
}

type PricingInput = Parameters<typeof loadPricingContext>[2];

function pricingContext(
  rows: repository.PricingRows,
  input: PricingInput & { zip: string | null; couponCode: string | null },
): PricingContext {
  const { zip, couponCode } = input;
  if (!rows.industry) throw unknownIndustry(input.industry, input.params?.industry ?? 'industry');
  if (zip !== null && !rows.zone) {
    throw invalidParameter(input.params?.zip ?? 'zip', `We do not serve ${input.industry} at ZIP ${zip}.`);
  }
  let coupon: Coupon | null = null;
  if (couponCode !== null) {
    const param = input.params?.couponCode ?? 'coupon_code';
    if (!rows.coupon) throw new AppError('invalid_coupon', `No such coupon: '${couponCode}'.`, { param });
    coupon = couponOf(rows.coupon);
    const problem = couponProblem(coupon, { industry: rows.industry.slug, now: input.now });
    if (problem) throw new AppError('invalid_coupon', problem, { param });
  }
  const settings = settingsFrom(rows.settings);
  return {
    settings,
    catalog: {
      industry: { slug: rows.industry.slug, configurationType: rows.industry.configuration_type },
      products: rows.products.map((product) => ({
        id: product.id,
        name: product.name,
        basePrice: product.base_price,
        minutes: product.minutes,
        inCatalog: product.in_catalog,
        room: product.room,
      })),
      extras: rows.extras.map((extra) => ({
        id: extra.id,
        name: extra.name,
        price: extra.price,
        priceType: extra.price_type,
        minutes: extra.minutes,
      })),
      zone: rows.zone && {
        id: rows.zone.id,
        name: rows.zone.name,
        priceAdjustmentPercent: Number(rows.zone.price_adjustment_percent),
        taxRate: Number(rows.zone.tax_rate),
      },
      frequencyDiscounts: settings.frequency_discounts,
      currency: rows.currency ?? 'usd',
      coupon,
    },
  };
}

export async function calculatePrice(deps: Deps, tenant: Tenant, body: PricingBody): Promise<PriceBreakdown> {
  const context = await loadPricingContext(deps, tenant, {
    industry: body.industry,
    zip: body.zip,
    couponCode: body.coupon_code,
    now: deps.clock.now(),
  });
  return priceConfiguration(context.catalog, body.configuration as Configuration);
}

/** The catalog version and the coupon named, read live (a new booking sends this with its customer's lock). */
export function liveCatalog(deps: Deps, tenant: Tenant, couponCode: string | undefined): Promise<LiveCatalog> {
  return readLiveCatalog(deps, tenant, couponCode?.trim() || null);
}

/**
 * loadPricingContext and loadSchedulingContext for a new booking at `at`, at the catalog version
 * read `live` (`bookingRows`): they throw as those two do, pricing's errors first. The scheduling
 * context has no crew time: the booking's hold (crewTimeHold) weighs it as it writes.
 */
export async function loadBookingContext(
  deps: Deps,
  tenant: Tenant,
  input: PricingInput & { zip: string; at: Date; live: LiveCatalog },
): Promise<{ pricing: PricingContext; scheduling: SchedulingContext }> {
  const zip = input.zip.trim();
  const couponCode = input.couponCode?.trim() || null;
  const rows = await bookingRows(deps, tenant, {
    industry: input.industry,
    zip,
    couponCode,
    at: input.at,
    live: input.live,
  });
  return {
    pricing: pricingContext(rows.pricing, { ...input, zip, couponCode }),
    scheduling: schedulingContext(rows.scheduling, { industry: input.industry, industryParam: input.params?.industry }),
  };
}

/** The ZIPs a zone covers: customers filter their list by zone with it. */
export function zoneZips(deps: Deps, tenant: Tenant, zoneId: string): Promise<string[]> {
  return repository.findZoneZips(deps.db, tenant, zoneId);
}

/** Staff names by id (a booking list's crew column); ids of another tenant are left out. */
export async function staffNames(deps: Deps, tenant: Tenant, staffIds: string[]): Promise<Map<string, string>> {
  const rows = staffIds.length ? await repository.findStaffNames(deps.db, tenant, staffIds) : [];
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** A zone's name and IANA time zone: pages show a booking's times in its zone's local time. */
export interface ZoneClock {
  name: string;
  timezone: string;
}

/** Zones' names and time zones by id (archived zones too); ids of another tenant are left out. */
export async function zoneClocks(deps: Deps, tenant: Tenant, zoneIds: string[]): Promise<Map<string, ZoneClock>> {
  const ids = [...new Set(zoneIds)];
  const rows = ids.length ? await repository.findZoneClocks(deps.db, tenant, ids) : [];
  return new Map(rows.map((row) => [row.id, { name: row.name, timezone: row.timezone }]));
}

/**
 * Counts one use of a coupon, unless that would pass its max_redemptions: false then. The row
 * lock queues concurrent bookings here, so the limit holds under any concurrency.
 */
export function redeemCoupon(deps: Deps, tenant: Tenant, couponId: string): Promise<boolean> {
  return repository.redeemCoupon(deps.db, tenant, couponId);
}

// Crew time (staff_time_blocks). One exclusion constraint refuses overlapping time for one
// person, so the database has the last word however many transactions book at once.

/** The constraint that refuses overlapping time for one crew member (→ 409 slot_unavailable). */
export const STAFF_OVERLAP_CONSTRAINT = 'staff_time_blocks_no_overlap';

export interface CrewTime {
  staffId: string;
  /** The booking holding the time; null for time blocked for another reason. */
  bookingId: string | null;
  start: Date;
  end: Date;
}

export type { CrewHold } from './catalog.repository.ts';

/**
 * The statement that holds a crew member's time: one of the hold's candidates free then, the
 * preferred first, then the least busy (catalog.repository's crewHold). It returns the held
 * member's `staff_id`, or no row when nobody was let through; another module's write runs it as
 * a CTE and goes ahead only with that row, saving a round trip.
 */
export function crewTimeHold(tenant: Tenant, hold: repository.CrewHold): SQL {
  return repository.crewHold(tenant, hold);
}

/** Runs a crewTimeHold statement on its own: the held member's id, undefined when nobody was let through. */
export function holdCrewTime(deps: Deps, hold: SQL): Promise<string | undefined> {
  return repository.runCrewHold(deps.db, hold);
}

/** The hold's candidates still active and free then, in their order: whom to try again after a hold let nobody through. */
export function freeCandidates(deps: Deps, tenant: Tenant, hold: repository.CrewHold): Promise<string[]> {
  return repository.freeCandidates(deps.db, tenant, hold);
}

/** Blocks a crew member's time; throws the exclusion violation STAFF_OVERLAP_CONSTRAINT if taken. */
export function blockCrewTime(deps: Deps, tenant: Tenant, time: CrewTime): Promise<void> {
  return repository.insertTimeBlock(deps.db, tenant, time);
}

/** Frees the crew's time held for a booking (cancelled, or about to be rescheduled). */
export function releaseCrewTime(deps: Deps, tenant: Tenant, bookingId: string): Promise<void> {
  return repository.releaseTimeBlocks(deps.db, tenant, bookingId);
}
