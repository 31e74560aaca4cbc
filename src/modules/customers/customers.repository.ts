// Owns: customers, addresses.
// Bookings set the booking stats and invoices move the money stats through customers' services.
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type Metadata, metadataContains, metadataJson } from '../../core/metadata.ts';
import { type PageRequest, pagedRows, pageLimit } from '../../core/paging.ts';
import { findById, findCustomersRow, type Locking, removeKeepingADefault, updateColumns } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';

export interface CustomerRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  status: 'active' | 'inactive' | 'deactivated';
  preferences: { preferred_contact: 'email' | 'sms' | 'phone'; marketing_opt_in: boolean };
  credit_balance: number;
  metadata: Metadata;
  total_bookings: number;
  total_spent: number;
  last_booking_at: string | null;
  active_subscription: boolean;
  created_at: string;
  updated_at: string;
}

export interface AddressRow {
  id: string;
  customer_id: string;
  label: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  access_notes: string | null;
  is_default: boolean;
  created_at: string;
}

const CUSTOMER_COLUMNS =
  sql.raw(`id, first_name, last_name, email, phone, status, preferences, credit_balance, metadata,
  total_bookings, total_spent, last_booking_at, active_subscription, created_at, updated_at`);

const ADDRESS_COLUMNS = sql.raw(
  'id, customer_id, label, street, city, state, zip, access_notes, is_default, created_at',
);

/** A customer's live addresses as a JSON array, default first: one round trip for the whole customer. */
const ADDRESSES_JSON = sql.raw(`coalesce((
    select json_agg(json_build_object('id', a.id, 'customer_id', a.customer_id, 'label', a.label, 'street', a.street,
      'city', a.city, 'state', a.state, 'zip', a.zip, 'access_notes', a.access_notes, 'is_default', a.is_default,
      'created_at', a.created_at) order by a.is_default desc, a.created_at, a.id)
    from addresses a where a.customer_id = customers.id and a.removed_at is null), '[]') as addresses`);

export type CustomerWithAddresses = CustomerRow & { addresses: AddressRow[] };

export async function insertCustomer(
  db: Sql,
  tenant: Tenant,
  customer: {
    id: string;
    firstName: string;
    lastName: string;
    email: string;
    phone: string | null;
    preferences: CustomerRow['preferences'];
    metadata: Metadata;
    now: Date;
  },
): Promise<void> {
  await query(
    db,
    sql`insert into customers (id, account_id, environment, first_name, last_name, email, phone, preferences, metadata, created_at, updated_at)
        values (${customer.id}, ${tenant.accountId}, ${tenant.environment}, ${customer.firstName}, ${customer.lastName},
                ${customer.email}, ${customer.phone}, ${JSON.stringify(customer.preferences)}::jsonb,
                ${metadataJson(customer.metadata)}, ${customer.now}, ${customer.now})`,
  );
}

export function findCustomer(db: Sql, tenant: Tenant, id: string, options: Locking = {}) {
  return findById<CustomerRow>(db, 'customers', CUSTOMER_COLUMNS, tenant, id, options);
}

export async function updateCustomer(
  db: Sql,
  tenant: Tenant,
  id: string,
  changes: Partial<{
    first_name: string;
    last_name: string;
    email: string;
    phone: string | null;
    status: CustomerRow['status'];
    preferences: CustomerRow['preferences'];
    metadata: Metadata;
  }>,
  now: Date,
): Promise<void> {
  await updateColumns(db, 'customers', { tenant, id }, changes, now, (column, value) =>
    column === 'preferences' || column === 'metadata' ? sql`${JSON.stringify(value)}::jsonb` : sql`${value}`,
  );
}

