// Owns, with catalog.repository.ts: the catalog's tables, written only here (import).
// SQL behind catalog export and import: the environment's whole catalog read in file order,
// and written back as upserts plus archiving of what the file no longer has.
import { query, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type { CouponRow, IndustryRow } from './catalog.repository.ts';

export const CATALOG_TABLES = [
  'industries',
  'product_categories',
  'products',
  'extras',
  'zones',
  'staff',
  'coupons',
] as const;
export type CatalogTable = (typeof CATALOG_TABLES)[number];

export interface CatalogRows {
  industries: IndustryRow[];
  product_categories: { id: string; industry_id: string; slug: string; name: string }[];
  products: {
    id: string;
    category_id: string;
    slug: string;
    name: string;
    description: string;
    base_price: number;
    minutes: number;
    in_catalog: boolean;
    room: 'visit' | 'bedroom' | 'bathroom' | null;
  }[];
  extras: {
    id: string;
    industry_id: string;
    slug: string;
    name: string;
    description: string;
    price: number;
    price_type: 'per_unit' | 'flat';
    unit_label: string | null;
    minutes: number;
  }[];
  zones: {
    id: string;
    name: string;
    timezone: string;
    zips: string[];
    industries: string[];
    hours: Record<string, { open: string; close: string } | null>;
    slot_interval_minutes: number;
    travel_buffer_minutes: number;
    lead_time_minutes: number;
    price_adjustment_percent: number;
    tax_rate: number;
    is_active: boolean;
  }[];
  staff: {
    id: string;
    name: string;
    email: string | null;
    phone: string | null;
    zones: string[];
    industries: string[];
    hours: Record<string, { open: string; close: string } | null>;
    is_active: boolean;
  }[];
  coupons: Omit<CouponRow, 'times_redeemed'>[];
}

/** The live (not archived) catalog of an environment, in catalog order. */
export async function readCatalogRows(db: Sql, tenant: Tenant): Promise<CatalogRows> {
  const live = sql`${tenantIs(tenant)} and archived_at is null`;
  const order = sql`order by position, id`;
  // in sequence, so that this also runs inside a transaction
  const industries = await query<CatalogRows['industries'][number]>(
    db,
    sql`select id, slug, name, description, icon, configuration_type, is_active from industries where ${live} ${order}`,
  );
  const categories = await query<CatalogRows['product_categories'][number]>(
    db,
    sql`select id, industry_id, slug, name from product_categories where ${live} ${order}`,
  );
  const products = await query<CatalogRows['products'][number]>(
    db,
    sql`select id, category_id, slug, name, description, base_price, minutes, in_catalog, room
          from products where ${live} ${order}`,
  );
  const extras = await query<CatalogRows['extras'][number]>(
    db,
    sql`select id, industry_id, slug, name, description, price, price_type, unit_label, minutes
          from extras where ${live} ${order}`,
  );
  const zones = await query<CatalogRows['zones'][number]>(
    db,
    sql`select id, name, timezone, industries, hours, slot_interval_minutes, travel_buffer_minutes,
                 lead_time_minutes, price_adjustment_percent, tax_rate, is_active,
                 array(select zip from zone_zips zz where zz.zone_id = zones.id order by zip) as zips
          from zones where ${live} ${order}`,
  );
  const staff = await query<CatalogRows['staff'][number]>(
    db,
    sql`select id, name, email, phone, industries, hours, is_active,
                 array(select z.name from staff_zones sz join zones z on z.id = sz.zone_id
                       where sz.staff_id = staff.id and z.archived_at is null order by z.position, z.id) as zones
          from staff where ${live} ${order}`,
  );
  const coupons = await query<CatalogRows['coupons'][number]>(
    db,
    sql`select id, code, description, percent_off, amount_off, valid_from, valid_until, max_redemptions,
                 industries, is_active
          from coupons where ${live} ${order}`,
  );
  return { industries, product_categories: categories, products, extras, zones, staff, coupons };
}

/** Every row of the environment's catalog, archived ones too, by the keys an import matches on. */
export interface ExistingRow {
  id: string;
  /** industry_id for categories, products and extras. */
  parent: string | null;
  key: string;
}

const NATURAL_KEYS: Record<CatalogTable, { parent: string; key: string }> = {
  industries: { parent: 'null', key: 'slug' },
  product_categories: { parent: 'industry_id', key: 'slug' },
  products: { parent: 'industry_id', key: 'slug' },
  extras: { parent: 'industry_id', key: 'slug' },
  zones: { parent: 'null', key: 'lower(name)' },
  staff: { parent: 'null', key: "coalesce(lower(email), '') || '|' || lower(name)" },
  coupons: { parent: 'null', key: 'lower(code)' },
};

export async function readExistingRows(db: Sql, tenant: Tenant): Promise<Record<CatalogTable, ExistingRow[]>> {
  // one query after another: `db` may be a transaction, which runs one query at a time
  const results: ExistingRow[][] = [];
  for (const table of CATALOG_TABLES) {
    const { parent, key } = NATURAL_KEYS[table];
    results.push(
      await query<ExistingRow>(
        db,
        sql`select id, ${sql.raw(parent)} as parent, ${sql.raw(key)} as key
            from ${sql.identifier(table)} where ${tenantIs(tenant)}
            order by archived_at nulls first, position, id for update`,
      ),
    );
  }
  return Object.fromEntries(CATALOG_TABLES.map((table, index) => [table, results[index]])) as Record<
    CatalogTable,
    ExistingRow[]
  >;
}

/** A row to write: column name to SQL value. */
export type RowValues = Record<string, SQL>;

const CHUNK = 200;

/** Inserts rows or updates them in place by id (only rows of this tenant). */
export async function upsertRows(tx: Sql, tenant: Tenant, table: CatalogTable, rows: RowValues[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = ['account_id', 'environment', ...Object.keys(rows[0] as RowValues)];
  const updates = columns
    .filter((column) => !['id', 'account_id', 'environment'].includes(column))
    .map((column) => sql`${sql.identifier(column)} = excluded.${sql.identifier(column)}`);
  for (let start = 0; start < rows.length; start += CHUNK) {
    const values = rows
      .slice(start, start + CHUNK)
      .map((row) => sql`(${tenant.accountId}, ${tenant.environment}, ${sql.join(Object.values(row), sql`, `)})`);
    await query(
      tx,
      sql`insert into ${sql.identifier(table)} (${sql.join(
        columns.map((column) => sql.identifier(column)),
        sql`, `,
      )})
          values ${sql.join(values, sql`, `)}
          on conflict (id) do update set ${sql.join(updates, sql`, `)}
          where ${sql.identifier(table)}.account_id = excluded.account_id
            and ${sql.identifier(table)}.environment = excluded.environment`,
    );
  }
}

/** Frees unique slugs and codes of rows about to be rewritten, so that a file may swap them. */
export async function releaseUniqueKeys(tx: Sql, tenant: Tenant, industryIds: string[], couponIds: string[]) {
  await query(
    tx,
    sql`update industries set slug = id where ${tenantIs(tenant)} and id = any(${textArray(industryIds)})`,
  );
  await query(tx, sql`update coupons set code = id where ${tenantIs(tenant)} and id = any(${textArray(couponIds)})`);
}

/** Archives the rows of a table that the imported file no longer has. */
export async function archiveOthers(tx: Sql, tenant: Tenant, table: CatalogTable, keep: string[], now: Date) {
  await query(
    tx,
    sql`update ${sql.identifier(table)} set archived_at = ${now}
        where ${tenantIs(tenant)} and archived_at is null and not (id = any(${textArray(keep)}))`,
  );
}

export async function replaceZoneZips(tx: Sql, tenant: Tenant, zips: { zoneId: string; zip: string }[]) {
  await query(tx, sql`delete from zone_zips where ${tenantIs(tenant)}`);
  for (let start = 0; start < zips.length; start += CHUNK) {
    const values = zips
      .slice(start, start + CHUNK)
      .map((z) => sql`(${tenant.accountId}, ${tenant.environment}, ${z.zoneId}, ${z.zip})`);
    await query(
      tx,
      sql`insert into zone_zips (account_id, environment, zone_id, zip) values ${sql.join(values, sql`, `)}`,
    );
  }
}

export async function replaceStaffZones(tx: Sql, tenant: Tenant, links: { staffId: string; zoneId: string }[]) {
  await query(tx, sql`delete from staff_zones where ${tenantIs(tenant)}`);
  for (let start = 0; start < links.length; start += CHUNK) {
    const values = links
      .slice(start, start + CHUNK)
      .map((l) => sql`(${tenant.accountId}, ${tenant.environment}, ${l.staffId}, ${l.zoneId})`);
    await query(
      tx,
      sql`insert into staff_zones (account_id, environment, staff_id, zone_id) values ${sql.join(values, sql`, `)}`,
    );
  }
}

export async function saveSettings(
  tx: Sql,
  tenant: Tenant,
  settings: { frequency_discounts: object; cancellation_policy: object },
  now: Date,
) {
  await query(
    tx,
    sql`insert into catalog_settings (account_id, environment, frequency_discounts, cancellation_policy, updated_at)
        values (${tenant.accountId}, ${tenant.environment}, ${JSON.stringify(settings.frequency_discounts)}::jsonb,
                ${JSON.stringify(settings.cancellation_policy)}::jsonb, ${now})
        on conflict (account_id, environment) do update
          set frequency_discounts = excluded.frequency_discounts,
              cancellation_policy = excluded.cancellation_policy, updated_at = excluded.updated_at`,
  );
}
