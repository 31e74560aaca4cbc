// Owns: bookings, booking_counts, subscriptions. Reads customers, addresses and staff in joins
// for the booking's view (names, address, crew); writes to them go through their modules.
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import type { ItemVersion } from '../../core/kept-lists.ts';
import { type Metadata, metadataContains, metadataJson } from '../../core/metadata.ts';
import { type PageRequest, pageLimit } from '../../core/paging.ts';
import { insertRow, type Locking, lockIf, tenantColumns } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type { BookingStats } from '../customers/index.ts';
import type { Configuration, Coupon, Frequency, PriceBreakdown } from '../pricing/index.ts';

export type BookingStatus = 'confirmed' | 'in_progress' | 'completed' | 'cancelled';
export type SubscriptionStatus = 'active' | 'needs_attention' | 'cancelled';

export interface TimelineEntry {
  status: BookingStatus;
  at: string;
  note: string;
}

export interface Cancellation {
  reason: string | null;
  cancelled_at: string;
  notify_customer: boolean;
  fee: { amount: number; policy: 'free_cancellation' | 'late_cancellation' | 'in_progress'; invoice_id: string | null };
}

export interface BookingRow {
  id: string;
  status: BookingStatus;
  customer_id: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  address_id: string;
  address_street: string;
  address_city: string;
  address_state: string;
  address_zip: string;
  zone_id: string | null;
  subscription_id: string | null;
  industry: string;
  configuration: Configuration;
  coupon: Coupon | null;
  pricing: PriceBreakdown;
  total: number;
  estimated_duration: number;
  scheduled_at: string;
  assigned_crew: string[];
  notes: string | null;
  metadata: Metadata;
  cancellation: Cancellation | null;
  created_at: string;
  updated_at: string;
}

const BOOKING_COLUMNS = sql.raw(`select b.id, b.status, b.customer_id, c.first_name as customer_first_name,
  c.last_name as customer_last_name, c.email as customer_email, b.address_id, a.street as address_street,
  a.city as address_city, a.state as address_state, a.zip as address_zip, b.zone_id, b.subscription_id, b.industry,
  b.configuration, b.coupon, b.pricing, b.total, b.estimated_duration, b.scheduled_at, b.assigned_crew, b.notes,
  b.metadata, b.cancellation, b.created_at, b.updated_at`);

/**
 * What a booking's view is written from has changed exactly when this has: the row versions of
 * the booking, its customer and its address. A row's `xmin` is the transaction that wrote its
 * current version (freezing keeps it), so committed rows read with the same `xmin`s are the
 * same rows, until transaction ids come round again (billions later; JsonCache keeps an hour).
 */
const BOOKING_VERSION = sql.raw(`concat_ws(':', b.xmin, c.xmin, a.xmin) as version`);

/**
 * The booking row with its customer's names and address (or other `columns` of b, c and a), from
 * `source` (the table, or a just-inserted row).
 */
function bookingSelect(source: SQL, columns: SQL = BOOKING_COLUMNS): SQL {
  return sql`${columns} from ${source} b join customers c on c.id = b.customer_id
             join addresses a on a.id = b.address_id`;
}

const BOOKING_SELECT = bookingSelect(sql`bookings`);
const BOOKING_SELECT_WITH_VERSION = bookingSelect(sql`bookings`, sql`${BOOKING_COLUMNS}, ${BOOKING_VERSION}`);
const VERSIONS_SELECT = bookingSelect(sql`bookings`, sql`select b.id, ${BOOKING_VERSION}`);

export function findBooking(db: Sql, tenant: Tenant, id: string, options: Locking = {}) {
  return queryOne<BookingRow>(
    db,
    sql`${BOOKING_SELECT} where ${tenantIs(tenant, 'b')} and b.id = ${id}${lockIf(options, 'b')}`,
  );
}

export interface NewBooking {
  id: string;
  customerId: string;
  addressId: string;
  zoneId: string | null;
  subscriptionId: string | null;
  industry: string;
  configuration: Configuration;
  coupon: Coupon | null;
  pricing: PriceBreakdown;
  scheduledAt: Date;
  notes: string | null;
  metadata: Metadata;
  timeline: TimelineEntry[];
  now: Date;
}

