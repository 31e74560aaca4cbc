// Owns: industries, product_categories, products, extras, zones, zone_zips, staff, staff_zones,
// coupons, catalog_settings (written by catalog import, catalog-file.repository.ts) and
// staff_time_blocks (crew time: bookings hold and free it through the catalog's services, and
// staff time-off will share its exclusion constraint). Also reads accounts.currency (the
// fallback of the environment's own currency) and catalog_versions (moved by triggers, read
// with what it versions; catalog-cache.ts).
//
// SQL for the catalog's readers: the services endpoints, and the scheduling and pricing
// contexts (each loaded in one round trip, so bookings can load them inside a transaction).
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type { BookedTime, WeeklyHours } from '../availability/index.ts';

export interface IndustryRow {
  id: string;
  slug: string;
  name: string;
  description: string;
  icon: string;
  configuration_type: 'room_based' | 'item_based' | 'section_based';
  is_active: boolean;
}

const INDUSTRY_COLUMNS = sql.raw('id, slug, name, description, icon, configuration_type, is_active');

/** An active industry by slug (inactive and archived industries are not offered). */
export function findActiveIndustry(db: Sql, tenant: Tenant, slug: string): Promise<IndustryRow | undefined> {
  return queryOne<IndustryRow>(
    db,
    sql`select ${INDUSTRY_COLUMNS} from industries
        where ${tenantIs(tenant)} and slug = ${slug} and is_active and archived_at is null`,
  );
}

export interface CategoryRow {
  id: string;
  slug: string;
  name: string;
}

export interface ProductRow {
  id: string;
  category_id: string;
  name: string;
  description: string;
  base_price: number;
  minutes: number;
  in_catalog: boolean;
}

export async function listCategoriesWithProducts(db: Sql, tenant: Tenant, industryId: string) {
  const categories = await query<CategoryRow>(
    db,
    sql`select id, slug, name from product_categories
        where ${tenantIs(tenant)} and industry_id = ${industryId} and archived_at is null order by position, id`,
  );
  const products = await query<ProductRow>(
    db,
    sql`select id, category_id, name, description, base_price, minutes, in_catalog from products
        where ${tenantIs(tenant)} and industry_id = ${industryId} and archived_at is null order by position, id`,
  );
  return { categories, products };
}

export interface ExtraRow {
  id: string;
  name: string;
  description: string;
  price: number;
  price_type: 'per_unit' | 'flat';
  unit_label: string | null;
  minutes: number;
}

export function listExtras(db: Sql, tenant: Tenant, industryId: string): Promise<ExtraRow[]> {
  return query<ExtraRow>(
    db,
    sql`select id, name, description, price, price_type, unit_label, minutes from extras
        where ${tenantIs(tenant)} and industry_id = ${industryId} and archived_at is null order by position, id`,
  );
}

/** The first active zone (in catalog order) covering the ZIP and serving the industry. */
function zoneFor(tenant: Tenant, zip: string | null, industrySlug: string, columns: SQL): SQL {
  return sql`select ${columns} from zones z
    where ${tenantIs(tenant, 'z')} and z.is_active and z.archived_at is null and ${industrySlug} = any(z.industries)
      and exists (select 1 from zone_zips zz
                  where ${tenantIs(tenant, 'zz')} and zz.zip = ${zip} and zz.zone_id = z.id)
    order by z.position, z.id limit 1`;
}

function activeIndustry(tenant: Tenant, slug: string): SQL {
  return sql`select id, slug, configuration_type from industries
    where ${tenantIs(tenant)} and slug = ${slug} and is_active and archived_at is null`;
}

/**
 * The environment's catalog version (migrations/0013: triggers move it with every change to the
 * business setup), as text; null before the first change. Read in the same statement as what
 * it versions, so the two agree.
 */
function catalogVersion(tenant: Tenant): SQL {
  return sql`(select version::text from catalog_versions where ${tenantIs(tenant)})`;
}

