// Owns, with catalog.repository.ts: staff and staff_zones as the API and the dashboard write
// them, and time off, which is crew time: rows of staff_time_blocks without a booking, so that
// the exclusion constraint staff_time_blocks_no_overlap keeps bookings and time off apart.
import { query, queryOne, type SQL, type Sql, sql, textArray } from '../../core/db.ts';
import { type PageRequest, pageOfTable } from '../../core/paging.ts';
import { replaceLinks, updateColumns } from '../../core/rows.ts';
import { type Tenant, tenantIs } from '../../core/tenant.ts';
import type { WeeklyHours } from '../availability/index.ts';

export interface StaffRow {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  zones: string[];
  industries: string[];
  hours: WeeklyHours;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

const STAFF_COLUMNS = sql.raw(`id, name, email, phone, industries, hours, is_active, created_at, updated_at,
  array(select z.id from staff_zones sz join zones z on z.id = sz.zone_id
        where sz.staff_id = staff.id and z.archived_at is null order by z.position, z.id) as zones`);

const live = (tenant: Tenant) => sql`${tenantIs(tenant)} and archived_at is null`;

export function findStaff(db: Sql, tenant: Tenant, id: string, options: { forUpdate?: boolean } = {}) {
  const lock = options.forUpdate ? sql` for update` : sql``;
  return queryOne<StaffRow>(db, sql`select ${STAFF_COLUMNS} from staff where ${live(tenant)} and id = ${id}${lock}`);
}

export interface StaffFilters {
  zoneId?: string;
  industry?: string;
  isActive?: boolean;
  ids?: string[];
}

export function listStaff(db: Sql, tenant: Tenant, filters: StaffFilters, page: PageRequest) {
  const conditions: SQL[] = [live(tenant)];
  if (filters.ids) conditions.push(sql`id = any(${textArray(filters.ids)})`);
  if (filters.industry !== undefined) conditions.push(sql`${filters.industry} = any(industries)`);
  if (filters.isActive !== undefined) conditions.push(sql`is_active = ${filters.isActive}`);
  if (filters.zoneId !== undefined) {
    conditions.push(
      sql`exists (select 1 from staff_zones sz where sz.staff_id = staff.id and sz.zone_id = ${filters.zoneId})`,
    );
  }
  return pageOfTable<StaffRow>(db, { table: 'staff', columns: STAFF_COLUMNS, where: conditions }, page);
}

export interface StaffValues {
  name: string;
  email: string | null;
  phone: string | null;
  industries: string[];
  hours: WeeklyHours;
  is_active: boolean;
}

export async function insertStaff(tx: Sql, tenant: Tenant, id: string, member: StaffValues, now: Date) {
  await query(
    tx,
    sql`insert into staff (id, account_id, environment, name, email, phone, industries, hours, is_active, position,
          created_at, updated_at)
        values (${id}, ${tenant.accountId}, ${tenant.environment}, ${member.name}, ${member.email}, ${member.phone},
          ${textArray(member.industries)}, ${JSON.stringify(member.hours)}::jsonb, ${member.is_active},
          (select coalesce(max(position), -1) + 1 from staff where ${tenantIs(tenant)}), ${now}, ${now})`,
  );
}

export async function updateStaff(tx: Sql, tenant: Tenant, id: string, member: StaffValues, now: Date) {
  await query(
    tx,
    sql`update staff set name = ${member.name}, email = ${member.email}, phone = ${member.phone},
          industries = ${textArray(member.industries)}, hours = ${JSON.stringify(member.hours)}::jsonb,
          is_active = ${member.is_active}, updated_at = ${now}
        where ${tenantIs(tenant)} and id = ${id}`,
  );
}

export async function archiveStaff(tx: Sql, tenant: Tenant, id: string, now: Date) {
  await updateColumns(tx, 'staff', { tenant, id }, { archived_at: now }, now);
}

export function replaceStaffZones(tx: Sql, tenant: Tenant, staffId: string, zoneIds: string[]) {
  return replaceLinks(tx, tenant, { table: 'staff_zones', owner: 'staff_id', value: 'zone_id' }, staffId, zoneIds);
}

export interface TimeOffRow {
  id: string;
  staff_id: string;
  starts_at: string;
  ends_at: string;
  reason: string | null;
  created_at: string;
}

const TIME_OFF_COLUMNS = sql.raw(
  'time_off_id as id, staff_id, lower(during) as starts_at, upper(during) as ends_at, reason, created_at',
);

/**
 * Blocks a crew member's time off unless it overlaps time already held (a booking, other time
 * off): true when blocked. ON CONFLICT DO NOTHING waits for a concurrent holder to commit or
 * roll back, so a booking racing this time off is seen either way.
 */
export async function tryInsertTimeOff(
  tx: Sql,
  tenant: Tenant,
  timeOff: { id: string; staffId: string; start: Date; end: Date; reason: string | null; now: Date },
): Promise<boolean> {
  const rows = await query(
    tx,
    sql`insert into staff_time_blocks (account_id, environment, staff_id, booking_id, time_off_id, reason, during, created_at)
        values (${tenant.accountId}, ${tenant.environment}, ${timeOff.staffId}, null, ${timeOff.id}, ${timeOff.reason},
                tstzrange(${timeOff.start}::timestamptz, ${timeOff.end}::timestamptz, '[)'), ${timeOff.now})
        on conflict do nothing returning id`,
  );
  return rows.length > 0;
}

/** What holds a crew member's time between start and end: bookings and time off. */
export function findHolders(tx: Sql, tenant: Tenant, staffId: string, start: Date, end: Date) {
  return query<{ booking_id: string | null; time_off_id: string | null }>(
    tx,
    sql`select booking_id, time_off_id from staff_time_blocks
        where ${tenantIs(tenant)} and staff_id = ${staffId}
          and during && tstzrange(${start}::timestamptz, ${end}::timestamptz, '[)')
        order by lower(during), id`,
  );
}

export function findTimeOff(db: Sql, tenant: Tenant, staffId: string, id: string) {
  return queryOne<TimeOffRow>(
    db,
    sql`select ${TIME_OFF_COLUMNS} from staff_time_blocks
        where ${tenantIs(tenant)} and staff_id = ${staffId} and time_off_id = ${id}`,
  );
}

export function listTimeOff(db: Sql, tenant: Tenant, staffId: string, filters: { ids?: string[] }, page: PageRequest) {
  const conditions: SQL[] = [tenantIs(tenant), sql`staff_id = ${staffId}`, sql`time_off_id is not null`];
  if (filters.ids) conditions.push(sql`time_off_id = any(${textArray(filters.ids)})`);
  return pageOfTable<TimeOffRow>(
    db,
    {
      table: 'staff_time_blocks',
      columns: TIME_OFF_COLUMNS,
      where: conditions,
      order: sql`order by created_at desc, time_off_id desc`,
    },
    page,
  );
}

export async function deleteTimeOff(tx: Sql, tenant: Tenant, staffId: string, id: string): Promise<boolean> {
  const rows = await query(
    tx,
    sql`delete from staff_time_blocks where ${tenantIs(tenant)} and staff_id = ${staffId} and time_off_id = ${id}
        returning id`,
  );
  return rows.length > 0;
}