/**
 * Inserts the booking and returns it as findBookingDetail does, with the customer's booking
 * stats counted with it and stored by `storeStats` (the customers module's statement, given the
 * relation `stats`): one round trip for what took five. The statement cannot see its own insert
 * in the table, so the detail and the count read the inserted row from the insert's RETURNING.
 * The booking holds its crew member's time in the same statement: it is inserted, with the
 * member `hold` (the catalog's crewTimeHold) returns as its crew, only if that returns a row.
 * undefined when nobody was held; nothing is written then but the customer's stats, recounted
 * unchanged.
 */
export async function insertBooking(
  db: Sql,
  tenant: Tenant,
  booking: NewBooking,
  storeStats: (stats: SQL) => SQL,
  hold: SQL,
): Promise<(BookingRow & BookingExtras) | undefined> {
  const row = await queryOne<BookingRow & BookingExtras>(
    db,
    sql`with held as (${hold}),
        new_booking as (
          insert into bookings (id, account_id, environment, customer_id, address_id, zone_id, subscription_id, status,
            industry, configuration, coupon, pricing, total, estimated_duration, scheduled_at, assigned_crew, notes,
            metadata, timeline, created_at, updated_at)
          select ${booking.id}, ${tenant.accountId}, ${tenant.environment}, ${booking.customerId}, ${booking.addressId},
                  ${booking.zoneId}, ${booking.subscriptionId}, 'confirmed', ${booking.industry},
                  ${JSON.stringify(booking.configuration)}::jsonb,
                  ${booking.coupon === null ? null : JSON.stringify(booking.coupon)}::jsonb,
                  ${JSON.stringify(booking.pricing)}::jsonb, ${booking.pricing.total}::bigint,
                  ${booking.pricing.estimated_duration}::integer, ${booking.scheduledAt}::timestamptz,
                  array(select staff_id from held), ${booking.notes}, ${metadataJson(booking.metadata)},
                  ${JSON.stringify(booking.timeline)}::jsonb,
                  ${booking.now}::timestamptz, ${booking.now}::timestamptz
          where exists (select 1 from held)
          returning *),
        stats as (${statsSelect(
          tenant,
          booking.customerId,
          sql`(select account_id, environment, customer_id, status, created_at from bookings
               union all select account_id, environment, customer_id, status, created_at from new_booking)`,
        )}),
        stored_stats as (${storeStats(sql`stats`)})
        ${detailSelect(tenant, booking.id, sql`new_booking`)}`,
  );
  return row;
}

export interface BookingChanges {
  status?: BookingStatus;
  addressId?: string;
  zoneId?: string | null;
  subscriptionId?: string | null;
  configuration?: Configuration;
  pricing?: PriceBreakdown;
  scheduledAt?: Date;
  assignedCrew?: string[];
  notes?: string | null;
  metadata?: Metadata;
  cancellation?: Cancellation;
  /** Appended to the timeline. */
  timeline?: TimelineEntry;
}

export async function updateBooking(
  db: Sql,
  tenant: Tenant,
  id: string,
  changes: BookingChanges,
  now: Date,
): Promise<void> {
  const set: SQL[] = [sql`updated_at = ${now}`];
  if (changes.status !== undefined) set.push(sql`status = ${changes.status}`);
  if (changes.addressId !== undefined) set.push(sql`address_id = ${changes.addressId}`);
  if (changes.zoneId !== undefined) set.push(sql`zone_id = ${changes.zoneId}`);
  if (changes.subscriptionId !== undefined) set.push(sql`subscription_id = ${changes.subscriptionId}`);
  if (changes.configuration !== undefined) {
    set.push(sql`configuration = ${JSON.stringify(changes.configuration)}::jsonb`);
  }
  if (changes.pricing !== undefined) {
    set.push(sql`pricing = ${JSON.stringify(changes.pricing)}::jsonb, total = ${changes.pricing.total},
                 estimated_duration = ${changes.pricing.estimated_duration}`);
  }
  if (changes.scheduledAt !== undefined) set.push(sql`scheduled_at = ${changes.scheduledAt}`);
  if (changes.assignedCrew !== undefined) set.push(sql`assigned_crew = ${textArray(changes.assignedCrew)}`);
  if (changes.notes !== undefined) set.push(sql`notes = ${changes.notes}`);
  if (changes.metadata !== undefined) set.push(sql`metadata = ${metadataJson(changes.metadata)}`);
  if (changes.cancellation !== undefined) set.push(sql`cancellation = ${JSON.stringify(changes.cancellation)}::jsonb`);
  if (changes.timeline !== undefined) {
    set.push(sql`timeline = timeline || jsonb_build_array(${JSON.stringify(changes.timeline)}::jsonb)`);
  }
  await query(
    db,
    sql`update bookings set ${sql.join(set, sql`, `)} where ${tenantIs(tenant, 'bookings')} and id = ${id}`,
  );
}

