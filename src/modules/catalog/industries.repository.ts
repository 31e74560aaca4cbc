// SQL behind catalog setup through the API and the dashboard: industries, their categories,
// products and extras, one row at a time. Writers lock the industry row first (as catalog
// import does), so slugs and positions inside one industry are decided one writer at a time,
// on every server instance.
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type * as catalog from './catalog.repository.ts';
import type { IndustryRow } from './catalog.repository.ts';

export type { IndustryRow };

export interface CategoryRow extends catalog.CategoryRow {
  industry_id: string;
  position: number;
}

export interface ProductRow extends catalog.ProductRow {
  industry_id: string;
  slug: string;
  room: 'visit' | 'bedroom' | 'bathroom' | null;
  position: number;
}

export interface ExtraRow extends catalog.ExtraRow {
  industry_id: string;
  slug: string;
  position: number;
}

/** The tables below an industry, each with the column its positions are counted within. */
export const ITEM_TABLES = {
  product_categories: 'industry_id',
  products: 'category_id',
  extras: 'industry_id',
} as const;
export type ItemTable = keyof typeof ITEM_TABLES;

const INDUSTRY = sql.raw('id, slug, name, description, icon, configuration_type, is_active');
/**
 * An item's place in its list, counted: stored positions may have gaps (an import numbers
 * products across the whole catalog), and `position` in the API is the index from 0.
 */
function placeIn(tenant: Tenant, table: ItemTable): SQL {
  const scope = sql.identifier(ITEM_TABLES[table]);
  const self = sql.identifier(table);
  return sql`(select count(*)::int from ${self} sibling
              where ${tenantIs(tenant, 'sibling')} and sibling.archived_at is null
                and sibling.${scope} = ${self}.${scope}
                and (sibling.position, sibling.id) < (${self}.position, ${self}.id)) as position`;
}

const CATEGORY = (tenant: Tenant) => sql`id, industry_id, slug, name, ${placeIn(tenant, 'product_categories')}`;
const PRODUCT = (tenant: Tenant) =>
  sql`id, industry_id, category_id, slug, name, description, base_price, minutes, in_catalog, room,
      ${placeIn(tenant, 'products')}`;
const EXTRA = (tenant: Tenant) =>
  sql`id, industry_id, slug, name, description, price, price_type, unit_label, minutes, ${placeIn(tenant, 'extras')}`;
const live = (tenant: Tenant) => sql`${tenantIs(tenant)} and archived_at is null`;

export function listIndustries(db: Sql, tenant: Tenant, includeInactive: boolean): Promise<IndustryRow[]> {
  return query<IndustryRow>(
    db,
    sql`select ${INDUSTRY} from industries
        where ${live(tenant)} ${includeInactive ? sql`` : sql`and is_active`} order by position, id`,
  );
}

/** An industry by slug, active or not (archived ones are gone); `lock` holds it for writing. */
export function findIndustry(db: Sql, tenant: Tenant, slug: string, lock = false): Promise<IndustryRow | undefined> {
  return queryOne<IndustryRow>(
    db,
    sql`select ${INDUSTRY} from industries where ${live(tenant)} and slug = ${slug} ${lock ? sql`for update` : sql``}`,
  );
}

/** Locks the (unarchived) industry an item belongs to; undefined when there is none. */
export function lockIndustryOf(db: Sql, tenant: Tenant, table: ItemTable, itemId: string) {
  return queryOne<IndustryRow>(
    db,
    sql`select ${INDUSTRY} from industries
        where ${live(tenant)} and id = (select industry_id from ${sql.identifier(table)}
                                        where ${live(tenant)} and id = ${itemId})
        for update`,
  );
}

/**
 * Every industry of the environment, locked: industries are ordered among themselves. In the
 * order catalog import locks them, so that the two never wait on each other in a circle.
 */
export async function lockIndustries(db: Sql, tenant: Tenant): Promise<void> {
  await query(
    db,
    sql`select id from industries where ${tenantIs(tenant)} order by archived_at nulls first, position, id for update`,
  );
}

/**
 * Frees the slug an archived industry (one a catalog import dropped) still holds in the unique
 * index, so that a new industry can take it; the archived one stays findable by id.
 */
export async function releaseArchivedIndustrySlug(db: Sql, tenant: Tenant, slug: string): Promise<void> {
  await query(
    db,
    sql`update industries set slug = id where ${tenantIs(tenant)} and slug = ${slug} and archived_at is not null`,
  );
}

/** The rows of each table below an industry. */
export interface ItemRows {
  product_categories: CategoryRow;
  products: ProductRow;
  extras: ExtraRow;
}
const ITEM_COLUMNS = { product_categories: CATEGORY, products: PRODUCT, extras: EXTRA };

