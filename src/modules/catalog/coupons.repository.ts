// SQL of the coupons API (the coupons table is the catalog's; pricing reads it in
// catalog.repository.ts, import writes it in catalog-file.repository.ts). Archived coupons are
// never listed or found here; bookings keep the terms they were priced with.
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type PageRequest, pageOfTable } from '../../core/paging.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type { CouponRow } from './catalog.repository.ts';

/** The unique index on the live coupons' lower(code) (→ 409 resource_already_exists, param code). */
export const COUPON_CODE_CONSTRAINT = 'coupons_code';

export interface CouponRecord extends CouponRow {
  created_at: string | Date;
}

const COLUMNS = sql.raw(
  'id, code, description, percent_off, amount_off, valid_from, valid_until, max_redemptions, times_redeemed, ' +
    'industries, is_active, created_at',
);

export function listCoupons(db: Sql, tenant: Tenant, filter: { ids?: string[] }, page: PageRequest) {
  const conditions: SQL[] = [tenantIs(tenant), sql`archived_at is null`];
  if (filter.ids) conditions.push(sql`id = any(${textArray(filter.ids)})`);
  return pageOfTable<CouponRecord>(db, { table: 'coupons', columns: COLUMNS, where: conditions }, page);
}

export function findCoupon(db: Sql, tenant: Tenant, id: string, options: { lock?: boolean } = {}) {
  return queryOne<CouponRecord>(
    db,
    sql`select ${COLUMNS} from coupons where ${tenantIs(tenant)} and id = ${id} and archived_at is null
        ${options.lock ? sql`for update` : sql``}`,
  );
}

/** The values a coupon is written with: column name to value (text[] for industries). */
export type CouponValues = Omit<CouponRow, 'id' | 'times_redeemed'>;

function columnValue(column: keyof CouponValues, value: CouponValues[keyof CouponValues]): SQL {
  if (column === 'industries') return value === null ? sql`null::text[]` : textArray(value as string[]);
  if (column === 'valid_from' || column === 'valid_until') return sql`${value}::timestamptz`;
  return sql`${value}`;
}

export async function insertCoupon(tx: Sql, tenant: Tenant, id: string, values: CouponValues, now: Date) {
  const columns = Object.keys(values) as (keyof CouponValues)[];
  await query(
    tx,
    sql`insert into coupons (id, account_id, environment, created_at, position,
          ${sql.join(
            columns.map((column) => sql.identifier(column)),
            sql`, `,
          )})
        values (${id}, ${tenant.accountId}, ${tenant.environment}, ${now},
          (select coalesce(max(position) + 1, 0) from coupons where ${tenantIs(tenant)}),
          ${sql.join(
            columns.map((column) => columnValue(column, values[column])),
            sql`, `,
          )})`,
  );
}

export async function updateCoupon(tx: Sql, tenant: Tenant, id: string, changes: Partial<CouponValues>) {
  const columns = (Object.keys(changes) as (keyof CouponValues)[]).filter((column) => changes[column] !== undefined);
  if (columns.length === 0) return;
  const sets = columns.map(
    (column) => sql`${sql.identifier(column)} = ${columnValue(column, changes[column] as CouponValues[typeof column])}`,
  );
  await query(tx, sql`update coupons set ${sql.join(sets, sql`, `)} where ${tenantIs(tenant)} and id = ${id}`);
}

/** Archives a live coupon; false when there is none with that id. */
export async function archiveCoupon(tx: Sql, tenant: Tenant, id: string, now: Date): Promise<boolean> {
  const row = await queryOne<{ id: string }>(
    tx,
    sql`update coupons set archived_at = ${now}
        where ${tenantIs(tenant)} and id = ${id} and archived_at is null returning id`,
  );
  return row !== undefined;
}

/** Slugs of the environment's industries (inactive ones too: a coupon may name them ahead). */
export async function industrySlugs(db: Sql, tenant: Tenant): Promise<Set<string>> {
  const rows = await query<{ slug: string }>(
    db,
    sql`select slug from industries where ${tenantIs(tenant)} and archived_at is null`,
  );
  return new Set(rows.map((row) => row.slug));
}