export interface BookingExtras {
  timeline: TimelineEntry[];
  crew: { id: string; name: string }[];
  subscription: { id: string; frequency: Exclude<Frequency, 'one-time'>; status: SubscriptionStatus } | null;
}

/** The booking with what GET one adds: timeline, crew names and subscription (invoices come from invoices). */
export function findBookingDetail(
  db: Sql,
  tenant: Tenant,
  id: string,
): Promise<(BookingRow & BookingExtras) | undefined> {
  return queryOne<BookingRow & BookingExtras>(db, detailSelect(tenant, id, sql`bookings`));
}

function detailSelect(tenant: Tenant, id: string, source: SQL): SQL {
  return sql`select d.*, b2.timeline,
          coalesce((select json_agg(json_build_object('id', s.id, 'name', s.name) order by m.ord)
                    from unnest(d.assigned_crew) with ordinality as m(staff_id, ord)
                    join staff s on s.id = m.staff_id and ${tenantIs(tenant, 's')}), '[]'::json) as crew,
          (select json_build_object('id', sub.id, 'frequency', sub.frequency, 'status', sub.status)
           from subscriptions sub where sub.id = d.subscription_id and ${tenantIs(tenant, 'sub')}) as subscription
        from (${bookingSelect(source)} where ${tenantIs(tenant, 'b')} and b.id = ${id}) d
        join ${source} b2 on b2.id = d.id`;
}

export interface BookingFilters {
  status?: BookingStatus;
  customerId?: string;
  zoneId?: string;
  scheduledFrom?: Date;
  scheduledBefore?: Date;
  ids?: string[];
  metadata?: Metadata;
}

const ORDER_BY: Record<string, SQL> = {
  '-created_at': sql.raw('b.created_at desc, b.id desc'),
  created_at: sql.raw('b.created_at asc, b.id asc'),
  scheduled_at: sql.raw('b.scheduled_at asc, b.id asc'),
  '-scheduled_at': sql.raw('b.scheduled_at desc, b.id desc'),
};

/** The conditions of a list's filters, the tenant's first. */
function bookingConditions(tenant: Tenant, filters: BookingFilters): SQL {
  const conditions: SQL[] = [tenantIs(tenant, 'b')];
  if (filters.status !== undefined) conditions.push(sql`b.status = ${filters.status}`);
  if (filters.customerId !== undefined) conditions.push(sql`b.customer_id = ${filters.customerId}`);
  if (filters.zoneId !== undefined) conditions.push(sql`b.zone_id = ${filters.zoneId}`);
  if (filters.scheduledFrom) conditions.push(sql`b.scheduled_at >= ${filters.scheduledFrom}`);
  if (filters.scheduledBefore) conditions.push(sql`b.scheduled_at < ${filters.scheduledBefore}`);
  if (filters.ids) conditions.push(sql`b.id = any(${textArray(filters.ids)})`);
  if (filters.metadata) conditions.push(metadataContains(filters.metadata, sql`b.metadata`));
  return sql.join(conditions, sql` and `);
}