export async function findCatalogVersion(db: Sql, tenant: Tenant): Promise<string | null> {
  const row = await queryOne<{ version: string | null }>(db, sql`select ${catalogVersion(tenant)} as version`);
  return row?.version ?? null;
}

/**
 * The crew's booked time and time off (never cached) from the `day` CTE's local midnight, for two
 * days, as availability reads it (BookedTime): JSON text of each member's [start, end, …] in epoch
 * ms. Written as text by string_agg: json_build_array per block, with extract()'s numeric epoch,
 * cost PostgreSQL 0.8 ms for 400 blocks, this 0.36 ms, and the server parses 25 arrays of numbers
 * instead of 400 arrays of strings and numbers.
 */
function crewTimeOnDay(tenant: Tenant, staffIds: SQL): SQL {
  return sql`coalesce((select '{' || string_agg(to_json(member.staff_id)::text || ':[' || member.times || ']', ',') || '}'
                  from (select b.staff_id,
                               string_agg((date_part('epoch', lower(b.during)) * 1000)::bigint || ','
                                          || (date_part('epoch', upper(b.during)) * 1000)::bigint, ',') as times
                        from staff_time_blocks b
                        where ${tenantIs(tenant, 'b')} and b.staff_id = any(${staffIds})
                          -- a scalar subquery, so that the window is an index condition
                          and b.during && (select tstzrange((day.date::timestamp) at time zone day.timezone,
                                                            ((day.date + 2)::timestamp) at time zone day.timezone)
                                           from day)
                        group by b.staff_id) member),
                 '{}')`;
}

export interface SchedulingRows {
  version: string | null;
  industry: { id: string; slug: string; configuration_type: IndustryRow['configuration_type'] } | null;
  zone: {
    id: string;
    name: string;
    timezone: string;
    hours: WeeklyHours;
    slot_interval_minutes: number;
    travel_buffer_minutes: number;
    lead_time_minutes: number;
  } | null;
  date: string | null;
  staff: { id: string; hours: WeeklyHours }[];
  booked: BookedTime;
}

/** A row whose `booked` came as crewTimeOnDay's text, with it read. */
function withBookedTime<Row extends { booked: string }>(row: Row): Omit<Row, 'booked'> & { booked: BookedTime } {
  return { ...row, booked: JSON.parse(row.booked) as BookedTime };
}

/**
 * The zone for a ZIP and industry, its crew for the industry, and their booked time from the
 * local day's midnight for two days. `date` is the zone's local date; or give `at` and the
 * local date of that instant is used.
 */
export async function loadSchedulingRows(
  db: Sql,
  tenant: Tenant,
  input: { zip: string; industry: string; date?: string; at?: Date },
): Promise<SchedulingRows> {
  const zoneColumns = sql.raw(
    'z.id, z.name, z.timezone, z.hours, z.slot_interval_minutes, z.travel_buffer_minutes, z.lead_time_minutes',
  );
  const row = await queryOne<Omit<SchedulingRows, 'booked'> & { booked: string }>(
    db,
    sql`with industry as (${activeIndustry(tenant, input.industry)}),
      zone as (${zoneFor(tenant, input.zip, input.industry, zoneColumns)}),
      day as (
        select coalesce(${input.date ?? null}::date,
                        (${input.at ?? null}::timestamptz at time zone zone.timezone)::date) as date,
               zone.timezone
        from zone),
      crew as (
        select s.id, s.hours, s.position from staff s join staff_zones sz on sz.staff_id = s.id
        where ${tenantIs(tenant, 's')} and s.is_active and s.archived_at is null
          and ${input.industry} = any(s.industries) and sz.zone_id = (select id from zone))
      select
        ${catalogVersion(tenant)} as version,
        (select row_to_json(industry) from industry) as industry,
        (select row_to_json(zone) from zone) as zone,
        (select date::text from day) as date,
        coalesce((select json_agg(json_build_object('id', id, 'hours', hours) order by position, id) from crew),
                 '[]'::json) as staff,
        ${crewTimeOnDay(tenant, sql`array(select id from crew)`)} as booked`,
  );
  if (!row) throw new Error('the scheduling query returned no row');
  return withBookedTime(row);
}

