// The services endpoints, and the loaders bookings use to run the very same availability and
// pricing rules inside their own transaction.
import type { Clock } from '../../core/clock.ts';
import type { Sql } from '../../core/db.ts';
import { AppError, invalidParameter, notFound } from '../../core/errors.ts';
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
import { type CatalogSettings, settingsFrom } from './settings.ts';

export async function listIndustries(db: Sql, tenant: Tenant) {
  const rows = await repository.listActiveIndustries(db, tenant);
  return { data: rows };
}

async function industryBySlug(db: Sql, tenant: Tenant, slug: string) {
  const industry = await repository.findActiveIndustry(db, tenant, slug);
  if (!industry) throw notFound('industry', slug);
  return industry;
}

export async function listProducts(db: Sql, tenant: Tenant, slug: string) {
  const industry = await industryBySlug(db, tenant, slug);
  const { categories, products } = await repository.listCategoriesWithProducts(db, tenant, industry.id);
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

export async function listExtras(db: Sql, tenant: Tenant, slug: string) {
  const industry = await industryBySlug(db, tenant, slug);
  return { data: await repository.listExtras(db, tenant, industry.id) };
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
  blocks: SchedulingInput['blocks'];
}

/**
 * Loads the zone covering the ZIP and serving the industry, its crew and their booked time
 * around the zone's local `date` (or the local date at `at`). An unknown industry is 400
 * parameter_invalid on `industryParam` (default "industry").
 */
export async function loadSchedulingContext(
  db: Sql,
  tenant: Tenant,
  input: { zip: string; industry: string; date?: string; at?: Date; industryParam?: string },
): Promise<SchedulingContext> {
  const rows = await repository.loadSchedulingRows(db, tenant, input);
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
    blocks: rows.blocks.map(([staffId, bookingId, start, end]) => ({
      staffId,
      bookingId,
      start: Number(start),
      end: Number(end),
    })),
  };
}

export async function getAvailability(db: Sql, clock: Clock, tenant: Tenant, query: AvailabilityQuery) {
  const context = await loadSchedulingContext(db, tenant, {
    zip: query.zip.trim(),
    industry: query.industry,
    date: query.date,
  });
  if (!context.zone) {
    return { date: query.date, zone: null, available_slots: [], fully_booked: false } satisfies Availability;
  }
  return availableSlots({
    date: query.date,
    now: clock.now(),
    durationMinutes: query.duration,
    zone: context.zone,
    staff: context.staff,
    blocks: context.blocks,
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
  db: Sql,
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
  const rows = await repository.loadPricingRows(db, tenant, { industry: input.industry, zip, couponCode });
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

export async function calculatePrice(
  db: Sql,
  clock: Clock,
  tenant: Tenant,
  body: PricingBody,
): Promise<PriceBreakdown> {
  const context = await loadPricingContext(db, tenant, {
    industry: body.industry,
    zip: body.zip,
    couponCode: body.coupon_code,
    now: clock.now(),
  });
  return priceConfiguration(context.catalog, body.configuration as Configuration);
}
