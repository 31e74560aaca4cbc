// The business setup read through the process's catalog cache (deps.catalogCache, core/cache.ts;
// docs/caching.md). A value is stored with the catalog version it was read at and used only while
// the database reports that version, which each request reads with one primary-key lookup, in the
// same statement as what is never cached: the crew's booked time and time off, and coupons (whose
// redemption count moves with every booking). A change made through any instance moves the
// version in its own transaction (triggers, migrations/0013), so the next request everywhere
// misses and reloads.
import type { Deps } from '../../core/deps.ts';
import type { Tenant } from '../../core/tenant.ts';
import { localDate } from '../availability/index.ts';
import * as repository from './catalog.repository.ts';

type SchedulingCatalog = Pick<repository.SchedulingRows, 'industry' | 'zone' | 'staff'>;
type PricingCatalog = Omit<repository.PricingRows, 'version' | 'coupon'>;

const schedulingKey = (input: { industry: string; zip: string }) =>
  JSON.stringify(['scheduling', input.industry, input.zip]);
const pricingKey = (input: { industry: string; zip: string | null }) =>
  JSON.stringify(['pricing', input.industry, input.zip]);

/** A value read at the current catalog version: from the cache, else `load`ed and kept. */
export async function atCatalogVersion<T extends object>(
  deps: Deps,
  tenant: Tenant,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  // read before loading: what `load` reads is then at least this version, never older
  const version = await repository.findCatalogVersion(deps.db, tenant);
  const cached = deps.catalogCache.get<T>(tenant, key);
  if (cached && cached.version === version) return cached.value;
  const value = await load();
  deps.catalogCache.set(tenant, key, { version, value });
  return value;
}

/**
 * loadSchedulingRows, with the zone and crew from the cache and their time read live; none read
 * with `crewTime: false` (`booked` empty), for a caller whose hold weighs it.
 */
export async function schedulingRows(
  deps: Deps,
  tenant: Tenant,
  input: { zip: string; industry: string; date?: string; at?: Date; crewTime?: boolean },
): Promise<repository.SchedulingRows> {
  const key = schedulingKey(input);
  const cached = deps.catalogCache.get<SchedulingCatalog>(tenant, key);
  if (cached) {
    const { zone, staff } = cached.value;
    const live =
      zone && input.crewTime !== false
        ? await repository.loadCrewTime(deps.db, tenant, {
            staffIds: staff.map((member) => member.id),
            timezone: zone.timezone,
            date: input.date,
            at: input.at,
          })
        : { version: await repository.findCatalogVersion(deps.db, tenant), date: localDay(input, zone), booked: {} };
    if (live.version === cached.version) return { ...cached.value, ...live };
  }
  const rows = await repository.loadSchedulingRows(deps.db, tenant, input);
  const { industry, zone, staff } = rows;
  deps.catalogCache.set(tenant, key, { version: rows.version, value: { industry, zone, staff } });
  return input.crewTime === false ? { ...rows, booked: {} } : rows;
}

/** The zone's local date asked for (`date`, or the one at `at`), as loadSchedulingRows works it out. */
function localDay(input: { date?: string; at?: Date }, zone: { timezone: string } | null): string | null {
  if (!zone) return null;
  return input.date ?? (input.at ? localDate(input.at.getTime(), zone.timezone) : null);
}

/** loadPricingRows, with all but the coupon from the cache. */
export async function pricingRows(
  deps: Deps,
  tenant: Tenant,
  input: { zip: string | null; industry: string; couponCode: string | null },
): Promise<repository.PricingRows> {
  const key = pricingKey(input);
  const cached = deps.catalogCache.get<PricingCatalog>(tenant, key);
  if (cached) {
    const live = await repository.findVersionAndCoupon(deps.db, tenant, input.couponCode);
    if (live.version === cached.version) return { ...cached.value, ...live };
  }
  const { version, coupon, ...catalog } = await repository.loadPricingRows(deps.db, tenant, input);
  deps.catalogCache.set(tenant, key, { version, value: catalog });
  return { version, coupon, ...catalog };
}

/** What a request reads live whatever the cache holds: the catalog version and the coupon it names. */
export type LiveCatalog = Pick<repository.PricingRows, 'version' | 'coupon'>;

/** The catalog version and the coupon named (null: none), in one primary-key read. */
export function readLiveCatalog(deps: Deps, tenant: Tenant, couponCode: string | null): Promise<LiveCatalog> {
  return repository.findVersionAndCoupon(deps.db, tenant, couponCode);
}

/**
 * pricingRows and schedulingRows for a new booking at `at`, given what was read live (sent with
 * the customer's lock): with both cached at that version no statement is needed. The crew's
 * booked time is not read: the booking's hold weighs it in the statement that writes the booking
 * (`booked` is empty).
 */
export async function bookingRows(
  deps: Deps,
  tenant: Tenant,
  input: { zip: string; industry: string; couponCode: string | null; at: Date; live: LiveCatalog },
): Promise<{ pricing: repository.PricingRows; scheduling: repository.SchedulingRows }> {
  const { version, coupon } = input.live;
  const pricing = deps.catalogCache.get<PricingCatalog>(tenant, pricingKey(input));
  const scheduling = deps.catalogCache.get<SchedulingCatalog>(tenant, schedulingKey(input));
  const zone = scheduling?.value.zone;
  return {
    pricing:
      pricing?.version === version ? { ...pricing.value, version, coupon } : await pricingRows(deps, tenant, input),
    scheduling:
      scheduling?.version === version
        ? { ...scheduling.value, version, date: localDay(input, zone ?? null), booked: {} }
        : await schedulingRows(deps, tenant, { ...input, crewTime: false }),
  };
}
