// Crew members through the API and the dashboard: who works where, in which industries, when.
// Availability reads them live; a change that would strand a booking already made is refused
// (409 resource_in_use), since bookings never move on their own.
import { isoTimestamp } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { found, invalidParameter, notFound } from '../../core/errors.ts';
import { checkInput } from '../../core/http/validation.ts';
import { newId } from '../../core/ids.ts';
import { type Page, pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { localDate, localTime, minutesOfDay, WEEKDAYS, type WeeklyHours } from '../availability/index.ts';
import { findZoneClocks } from './catalog.repository.ts';
import { type HoursFile, hoursProblems } from './catalog-file.ts';
import { type HeldBooking, type HeldBookings, heldBy } from './held-bookings.ts';
import * as repository from './staff.repository.ts';
import {
  NewStaffBody,
  type NewStaffBody as NewStaffInput,
  type StaffListQuery,
  type StaffView,
  UpdateStaffBody,
  type UpdateStaffBody as UpdateStaffInput,
} from './staff.schemas.ts';
import { findZones, knownIndustries } from './zones.repository.ts';
import { fullWeek } from './zones.service.ts';

export function staffView(row: repository.StaffRow): StaffView {
  return {
    id: row.id,
    object: 'staff',
    name: row.name,
    email: row.email,
    phone: row.phone,
    zones: row.zones,
    industries: row.industries,
    hours: fullWeek(row.hours),
    status: row.is_active ? 'active' : 'inactive',
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export async function listStaff(deps: Deps, tenant: Tenant, query: StaffListQuery): Promise<Page<StaffView>> {
  const page = pageRequest(query);
  const filters = {
    ids: parseIds(query.ids, 'staff'),
    zoneId: query.zone_id,
    industry: query.industry,
    isActive: query.status === undefined ? undefined : query.status === 'active',
  };
  return pageOf(page, await repository.listStaff(deps.db, tenant, filters, page), staffView);
}

export async function getStaff(deps: Deps, tenant: Tenant, id: string): Promise<StaffView> {
  return staffView(found(await repository.findStaff(deps.db, tenant, id), 'staff member', id));
}

/** The rules the schema cannot say: hours, known industries, live zones of this environment. */
async function checkStaff(deps: Deps, tenant: Tenant, member: repository.StaffValues & { zones: string[] }) {
  const [hoursProblem] = hoursProblems(member.hours as HoursFile, 'staff');
  if (hoursProblem) throw invalidParameter(hoursProblem.path.replace(/^staff\./, ''), 'open must be before close');
  const known = await knownIndustries(deps.db, tenant, member.industries);
  const unknown = member.industries.find((slug) => !known.has(slug));
  if (unknown !== undefined) throw invalidParameter('industries', `No such industry: '${unknown}'.`);
  const zones = new Set((await findZones(deps.db, tenant, member.zones)).map((zone) => zone.id));
  const missing = member.zones.find((id) => !zones.has(id));
  if (missing !== undefined) throw notFound('zone', missing, 'zones');
}

function valuesOf(body: { name: string; email?: string | null; phone?: string | null; industries: string[] }) {
  return {
    name: body.name.trim(),
    email: body.email?.trim() || null,
    phone: body.phone?.trim() || null,
    industries: [...new Set(body.industries)],
  };
}

export async function createStaff(deps: Deps, tenant: Tenant, input: NewStaffInput): Promise<StaffView> {
  const body = checkInput(NewStaffBody, input);
  const id = newId('staff');
  const member = { ...valuesOf(body), hours: fullWeek(body.hours), is_active: body.status !== 'inactive' };
  const zones = [...new Set(body.zones)];
  return inTransaction(deps, async (deps) => {
    await checkStaff(deps, tenant, { ...member, zones });
    await repository.insertStaff(deps.db, tenant, id, member, deps.clock.now());
    await repository.replaceStaffZones(deps.db, tenant, id, zones);
    return getStaff(deps, tenant, id);
  });
}

/** Whether a booking's job lies inside a day of `hours`, read in its zone's local time. */
function withinHours(hours: WeeklyHours, booking: HeldBooking, timeZone: string): boolean {
  const start = booking.scheduledAt.getTime();
  const end = start + booking.durationMinutes * 60_000;
  const date = localDate(start, timeZone);
  const day = hours[WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] as keyof WeeklyHours];
  if (!day) return false;
  const endDate = localDate(end, timeZone);
  const endMinutes =
    endDate === date ? minutesOfDay(localTime(end, timeZone)) : localTime(end, timeZone) === '00:00' ? 1440 : 99_999;
  return minutesOfDay(localTime(start, timeZone)) >= minutesOfDay(day.open) && endMinutes <= minutesOfDay(day.close);
}

/** Bookings not over yet that the changed crew member could no longer do (none → the change may go ahead). */
async function strandedBookings(
  deps: Deps,
  tenant: Tenant,
  held: HeldBooking[],
  change: { hours?: WeeklyHours; zones?: string[]; industries?: string[] },
): Promise<{ bookings: HeldBooking[]; param: string }> {
  if (change.zones) {
    const zones = change.zones;
    const bookings = held.filter((booking) => booking.zoneId !== null && !zones.includes(booking.zoneId));
    if (bookings.length) return { bookings, param: 'zones' };
  }
  if (change.industries) {
    const industries = change.industries;
    const bookings = held.filter((booking) => !industries.includes(booking.industry));
    if (bookings.length) return { bookings, param: 'industries' };
  }
  if (change.hours) {
    const hours = change.hours;
    const zoneIds = [...new Set(held.flatMap((booking) => (booking.zoneId ? [booking.zoneId] : [])))];
    const clocks = zoneIds.length ? await findZoneClocks(deps.db, tenant, zoneIds) : [];
    const timeZones = new Map(clocks.map((zone) => [zone.id, zone.timezone]));
    const bookings = held.filter(
      (booking) => !withinHours(hours, booking, timeZones.get(booking.zoneId ?? '') ?? 'UTC'),
    );
    if (bookings.length) return { bookings, param: 'hours' };
  }
  return { bookings: [], param: '' };
}

/**
 * Changes a crew member. Refused (409 resource_in_use) when a booking not over yet would fall
 * outside their new hours, zones or industries, or when made inactive while holding one.
 */
export async function updateStaff(
  deps: Deps,
  tenant: Tenant,
  id: string,
  input: UpdateStaffInput,
  heldBookings: HeldBookings,
): Promise<StaffView> {
  const body = checkInput(UpdateStaffBody, input);
  return inTransaction(deps, async (deps) => {
    const row = found(await repository.findStaff(deps.db, tenant, id, { forUpdate: true }), 'staff member', id);
    const member = {
      ...valuesOf({
        name: body.name ?? row.name,
        email: body.email === undefined ? row.email : body.email,
        phone: body.phone === undefined ? row.phone : body.phone,
        industries: body.industries ?? row.industries,
      }),
      hours: body.hours ? fullWeek(body.hours) : row.hours,
      is_active: body.status === undefined ? row.is_active : body.status === 'active',
    };
    const zones = body.zones ? [...new Set(body.zones)] : row.zones;
    await checkStaff(deps, tenant, { ...member, zones });
    const held = await heldBookings(deps, tenant, { staffId: id }, deps.clock.now());
    if (held.length > 0 && !member.is_active && row.is_active) {
      throw heldBy(`${row.name} cannot be made inactive while holding`, held, 'status');
    }
    const stranded = await strandedBookings(deps, tenant, held, {
      hours: body.hours ? member.hours : undefined,
      zones: body.zones ? zones : undefined,
      industries: body.industries ? member.industries : undefined,
    });
    if (stranded.bookings.length > 0) {
      throw heldBy(`Changing ${row.name}'s ${stranded.param} would strand`, stranded.bookings, stranded.param);
    }
    await repository.updateStaff(deps.db, tenant, id, member, deps.clock.now());
    if (body.zones) await repository.replaceStaffZones(deps.db, tenant, id, zones);
    return getStaff(deps, tenant, id);
  });
}

/**
 * Archives a crew member: 404 afterwards, gone from lists and availability; bookings keep the
 * id in their crew. Refused (409 resource_in_use) while they hold bookings not over yet.
 */
export async function deleteStaff(deps: Deps, tenant: Tenant, id: string, heldBookings: HeldBookings) {
  await inTransaction(deps, async (deps) => {
    // the row lock makes a booking racing this one wait, then find the member gone (holdCrewTime)
    const row = found(await repository.findStaff(deps.db, tenant, id, { forUpdate: true }), 'staff member', id);
    const held = await heldBookings(deps, tenant, { staffId: id }, deps.clock.now());
    if (held.length > 0) throw heldBy(`${row.name} holds`, held);
    await repository.archiveStaff(deps.db, tenant, id, deps.clock.now());
  });
}
