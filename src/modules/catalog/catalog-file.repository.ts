// Owns, with catalog.repository.ts: the catalog's tables, written only here (import).
// SQL behind catalog export and import: the environment's whole catalog read in file order,
// and written back as upserts plus archiving of what the file no longer has.
import { query, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type { CouponRow, IndustryRow } from './catalog.repository.ts';
import type { ExtraRow, ProductRow } from './industries.repository.ts';
import type { StaffRow } from './staff.repository.ts';
import type { ZoneValues } from './zones.repository.ts';

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
  products: Omit<ProductRow, 'industry_id' | 'position'>[];
  extras: Omit<ExtraRow, 'position'>[];
  zones: (ZoneValues & { id: string; zips: string[] })[];
  staff: Omit<StaffRow, 'created_at' | 'updated_at'>[];
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
    sql`select id, name, timezone,
                 array(select zip from zone_zips zz where zz.zone_id = zones.id order by zip) as zips,
                 industries, hours, slot_interval_minutes, travel_buffer_minutes, lead_time_minutes,
                 price_adjustment_percent, tax_rate, is_active
          from zones where ${live} ${order}`,
  );
  const staff = await query<CatalogRows['staff'][number]>(
    db,
    sql`select id, name, email, phone,
                 array(select z.name from staff_zones sz join zones z on z.id = sz.zone_id
                       where sz.staff_id = staff.id and z.archived_at is null order by z.position, z.id) as zones,
                 industries, hours, is_active
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

/**
 * The columns an import writes, each with the value it takes when the file leaves the field out
 * (null: none). The file's other fields (zone zips, staff zones) live in their own tables.
 */
const WRITTEN_COLUMNS: Record<CatalogTable, Record<string, unknown>> = {
  industries: { slug: null, name: null, description: '', icon: '', configuration_type: null, is_active: true },
  product_categories: { industry_id: null, slug: null, name: null },
  products: {
    industry_id: null,
    category_id: null,
    slug: null,
    name: null,
    description: '',
    base_price: null,
    minutes: null,
    in_catalog: true,
    room: null,
  },
  extras: {
    industry_id: null,
    slug: null,
    name: null,
    description: '',
    price: null,
    price_type: null,
    unit_label: null,
    minutes: 0,
  },
  zones: {
    name: null,
    timezone: null,
    industries: null,
    hours: null,
    slot_interval_minutes: null,
    travel_buffer_minutes: null,
    lead_time_minutes: null,
    price_adjustment_percent: null,
    tax_rate: null,
    is_active: true,
  },
  staff: { name: null, email: null, phone: null, industries: null, hours: null, is_active: true },
  coupons: {
    code: null,
    description: '',
    percent_off: null,
    amount_off: null,
    valid_from: null,
    valid_until: null,
    max_redemptions: null,
    industries: null,
    is_active: true,
  },
};

/** Columns whose value needs a cast to be sent as one parameter. */
const CASTS: Record<string, 'jsonb' | 'text[]' | 'timestamptz'> = {
  hours: 'jsonb',
  industries: 'text[]',
  valid_from: 'timestamptz',
  valid_until: 'timestamptz',
};

function sqlValue(column: string, value: unknown): SQL {
  const cast = CASTS[column];
  if (!cast) return sql`${value}`;
  const sent = cast === 'jsonb' && value !== null ? JSON.stringify(value) : value;
  return sql`${sql.param(sent)}::${sql.raw(cast)}`;
}

const CHUNK = 200;

/**
 * Writes the file's items of one table, in file order: inserted, or updated in place (and
 * unarchived) by id, only rows of this tenant. `ids[i]` is the row id of `items[i]`.
 */
export async function writeRows(
  tx: Sql,
  tenant: Tenant,
  table: CatalogTable,
  ids: string[],
  items: Record<string, unknown>[],
): Promise<void> {
  const written = Object.entries(WRITTEN_COLUMNS[table]);
  const columns = ['account_id', 'environment', 'id', ...written.map(([column]) => column), 'position', 'archived_at'];
  const updates = columns
    .filter((column) => !['id', 'account_id', 'environment'].includes(column))
    .map((column) => sql`${sql.identifier(column)} = excluded.${sql.identifier(column)}`);
  const rows = items.map((item, index) => [
    sql`${tenant.accountId}`,
    sql`${tenant.environment}`,
    sql`${ids[index]}`,
    ...written.map(([column, otherwise]) => sqlValue(column, item[column] ?? otherwise)),
    sql`${index}`,
    sql`${null}`,
  ]);
  for (let start = 0; start < rows.length; start += CHUNK) {
    const values = rows.slice(start, start + CHUNK).map((row) => sql`(${sql.join(row, sql`, `)})`);
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

/** The tables that link catalog rows, with the columns an import writes, in order. */
const LINK_COLUMNS = { zone_zips: ['zone_id', 'zip'], staff_zones: ['staff_id', 'zone_id'] } as const;

/** Replaces all of a link table's rows (zones' ZIPs, crew members' zones) with `rows`. */
export async function replaceLinks(tx: Sql, tenant: Tenant, table: keyof typeof LINK_COLUMNS, rows: string[][]) {
  const into = sql.identifier(table);
  await query(tx, sql`delete from ${into} where ${tenantIs(tenant)}`);
  const columns = ['account_id', 'environment', ...LINK_COLUMNS[table]].map((column) => sql.identifier(column));
  for (let start = 0; start < rows.length; start += CHUNK) {
    const values = rows.slice(start, start + CHUNK).map(
      (row) =>
        sql`(${sql.join(
          [tenant.accountId, tenant.environment, ...row].map((value) => sql`${value}`),
          sql`, `,
        )})`,
    );
    await query(tx, sql`insert into ${into} (${sql.join(columns, sql`, `)}) values ${sql.join(values, sql`, `)}`);
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