/**
 * A page of bookings as `select` (the booking joined to its customer and address, aliased b, c
 * and a) reads it, and the count of all that match. The page is picked from bookings alone (an
 * index scan), then joined.
 */
async function bookingPage<Row>(
  db: Sql,
  tenant: Tenant,
  select: SQL,
  filters: BookingFilters,
  sort: string,
  page: PageRequest,
): Promise<{ rows: Row[]; total: number }> {
  const where = bookingConditions(tenant, filters);
  const order = ORDER_BY[sort] ?? (ORDER_BY['-created_at'] as SQL);
  const [rows, count] = await Promise.all([
    query<Row>(
      db,
      sql`${select} where b.id in (select b.id from bookings b where ${where} order by ${order} ${pageLimit(page)})
          order by ${order}`,
    ),
    countBookings(db, tenant, filters, where),
  ]);
  return { rows, total: count };
}

export function listBookings(
  db: Sql,
  tenant: Tenant,
  filters: BookingFilters,
  sort: string,
  page: PageRequest,
): Promise<{ rows: BookingRow[]; total: number }> {
  return bookingPage<BookingRow>(db, tenant, BOOKING_SELECT, filters, sort, page);
}

/** A page of bookings as their ids and versions only (`BOOKING_VERSION`), and the count of all that match. */
export function listBookingVersions(
  db: Sql,
  tenant: Tenant,
  filters: BookingFilters,
  sort: string,
  page: PageRequest,
): Promise<{ rows: ItemVersion[]; total: number }> {
  return bookingPage<ItemVersion>(db, tenant, VERSIONS_SELECT, filters, sort, page);
}

/** The tenant's bookings of `ids` (in no order), with their versions. */
export function findBookingsWithVersions(
  db: Sql,
  tenant: Tenant,
  ids: string[],
): Promise<(BookingRow & ItemVersion)[]> {
  return query<BookingRow & ItemVersion>(
    db,
    sql`${BOOKING_SELECT_WITH_VERSION} where ${tenantIs(tenant, 'b')} and b.id = any(${textArray(ids)})`,
  );
}

/** All bookings, or one status, are counted by booking_counts; other filters count the rows. */
async function countBookings(db: Sql, tenant: Tenant, filters: BookingFilters, where: SQL): Promise<number> {
  const { status, ...others } = filters;
  const counted = Object.values(others).every((value) => value === undefined);
  const row = counted
    ? await queryOne<{ total: number }>(
        db,
        sql`select coalesce(sum(count), 0) as total from booking_counts
            where ${tenantIs(tenant)} ${status === undefined ? sql`` : sql`and status = ${status}`}`,
      )
    : await queryOne<{ total: number }>(db, sql`select count(*) as total from bookings b where ${where}`);
  return row?.total ?? 0;
}

const COUNT_SHARDS = 16;

/**
 * Moves the per-status counts by `deltas`, in the shard of the server connection that runs the
 * statement (its rows locked in status order): connections' process ids are consecutive, so
 * concurrent transactions spread over the shards evenly and two meet only when their pids do
 * (a random shard had them queue behind each other for a third of the time under load). A part
 * of the transaction's last statement, the one that publishes its event (`PublishOptions.with`),
 * since the rows are shared by the whole environment. undefined when nothing moves.
 */
