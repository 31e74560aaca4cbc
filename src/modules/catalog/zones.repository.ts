// Owns, with catalog.repository.ts: zones, zone_zips and zone_coverage as the API and the
// dashboard write them. zone_coverage is the rule "a ZIP is served for an industry by at most
// one active zone" (its unique index), rewritten with every zone change in its transaction.
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type PageRequest, pageOfTable } from '../../core/paging.ts';
import { replaceLinks, updateColumns } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type { WeeklyHours } from '../availability/index.ts';

export interface ZoneRow {
  id: string;
  name: string;
  timezone: string;
  zips: string[];
  industries: string[];
  hours: WeeklyHours;
  slot_interval_minutes: number;
  travel_buffer_minutes: number;
  lead_time_minutes: number;
  price_adjustment_percent: string | number;
  tax_rate: string | number;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

/** The unique index behind the ZIP rule (→ 409 resource_already_exists, param zips). */
export const ZONE_COVERAGE_CONSTRAINT = 'zone_coverage_one_zone';

const ZONE_COLUMNS = sql.raw(`id, name, timezone, industries, hours, slot_interval_minutes, travel_buffer_minutes,
  lead_time_minutes, price_adjustment_percent, tax_rate, is_active, created_at, updated_at,
  array(select zz.zip from zone_zips zz where zz.zone_id = zones.id order by zz.zip) as zips`);

const live = (tenant: Tenant) => sql`${tenantIs(tenant)} and archived_at is null`;

/**
 * Serialises the zone writes of one tenant, so that name checks and the coverage pre-check
 * see every other writer's result (the unique index stays the last word).
 */
export async function lockZones(tx: Sql, tenant: Tenant): Promise<void> {
  await query(tx, sql`select pg_advisory_xact_lock(hashtext(${`zones|${tenant.accountId}|${tenant.environment}`}))`);
}

export function findZone(db: Sql, tenant: Tenant, id: string, options: { forUpdate?: boolean } = {}) {
  const lock = options.forUpdate ? sql` for update` : sql``;
  return queryOne<ZoneRow>(db, sql`select ${ZONE_COLUMNS} from zones where ${live(tenant)} and id = ${id}${lock}`);
}

/** Live zones by id (the zones a crew member works in); others are left out. */
export function findZones(db: Sql, tenant: Tenant, ids: string[]) {
  return query<ZoneRow>(
    db,
    sql`select ${ZONE_COLUMNS} from zones where ${live(tenant)} and id = any(${textArray(ids)}) order by position, id`,
  );
}

export function listZones(db: Sql, tenant: Tenant, filters: { ids?: string[] }, page: PageRequest) {
  const conditions: SQL[] = [live(tenant)];
  if (filters.ids) conditions.push(sql`id = any(${textArray(filters.ids)})`);
  return pageOfTable<ZoneRow>(db, { table: 'zones', columns: ZONE_COLUMNS, where: conditions }, page);
}

/** A live zone of another id with this name (ignoring case). */
export function findZoneNamed(db: Sql, tenant: Tenant, name: string, exceptId: string | null) {
  return queryOne<{ id: string; name: string }>(
    db,
    sql`select id, name from zones where ${live(tenant)} and lower(name) = lower(${name})
          and id is distinct from ${exceptId} limit 1`,
  );
}

/** Which of these industry slugs the tenant has (live, active or not). */
export async function knownIndustries(db: Sql, tenant: Tenant, slugs: string[]): Promise<Set<string>> {
  const rows = await query<{ slug: string }>(
    db,
    sql`select slug from industries where ${live(tenant)} and slug = any(${textArray(slugs)})`,
  );
  return new Set(rows.map((row) => row.slug));
}

export interface ZoneValues {
  name: string;
  timezone: string;
  industries: string[];
  hours: WeeklyHours;
  slot_interval_minutes: number;
  travel_buffer_minutes: number;
  lead_time_minutes: number;
  price_adjustment_percent: number;
  tax_rate: number;
  is_active: boolean;
}

export async function insertZone(tx: Sql, tenant: Tenant, id: string, zone: ZoneValues, now: Date) {
  await query(
    tx,
    sql`insert into zones (id, account_id, environment, name, timezone, industries, hours, slot_interval_minutes,
          travel_buffer_minutes, lead_time_minutes, price_adjustment_percent, tax_rate, is_active, position,
          created_at, updated_at)
        values (${id}, ${tenant.accountId}, ${tenant.environment}, ${zone.name}, ${zone.timezone},
          ${textArray(zone.industries)}, ${JSON.stringify(zone.hours)}::jsonb, ${zone.slot_interval_minutes},
          ${zone.travel_buffer_minutes}, ${zone.lead_time_minutes}, ${zone.price_adjustment_percent}, ${zone.tax_rate},
          ${zone.is_active},
          (select coalesce(max(position), -1) + 1 from zones where ${tenantIs(tenant)}), ${now}, ${now})`,
  );
}

export async function updateZone(tx: Sql, tenant: Tenant, id: string, zone: ZoneValues, now: Date) {
  await query(
    tx,
    sql`update zones set name = ${zone.name}, timezone = ${zone.timezone}, industries = ${textArray(zone.industries)},
          hours = ${JSON.stringify(zone.hours)}::jsonb, slot_interval_minutes = ${zone.slot_interval_minutes},
          travel_buffer_minutes = ${zone.travel_buffer_minutes}, lead_time_minutes = ${zone.lead_time_minutes},
          price_adjustment_percent = ${zone.price_adjustment_percent}, tax_rate = ${zone.tax_rate},
          is_active = ${zone.is_active}, updated_at = ${now}
        where ${tenantIs(tenant)} and id = ${id}`,
  );
}

export async function archiveZone(tx: Sql, tenant: Tenant, id: string, now: Date) {
  await updateColumns(tx, 'zones', { tenant, id }, { archived_at: now }, now);
  await query(tx, sql`delete from zone_coverage where ${tenantIs(tenant)} and zone_id = ${id}`);
}

export function replaceZips(tx: Sql, tenant: Tenant, zoneId: string, zips: string[]) {
  return replaceLinks(tx, tenant, { table: 'zone_zips', owner: 'zone_id', value: 'zip' }, zoneId, zips);
}

/** The live, active zone (other than `zoneId`) already serving one of these ZIP x industry pairs. */
export function findCoverageHolder(db: Sql, tenant: Tenant, zoneId: string, zips: string[], industries: string[]) {
  return queryOne<{ zone_id: string; name: string; zip: string; industry: string }>(
    db,
    sql`select c.zone_id, z.name, c.zip, c.industry from zone_coverage c join zones z on z.id = c.zone_id
        where ${tenantIs(tenant, 'c')} and c.zone_id <> ${zoneId}
          and c.zip = any(${textArray(zips)}) and c.industry = any(${textArray(industries)})
        order by c.zip, c.industry limit 1`,
  );
}

/**
 * Rewrites the coverage rows of one zone (or, without `zoneId`, of every zone: the catalog
 * import) from its ZIPs and industries; none for an inactive or archived zone. Fails with the
 * unique violation ZONE_COVERAGE_CONSTRAINT when another active zone serves a pair.
 */
export async function rewriteCoverage(tx: Sql, tenant: Tenant, zoneId?: string) {
  const oneZone = zoneId === undefined ? sql`` : sql` and zone_id = ${zoneId}`;
  await query(tx, sql`delete from zone_coverage where ${tenantIs(tenant)}${oneZone}`);
  const oneZ = zoneId === undefined ? sql`` : sql` and z.id = ${zoneId}`;
  await query(
    tx,
    sql`insert into zone_coverage (account_id, environment, zone_id, zip, industry)
        select z.account_id, z.environment, z.id, zz.zip, industry
        from zones z join zone_zips zz on zz.zone_id = z.id cross join lateral unnest(z.industries) as industry
        where ${tenantIs(tenant, 'z')} and z.is_active and z.archived_at is null${oneZ}`,
  );
}

/** The tenant's live industries (active or not), in catalog order: what a zone or crew member may serve. */
export function listIndustryChoices(db: Sql, tenant: Tenant) {
  return query<{ slug: string; name: string }>(
    db,
    sql`select slug, name from industries where ${live(tenant)} order by position, id`,
  );
}