export interface CustomerFilters {
  search?: string;
  status?: string;
  createdAfter?: Date;
  updatedAfter?: Date;
  hasSubscription?: boolean;
  /** Customers with a live address at one of these ZIPs (a zone's). */
  zips?: string[];
  ids?: string[];
  metadata?: Metadata;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * A search's value as the statement's own subquery (an InitPlan), not a constant the planner
 * sees: then every plan estimates it alike, and the plan the server's named statement keeps is
 * used. With the value in sight, PostgreSQL found each search's own plan cheaper and planned
 * every search again: 0.2-0.4 ms of planning against 0.15-0.25 ms of execution.
 */
function unseen(value: SQL): SQL {
  return sql`(select ${value})`;
}

/** `search_text` contains `text` (a LIKE pattern), through the GiST index of migrations/0015. */
function containing(text: string): SQL {
  return sql`search_text like ${unseen(sql`${`%${escapeLike(text)}%`}::text`)}`;
}

/**
 * `search_text` contains `term`. A name ("olivia smith") is found through its trigrams keyed to
 * the tenant (the GIN index of migrations/0020: a filter, which the LIKE then checks), anything
 * else (e-mail, phone, a mix) through the GiST index: each is the faster one for its kind of
 * term. The name's LIKE is written on `' ' || search_text` (the same matches: a trimmed term
 * never starts with a space) so that the planner, which costs GiST lower, cannot take it.
 */
function searchMatch(tenant: Tenant, term: string): SQL {
  if (!/^[\p{L}\s'-]+$/u.test(term)) return containing(term);
  const keys = sql`customer_search_term_keys(${tenant.accountId}, ${tenant.environment}, ${term})`;
  return sql`(customer_search_keys(account_id, environment, search_text) @> ${unseen(keys)}
              and (' ' || search_text) like ${`%${escapeLike(term)}%`})`;
}

function filterConditions(tenant: Tenant, filters: CustomerFilters): SQL {
  const conditions: SQL[] = [tenantIs(tenant)];
  if (filters.search !== undefined) {
    const term = filters.search.trim().toLowerCase();
    const digits = term.replace(/[^0-9]/g, '');
    const matches: SQL[] = [searchMatch(tenant, term)];
    // "+1 (415) 555-0123" should find the phone by its digits
    if (digits.length >= 3 && /^[\d\s()+.-]+$/.test(term)) {
      matches.push(containing(digits));
    }
    conditions.push(sql`(${sql.join(matches, sql` or `)})`);
  }
  if (filters.status !== undefined) conditions.push(sql`status = ${filters.status}`);
  if (filters.createdAfter) conditions.push(sql`created_at > ${filters.createdAfter}`);
  if (filters.updatedAfter) conditions.push(sql`updated_at > ${filters.updatedAfter}`);
  if (filters.hasSubscription !== undefined) {
    conditions.push(sql`active_subscription = ${filters.hasSubscription}`);
  }
  if (filters.ids) conditions.push(sql`id = any(${textArray(filters.ids)})`);
  if (filters.metadata) conditions.push(metadataContains(filters.metadata));
  if (filters.zips !== undefined) {
    conditions.push(sql`exists (select 1 from addresses a where a.customer_id = customers.id
                                  and a.removed_at is null and a.zip = any(${textArray(filters.zips)}))`);
  }
  return sql.join(conditions, sql` and `);
}

/** The customer with its addresses, in one query. */
export function findCustomerWithAddresses(db: Sql, tenant: Tenant, id: string) {
  return queryOne<CustomerWithAddresses>(
    db,
    sql`select ${CUSTOMER_COLUMNS}, ${ADDRESSES_JSON} from customers where ${tenantIs(tenant)} and id = ${id}`,
  );
}

export async function listCustomers(
  db: Sql,
  tenant: Tenant,
  filters: CustomerFilters,
  page: PageRequest,
): Promise<{ rows: CustomerWithAddresses[]; total: number }> {
  const where = filterConditions(tenant, filters);
  if (filters.search !== undefined) {
    // A search's trigram scan is most of its cost: find the page and the total in one scan
    // (the window counts every match before the limit), then read the page's customers.
    const rows = await query<CustomerWithAddresses & { total: number }>(
      db,
      sql`with page as (
            select id, count(*) over () as total from customers where ${where}
            order by created_at desc, id desc ${pageLimit(page)}
          )
          select ${CUSTOMER_COLUMNS}, ${ADDRESSES_JSON}, (select total from page limit 1) as total
          from customers where ${tenantIs(tenant)} and id in (select id from page)
          order by created_at desc, id desc`,
    );
    if (rows.length > 0 || page.offset === 0) {
      return { rows: rows.map(({ total: _, ...row }) => row), total: rows[0]?.total ?? 0 };
    }
    // past the last page: nothing to read the total from
  }
  return pagedRows<CustomerWithAddresses>(
    db,
    {
      select: sql`select ${CUSTOMER_COLUMNS}, ${ADDRESSES_JSON}`,
      from: sql`from customers where ${where}`,
      order: sql`order by created_at desc, id desc`,
    },
    page,
  );
}

/**
 * The customer's id and status, its row locked, with one of its live addresses (null when it has
 * no such address): what a new booking reads first, in one round trip.
 */
export function lockCustomerWithAddress(db: Sql, tenant: Tenant, customerId: string, addressId: string) {
  return queryOne<{ id: string; status: CustomerRow['status']; address: AddressRow | null }>(
    db,
    sql`select c.id, c.status,
               (select to_jsonb(a) from (select ${ADDRESS_COLUMNS} from addresses
                 where ${tenantIs(tenant)} and customer_id = c.id and id = ${addressId} and removed_at is null) a) as address
        from customers c
        where ${tenantIs(tenant, 'c')} and c.id = ${customerId}
        for update of c`,
  );
}

export function findAddress(db: Sql, tenant: Tenant, customerId: string, addressId: string) {
  return findCustomersRow<AddressRow>(db, 'addresses', ADDRESS_COLUMNS, tenant, { customerId, id: addressId });
}

export async function insertAddress(
  db: Sql,
  tenant: Tenant,
  address: Omit<AddressRow, 'created_at'>,
  now: Date,
): Promise<void> {
  await query(
    db,
    sql`insert into addresses (id, account_id, environment, customer_id, label, street, city, state, zip, access_notes, is_default, created_at)
        values (${address.id}, ${tenant.accountId}, ${tenant.environment}, ${address.customer_id}, ${address.label},
                ${address.street}, ${address.city}, ${address.state}, ${address.zip}, ${address.access_notes},
                ${address.is_default}, ${now})`,
  );
}

export async function clearDefaultAddress(db: Sql, tenant: Tenant, customerId: string): Promise<void> {
  await query(
    db,
    sql`update addresses set is_default = false
        where ${tenantIs(tenant)} and customer_id = ${customerId} and is_default and removed_at is null`,
  );
}

/** The newest remaining address becomes the default when the removed one was. */
export function removeAddress(db: Sql, tenant: Tenant, customerId: string, id: string, now: Date): Promise<void> {
  return removeKeepingADefault(db, 'addresses', tenant, { customerId, id }, now);
}

export async function countAddresses(db: Sql, tenant: Tenant, customerId: string): Promise<number> {
  const row = await queryOne<{ count: number }>(
    db,
    sql`select count(*) as count from addresses where ${tenantIs(tenant)} and customer_id = ${customerId} and removed_at is null`,
  );
  return row?.count ?? 0;
}

/**
 * Moves the customer's money stats in the caller's transaction: `spent` (cents paid, less
 * refunds to the original method) and `credit` (account credit from refunds).
 */
export async function adjustCustomerBalances(
  db: Sql,
  tenant: Tenant,
  customerId: string,
  change: { spent?: number; credit?: number },
): Promise<void> {
  if ((change.spent ?? 0) === 0 && (change.credit ?? 0) === 0) return;
  await query(db, balancesUpdate(tenant, customerId, change));
}

/** `adjustCustomerBalances` as a statement, for a part of the statement that stores the change's events. */
export function balancesUpdate(tenant: Tenant, customerId: string, change: { spent?: number; credit?: number }): SQL {
  return sql`update customers set total_spent = total_spent + ${change.spent ?? 0},
               credit_balance = credit_balance + ${change.credit ?? 0}
             where ${tenantIs(tenant)} and id = ${customerId}`;
}

export interface BookingStats {
  totalBookings: number;
  lastBookingAt: Date | null;
  activeSubscription: boolean;
}

export async function setBookingStats(db: Sql, tenant: Tenant, customerId: string, stats: BookingStats): Promise<void> {
  await query(
    db,
    sql`update customers set total_bookings = ${stats.totalBookings}, last_booking_at = ${stats.lastBookingAt},
          active_subscription = ${stats.activeSubscription}
        where ${tenantIs(tenant)} and id = ${customerId}`,
  );
}

/**
 * `setBookingStats` as a statement, for the one that changes the bookings: `stats` names a
 * relation of one row (stats_total, stats_last, stats_subscribed) counted by bookings.
 */
export function bookingStatsUpdate(tenant: Tenant, customerId: string, stats: SQL): SQL {
  return sql`update customers set total_bookings = s.stats_total, last_booking_at = s.stats_last,
               active_subscription = s.stats_subscribed
             from ${stats} s where ${tenantIs(tenant, 'customers')} and customers.id = ${customerId}`;
}

/** A live address by id alone, whoever's it is (to tell another customer's address from none). */
export function findAddressById(db: Sql, tenant: Tenant, addressId: string): Promise<AddressRow | undefined> {
  return queryOne<AddressRow>(
    db,
    sql`select ${ADDRESS_COLUMNS} from addresses where ${tenantIs(tenant)} and id = ${addressId} and removed_at is null`,
  );
}