export function bookingCountsChange(tenant: Tenant, deltas: Partial<Record<BookingStatus, number>>): SQL | undefined {
  const entries = Object.entries(deltas)
    .filter(([, delta]) => delta !== 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  if (entries.length === 0) return undefined;
  return sql`insert into booking_counts (account_id, environment, status, shard, count)
        select ${tenant.accountId}, ${tenant.environment}, d.status, (pg_backend_pid() % ${COUNT_SHARDS})::smallint, d.delta
        from unnest(${textArray(entries.map(([status]) => status))}, ${sql.param(entries.map(([, delta]) => delta))}::int[])
          with ordinality as d(status, delta, ord)
        order by d.ord
        on conflict (account_id, environment, status, shard) do update set count = booking_counts.count + excluded.count`;
}

export type NewSubscription = { id: string; customerId: string; frequency: Frequency; now: Date };

export function insertSubscription(db: Sql, tenant: Tenant, subscription: NewSubscription): Promise<void> {
  const { id, customerId, frequency, now } = subscription;
  return insertRow(db, 'subscriptions', {
    id,
    ...tenantColumns(tenant),
    customer_id: customerId,
    frequency,
    status: 'active',
    created_at: now,
    updated_at: now,
  });
}

export function findSubscription(db: Sql, tenant: Tenant, id: string) {
  return queryOne<{ id: string; frequency: Exclude<Frequency, 'one-time'>; status: SubscriptionStatus }>(
    db,
    sql`select id, frequency, status from subscriptions s where ${tenantIs(tenant, 's')} and s.id = ${id}`,
  );
}

export async function updateSubscription(
  db: Sql,
  tenant: Tenant,
  id: string,
  changes: { status?: SubscriptionStatus; frequency?: Frequency },
  now: Date,
): Promise<void> {
  const set: SQL[] = [sql`updated_at = ${now}`];
  if (changes.status !== undefined) set.push(sql`status = ${changes.status}`);
  if (changes.frequency !== undefined) set.push(sql`frequency = ${changes.frequency}`);
  await query(
    db,
    sql`update subscriptions set ${sql.join(set, sql`, `)} where ${tenantIs(tenant, 'subscriptions')} and id = ${id}`,
  );
}

/** A customer's booking figures, counted from the rows (exact by construction, not by bookkeeping). */
export async function customerBookingStats(db: Sql, tenant: Tenant, customerId: string): Promise<BookingStats> {
  const row = await queryOne<StatsColumns>(db, statsSelect(tenant, customerId, sql`bookings`));
  return statsOf(row);
}

interface StatsColumns {
  stats_total: number;
  stats_last: Date | null;
  stats_subscribed: boolean;
}

/** The customer's booking figures counted over `bookings` (the table, or it with a row being inserted). */
function statsSelect(tenant: Tenant, customerId: string, bookings: SQL): SQL {
  return sql`select count(*) as stats_total, max(b.created_at) as stats_last,
          exists (select 1 from subscriptions s
                  where ${tenantIs(tenant, 's')} and s.customer_id = ${customerId} and s.status = 'active') as stats_subscribed
        from ${bookings} b where ${tenantIs(tenant, 'b')} and b.customer_id = ${customerId} and b.status <> 'cancelled'`;
}

function statsOf(row: StatsColumns | undefined): BookingStats {
  return {
    totalBookings: Number(row?.stats_total ?? 0),
    lastBookingAt: row?.stats_last ?? null,
    activeSubscription: row?.stats_subscribed ?? false,
  };
}

/** Whether the customer has bookings still to be done (confirmed or in progress). */
export async function hasOpenBookings(db: Sql, tenant: Tenant, customerId: string): Promise<boolean> {
  const row = await queryOne<{ open: boolean }>(
    db,
    sql`select exists (select 1 from bookings b where ${tenantIs(tenant, 'b')} and b.customer_id = ${customerId}
                         and b.status in ('confirmed', 'in_progress')) as open`,
  );
  return row?.open ?? false;
}

/** Confirmed or in-progress bookings of a zone or crew member not over at `from`, soonest first. */
export function findHeldBookings(
  db: Sql,
  tenant: Tenant,
  holder: { zoneId: string } | { staffId: string },
  from: Date,
) {
  const by = 'zoneId' in holder ? sql`b.zone_id = ${holder.zoneId}` : sql`${holder.staffId} = any(b.assigned_crew)`;
  return query<{
    id: string;
    zone_id: string | null;
    industry: string;
    scheduled_at: string;
    estimated_duration: number;
  }>(
    db,
    sql`select b.id, b.zone_id, b.industry, b.scheduled_at, b.estimated_duration from bookings b
        where ${tenantIs(tenant, 'b')} and ${by} and b.status in ('confirmed', 'in_progress')
          and (b.status = 'in_progress' or b.scheduled_at + b.estimated_duration * interval '1 minute' > ${from})
        order by b.scheduled_at, b.id`,
  );
}