/**
 * The catalog version and, for a cached zone and crew, the crew's time around the zone's local
 * `date` (or the local date at `at`): availability's one query when the catalog is cached.
 */
export async function loadCrewTime(
  db: Sql,
  tenant: Tenant,
  input: { staffIds: string[]; timezone: string; date?: string; at?: Date },
): Promise<Pick<SchedulingRows, 'version' | 'date' | 'booked'>> {
  const row = await queryOne<Pick<SchedulingRows, 'version' | 'date'> & { booked: string }>(
    db,
    sql`with day as (
        select coalesce(${input.date ?? null}::date,
                        (${input.at ?? null}::timestamptz at time zone ${input.timezone}::text)::date) as date,
               ${input.timezone}::text as timezone)
      select ${catalogVersion(tenant)} as version, (select date::text from day) as date,
        ${crewTimeOnDay(tenant, textArray(input.staffIds))} as booked`,
  );
  if (!row) throw new Error('the crew time query returned no row');
  return withBookedTime(row);
}

export interface CouponRow {
  id: string;
  code: string;
  description: string;
  percent_off: number | null;
  amount_off: number | null;
  valid_from: string | null;
  valid_until: string | null;
  max_redemptions: number | null;
  times_redeemed: number;
  industries: string[] | null;
  is_active: boolean;
}

export interface PricingRows {
  version: string | null;
  industry: SchedulingRows['industry'];
  zone: { id: string; name: string; price_adjustment_percent: number; tax_rate: number } | null;
  products: {
    id: string;
    name: string;
    base_price: number;
    minutes: number;
    in_catalog: boolean;
    room: 'visit' | 'bedroom' | 'bathroom' | null;
  }[];
  extras: { id: string; name: string; price: number; price_type: 'per_unit' | 'flat'; minutes: number }[];
  coupon: CouponRow | null;
  settings: { frequency_discounts: Record<string, number>; cancellation_policy: Record<string, number> } | null;
  currency: string;
}

/** The environment's live coupon with this code, as JSON (coupons are read live, never cached). */
function couponNamed(tenant: Tenant, code: string | null): SQL {
  return sql`(select row_to_json(c) from (
           select id, code, description, percent_off, amount_off, valid_from, valid_until, max_redemptions,
                  times_redeemed, industries, is_active
           from coupons
           where ${tenantIs(tenant)} and lower(code) = lower(${code}) and archived_at is null) c)`;
}

/** The catalog version and the coupon: pricing's one query when the rest of the catalog is cached. */
export async function findVersionAndCoupon(
  db: Sql,
  tenant: Tenant,
  couponCode: string | null,
): Promise<Pick<PricingRows, 'version' | 'coupon'>> {
  const row = await queryOne<Pick<PricingRows, 'version' | 'coupon'>>(
    db,
    sql`select ${catalogVersion(tenant)} as version, ${couponNamed(tenant, couponCode)} as coupon`,
  );
  return row ?? { version: null, coupon: null };
}

/** Everything a price needs, in one round trip. */
export async function loadPricingRows(
  db: Sql,
  tenant: Tenant,
  input: { zip: string | null; industry: string; couponCode: string | null },
): Promise<PricingRows> {
  const zoneColumns = sql.raw('z.id, z.name, z.price_adjustment_percent, z.tax_rate');
  const row = await queryOne<PricingRows>(
    db,
    sql`with industry as (${activeIndustry(tenant, input.industry)}),
      zone as (${zoneFor(tenant, input.zip, input.industry, zoneColumns)})
      select
        ${catalogVersion(tenant)} as version,
        (select row_to_json(industry) from industry) as industry,
        (select row_to_json(zone) from zone) as zone,
        coalesce((select json_agg(json_build_object('id', p.id, 'name', p.name, 'base_price', p.base_price,
                    'minutes', p.minutes, 'in_catalog', p.in_catalog, 'room', p.room))
                  from products p
                  where ${tenantIs(tenant, 'p')} and p.industry_id = (select id from industry)
                    and p.archived_at is null), '[]'::json) as products,
        coalesce((select json_agg(json_build_object('id', e.id, 'name', e.name, 'price', e.price,
                    'price_type', e.price_type, 'minutes', e.minutes))
                  from extras e
                  where ${tenantIs(tenant, 'e')} and e.industry_id = (select id from industry)
                    and e.archived_at is null), '[]'::json) as extras,
        ${couponNamed(tenant, input.couponCode)} as coupon,
        (select row_to_json(s) from (
           select frequency_discounts, cancellation_policy from catalog_settings where ${tenantIs(tenant)}) s)
          as settings,
        -- the environment's currency (Settings), else the account's
        coalesce((select currency from catalog_settings where ${tenantIs(tenant)}),
                 (select currency from accounts where id = ${tenant.accountId})) as currency`,
  );
  if (!row) throw new Error('the pricing query returned no row');
  return row;
}

