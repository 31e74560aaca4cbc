// The repository statements every module writes the same way, for a table named by the module:
// inserting a row, a read that may lock its row, an update of the columns that changed, and
// reading or removing one of a customer's rows (addresses, cards) while keeping one of them the
// default; replacing what a row links to (a zone's ZIPs, a crew member's zones).
import { query, queryOne, type SQL, type Sql, sql, textArray } from './db.ts';
import { type Tenant, tenantIs } from './tenant.ts';

/**
 * Inserts one row: `values` maps each column to its value, or to its SQL where the column needs
 * a cast (`sql\`${body}::jsonb\``).
 */
export async function insertRow(db: Sql, table: string, values: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(values).map((column) => sql.identifier(column));
  const params = Object.values(values).map((value) => sql`${value}`);
  await query(
    db,
    sql`insert into ${sql.identifier(table)} (${sql.join(columns, sql`, `)}) values (${sql.join(params, sql`, `)})`,
  );
}

/** The tenant's columns of a row to insert. */
export function tenantColumns(tenant: Tenant): { account_id: string; environment: string } {
  return { account_id: tenant.accountId, environment: tenant.environment };
}

/** A read inside a transaction that will change the row takes `forUpdate`. */
export interface Locking {
  forUpdate?: boolean;
}

/** ` for update` (of `alias`, when the statement joins tables) when asked, else nothing. */
export function lockIf(options: Locking, alias?: string): SQL {
  if (!options.forUpdate) return sql``;
  return alias ? sql` for update of ${sql.identifier(alias)}` : sql` for update`;
}

/** The tenant's row of `table` with this id, locked when asked. */
export function findById<Row>(db: Sql, table: string, columns: SQL, tenant: Tenant, id: string, options: Locking) {
  return queryOne<Row>(
    db,
    sql`select ${columns} from ${sql.identifier(table)} where ${tenantIs(tenant)} and id = ${id}${lockIf(options)}`,
  );
}

/**
 * Sets the columns of `changes` that are not undefined, and updated_at. `render` turns a value
 * into its SQL where the column needs a cast (jsonb, text[]).
 */
export async function updateColumns(
  db: Sql,
  table: string,
  where: { tenant: Tenant; id: string },
  changes: object,
  now: Date,
  render: (column: string, value: unknown) => SQL = (_, value) => sql`${value}`,
): Promise<void> {
  await query(
    db,
    sql`update ${sql.identifier(table)} set ${sql.join(assignments(changes, now, render), sql`, `)}
        where ${tenantIs(where.tenant)} and id = ${where.id}`,
  );
}

/** The SET list of `updateColumns`: updated_at, then each column of `changes` that is not undefined. */
export function assignments(
  changes: object,
  now: Date,
  render: (column: string, value: unknown) => SQL = (_, value) => sql`${value}`,
): SQL[] {
  const set: SQL[] = [sql`updated_at = ${now}`];
  for (const [column, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    set.push(sql`${sql.identifier(column)} = ${render(column, value)}`);
  }
  return set;
}

/**
 * Removes one of a customer's rows (soft: removed_at) and, when it was the default, makes the
 * newest remaining one the default.
 */
export async function removeKeepingADefault(
  db: Sql,
  table: string,
  tenant: Tenant,
  row: { customerId: string; id: string },
  now: Date,
): Promise<void> {
  const rows = sql.identifier(table);
  await query(
    db,
    sql`update ${rows} set removed_at = ${now}, is_default = false where ${tenantIs(tenant)} and id = ${row.id}`,
  );
  const remaining = sql`${tenantIs(tenant)} and customer_id = ${row.customerId} and removed_at is null`;
  await query(
    db,
    sql`update ${rows} set is_default = true where id = (
          select id from ${rows} where ${remaining} order by created_at desc, id desc limit 1)
        and not exists (select 1 from ${rows} where ${remaining} and is_default)`,
  );
}

export interface CustomersRow {
  customerId: string;
  id: string;
}

/** One of a customer's rows (addresses, cards) that is not removed. */
export function findCustomersRow<Row>(db: Sql, table: string, columns: SQL, tenant: Tenant, row: CustomersRow) {
  return queryOne<Row>(
    db,
    sql`select ${columns} from ${sql.identifier(table)}
        where ${tenantIs(tenant)} and customer_id = ${row.customerId} and id = ${row.id} and removed_at is null`,
  );
}

/** A link table: each row ties the owner (`owner` column) to one value (`value` column). */
export interface Links {
  table: string;
  owner: string;
  value: string;
}

/** Makes the owner's links exactly `values`: its rows are deleted and these inserted. */
export async function replaceLinks(
  db: Sql,
  tenant: Tenant,
  links: Links,
  ownerId: string,
  values: readonly string[],
): Promise<void> {
  const table = sql.identifier(links.table);
  const owner = sql.identifier(links.owner);
  const value = sql.identifier(links.value);
  await query(db, sql`delete from ${table} where ${tenantIs(tenant)} and ${owner} = ${ownerId}`);
  await query(
    db,
    sql`insert into ${table} (account_id, environment, ${owner}, ${value})
        select ${tenant.accountId}, ${tenant.environment}, ${ownerId}, v from unnest(${textArray(values)}) as v`,
  );
}