/** The unarchived items of one table of an industry, in their order. */
export function listItems<T extends ItemTable>(db: Sql, tenant: Tenant, table: T, industryId: string) {
  return query<ItemRows[T]>(
    db,
    sql`select ${ITEM_COLUMNS[table](tenant)} from ${sql.identifier(table)}
        where ${live(tenant)} and industry_id = ${industryId} order by position, id`,
  );
}

export function findItem<T extends ItemTable>(db: Sql, tenant: Tenant, table: T, id: string) {
  return queryOne<ItemRows[T]>(
    db,
    sql`select ${ITEM_COLUMNS[table](tenant)} from ${sql.identifier(table)} where ${live(tenant)} and id = ${id}`,
  );
}

export const findCategory = (db: Sql, tenant: Tenant, id: string) => findItem(db, tenant, 'product_categories', id);
export const findProduct = (db: Sql, tenant: Tenant, id: string) => findItem(db, tenant, 'products', id);
export const findExtra = (db: Sql, tenant: Tenant, id: string) => findItem(db, tenant, 'extras', id);

/** Inserts one row of `table`, in this tenant, with the given columns. */
async function insertRow(db: Sql, tenant: Tenant, table: ItemTable | 'industries', row: object, now: Date) {
  const columns = { account_id: tenant.accountId, environment: tenant.environment, ...row, created_at: now };
  await query(
    db,
    sql`insert into ${sql.identifier(table)} (${sql.join(
      Object.keys(columns).map((column) => sql.identifier(column)),
      sql`, `,
    )}) values (${sql.join(
      Object.values(columns).map((value) => sql`${value}`),
      sql`, `,
    )})`,
  );
}

export const insertIndustry = (db: Sql, tenant: Tenant, row: IndustryRow & { position: number }, now: Date) =>
  insertRow(db, tenant, 'industries', row, now);
export const insertItem = <T extends ItemTable>(db: Sql, tenant: Tenant, table: T, row: ItemRows[T], now: Date) =>
  insertRow(db, tenant, table, row, now);

/** Writes the given columns of one row of `table` (undefined values are left alone). */
export async function updateRow(
  db: Sql,
  tenant: Tenant,
  table: ItemTable | 'industries',
  id: string,
  changes: Record<string, unknown>,
): Promise<void> {
  const sets = Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([column, value]) => sql`${sql.identifier(column)} = ${value}`);
  if (sets.length === 0) return;
  await query(
    db,
    sql`update ${sql.identifier(table)} set ${sql.join(sets, sql`, `)} where ${tenantIs(tenant)} and id = ${id}`,
  );
}

export async function archiveRow(db: Sql, tenant: Tenant, table: ItemTable, id: string, now: Date) {
  await query(
    db,
    sql`update ${sql.identifier(table)} set archived_at = ${now}
        where ${live(tenant)} and id = ${id}`,
  );
}

/** The unarchived slugs of a table within one industry (or the environment's industries). */
export async function slugsIn(db: Sql, tenant: Tenant, table: ItemTable | 'industries', industryId?: string) {
  const within = table === 'industries' ? sql`` : sql`and industry_id = ${industryId ?? null}`;
  const rows = await query<{ id: string; slug: string }>(
    db,
    sql`select id, slug from ${sql.identifier(table)} where ${live(tenant)} ${within}`,
  );
  return rows;
}

/** Ids of the items ordered with `scopeId` (an industry or a category), in their order. */
export async function siblingIds(db: Sql, tenant: Tenant, table: ItemTable | 'industries', scopeId?: string) {
  const within = table === 'industries' ? sql`` : sql`and ${sql.identifier(ITEM_TABLES[table])} = ${scopeId ?? null}`;
  const rows = await query<{ id: string }>(
    db,
    sql`select id from ${sql.identifier(table)} where ${live(tenant)} ${within} order by position, id`,
  );
  return rows.map((row) => row.id);
}

/** Numbers the rows 0, 1, 2 … in the order given. */
export async function setPositions(db: Sql, tenant: Tenant, table: ItemTable | 'industries', ids: string[]) {
  if (ids.length === 0) return;
  await query(
    db,
    sql`update ${sql.identifier(table)} set position = array_position(${textArray(ids)}, id) - 1
        where ${tenantIs(tenant)} and id = any(${textArray(ids)})`,
  );
}

/** The account's currency, for showing prices (the catalog reads accounts.currency, as pricing does). */
export async function findCurrency(db: Sql, tenant: Tenant): Promise<string> {
  const row = await queryOne<{ currency: string }>(
    db,
    sql`select currency from accounts where id = ${tenant.accountId}`,
  );
  return row?.currency ?? 'usd';
}

/** Up to `limit` products still in a category. */
export async function productIdsIn(db: Sql, tenant: Tenant, categoryId: string, limit: number) {
  const rows = await query<{ id: string }>(
    db,
    sql`select id from products where ${live(tenant)} and category_id = ${categoryId} order by position, id
        limit ${limit}`,
  );
  return rows.map((row) => row.id);
}