/** The ZIPs a zone covers (none for an unknown zone). */
export async function findZoneZips(db: Sql, tenant: Tenant, zoneId: string): Promise<string[]> {
  const rows = await query<{ zip: string }>(
    db,
    sql`select zip from zone_zips where ${tenantIs(tenant)} and zone_id = ${zoneId}`,
  );
  return rows.map((row) => row.zip);
}

/** Names of staff by id; ids of another tenant are left out. */
export function findStaffNames(db: Sql, tenant: Tenant, staffIds: string[]) {
  return query<{ id: string; name: string }>(
    db,
    sql`select id, name from staff where ${tenantIs(tenant)} and id = any(${textArray(staffIds)})`,
  );
}

export function findSettings(db: Sql, tenant: Tenant) {
  return queryOne<{ frequency_discounts: Record<string, number>; cancellation_policy: Record<string, number> }>(
    db,
    sql`select frequency_discounts, cancellation_policy from catalog_settings where ${tenantIs(tenant)}`,
  );
}

/** Counts one use of a coupon unless that passes max_redemptions (under the coupon's row lock). */
export async function redeemCoupon(tx: Sql, tenant: Tenant, couponId: string): Promise<boolean> {
  const row = await queryOne<{ id: string }>(
    tx,
    sql`update coupons set times_redeemed = times_redeemed + 1
        where ${tenantIs(tenant)} and id = ${couponId}
          and (max_redemptions is null or times_redeemed < max_redemptions)
        returning id`,
  );
  return row !== undefined;
}

/** Holds a crew member's time; fails with the exclusion violation staff_time_blocks_no_overlap if taken. */
export async function insertTimeBlock(
  tx: Sql,
  tenant: Tenant,
  block: { staffId: string; bookingId: string | null; start: Date; end: Date },
): Promise<void> {
  await query(
    tx,
    sql`insert into staff_time_blocks (account_id, environment, staff_id, booking_id, during)
        values (${tenant.accountId}, ${tenant.environment}, ${block.staffId}, ${block.bookingId},
                tstzrange(${block.start}::timestamptz, ${block.end}::timestamptz, '[)'))`,
  );
}

/** Frees the crew's time held for a booking (cancelled, or about to be rescheduled). */
export async function releaseTimeBlocks(tx: Sql, tenant: Tenant, bookingId: string): Promise<void> {
  await query(tx, sql`delete from staff_time_blocks where ${tenantIs(tenant)} and booking_id = ${bookingId}`);
}

/** Time to hold for one of `candidates` (crew ids), and how to choose among those free then. */
export interface CrewHold {
  candidates: string[];
  /** Chosen first when free (a rescheduled or recurring booking keeps its crew when it can). */
  preferred: string[];
  bookingId: string | null;
  start: Date;
  end: Date;
  /** The zone's local date and time zone: "busy" counts a person's blocks that day. */
  date: string;
  timezone: string;
}

const heldRange = (hold: { start: Date; end: Date }) =>
  sql`tstzrange(${hold.start}::timestamptz, ${hold.end}::timestamptz, '[)')`;

/**
 * Holds the time for one of the candidates free then: the preferred first, then the least busy
 * (fewest blocks that day, the zone's local midnight to midnight), ties in the candidates' order.
 * One row (`staff_id`) when someone was held; none when nobody was free, or when the one picked was
 * taken meanwhile by a concurrent transaction: ON CONFLICT DO NOTHING takes the exclusion
 * constraint as its arbiter and waits for that transaction to end, so two transactions never both
 * get a person. The one picked must still be active: the key-share lock waits for a concurrent
 * archive or deactivation (which lock the row for update) and then reads the member as it left it.
 * Run alone, or as a CTE of the write that needs the time.
 */
export function crewHold(tenant: Tenant, hold: CrewHold): SQL {
  // Each range is a subquery, computed once: the plan is generic (a named statement), where an
  // expression of parameters is computed again for every row it meets (two time-zone conversions
  // per block read). Timed alone on 130 blocks, the hold went from 0.66 to 0.61 ms (medians of 10).
  const day = sql`(select tstzrange((${hold.date}::date::timestamp) at time zone ${hold.timezone}::text,
                                    ((${hold.date}::date + 1)::timestamp) at time zone ${hold.timezone}::text))`;
  const held = sql`(select ${heldRange(hold)})`;
  const candidates = textArray(hold.candidates);
  // One pass over the blocks around the day, the candidates' kept: how busy each is, and whether
  // taken then. `is true` keeps the candidates out of the index condition (same rows): written
  // plainly, after an ANALYZE of a busy calendar PostgreSQL chose to probe the (staff_id, during)
  // index once per candidate, 1.2-1.5 ms for 41, against 0.6-0.9 ms for one scan of the window.
  return sql`insert into staff_time_blocks (account_id, environment, staff_id, booking_id, during)
        select ${tenant.accountId}, ${tenant.environment}, picked.id, ${hold.bookingId}, ${heldRange(hold)}
        from (select c.id from unnest(${candidates}) with ordinality as c(id, n)
              left join (select b.staff_id, count(*) filter (where b.during && ${day}) as busy,
                                bool_or(b.during && ${held}) as taken
                         from staff_time_blocks b
                         where ${tenantIs(tenant, 'b')} and (b.staff_id = any(${candidates})) is true
                           and b.during && range_merge(${day}, ${held})
                         group by b.staff_id) crew_time on crew_time.staff_id = c.id
              where crew_time.taken is not true
              order by c.id = any(${textArray(hold.preferred)}) desc, coalesce(crew_time.busy, 0), c.n
              limit 1) picked
        where exists (select 1 from staff s where ${tenantIs(tenant, 's')} and s.id = picked.id
                        and s.is_active and s.archived_at is null for key share)
        on conflict do nothing returning staff_id`;
}

/** Runs a crewHold statement on its own: the held member's id, undefined when nobody was let through. */
export async function runCrewHold(tx: Sql, hold: SQL): Promise<string | undefined> {
  const [row] = await query<{ staff_id: string }>(tx, hold);
  return row?.staff_id;
}

/** The hold's candidates still active and free then, in their order (after a hold let nobody through). */
export async function freeCandidates(db: Sql, tenant: Tenant, hold: CrewHold): Promise<string[]> {
  const rows = await query<{ id: string }>(
    db,
    sql`select c.id from unnest(${textArray(hold.candidates)}) with ordinality as c(id, n)
        join staff s on ${tenantIs(tenant, 's')} and s.id = c.id and s.is_active and s.archived_at is null
        where not exists (select 1 from staff_time_blocks b where ${tenantIs(tenant, 'b')} and b.staff_id = c.id
                            and b.during && ${heldRange(hold)})
        order by c.n`,
  );
  return rows.map((row) => row.id);
}

/** Zones' names and time zones by id, archived zones included (old bookings still name them). */
export function findZoneClocks(db: Sql, tenant: Tenant, zoneIds: string[]) {
  return query<{ id: string; name: string; timezone: string }>(
    db,
    sql`select id, name, timezone from zones where ${tenantIs(tenant)} and id = any(${textArray(zoneIds)})`,
  );
}
