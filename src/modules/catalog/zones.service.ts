// Zones through the API and the dashboard: where the business works, when, and what it costs
// there. Every change is read live by availability and pricing on the next request; bookings
// already made keep their zone, price and crew.
import { constraintViolated, isoTimestamp } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, invalidParameter } from '../../core/errors.ts';
import { checkInput } from '../../core/http/validation.ts';
import { newId } from '../../core/ids.ts';
import { type Page, pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { isValidTimeZone, WEEKDAYS, type WeeklyHours } from '../availability/index.ts';
import { atMostThreeDecimals, type HoursFile, hoursProblems } from './catalog-file.ts';
import { type HeldBookings, heldBy } from './held-bookings.ts';
import * as repository from './zones.repository.ts';
import {
  NewZoneBody,
  type NewZoneBody as NewZoneInput,
  UpdateZoneBody,
  type UpdateZoneBody as UpdateZoneInput,
  type ZoneListQuery,
  type ZoneView,
} from './zones.schemas.ts';

const WEEK = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

/** Hours with every weekday, Monday first, null on days off. */
export function fullWeek(hours: WeeklyHours | HoursFile): ZoneView['hours'] {
  return Object.fromEntries(WEEK.map((day) => [day, hours[day] ?? null])) as ZoneView['hours'];
}

export function zoneView(row: repository.ZoneRow): ZoneView {
  return {
    id: row.id,
    object: 'zone',
    name: row.name,
    timezone: row.timezone,
    zips: row.zips,
    industries: row.industries,
    hours: fullWeek(row.hours),
    slot_interval_minutes: row.slot_interval_minutes,
    travel_buffer_minutes: row.travel_buffer_minutes,
    lead_time_minutes: row.lead_time_minutes,
    price_adjustment_percent: Number(row.price_adjustment_percent),
    tax_rate: Number(row.tax_rate),
    is_active: row.is_active,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export async function listZones(deps: Deps, tenant: Tenant, query: ZoneListQuery): Promise<Page<ZoneView>> {
  const page = pageRequest(query);
  const ids = parseIds(query.ids, 'zone');
  return pageOf(page, await repository.listZones(deps.db, tenant, { ids }, page), zoneView);
}

export async function getZone(deps: Deps, tenant: Tenant, id: string): Promise<ZoneView> {
  return zoneView(found(await repository.findZone(deps.db, tenant, id), 'zone', id));
}

/** The rules the schema cannot say: time zone, hours, atMostThreeDecimals, ZIPs, industries, name. */
async function checkZone(
  deps: Deps,
  tenant: Tenant,
  zone: repository.ZoneValues & { zips: string[] },
  id: string | null,
) {
  if (!isValidTimeZone(zone.timezone)) {
    throw invalidParameter(
      'timezone',
      `Unknown time zone ${zone.timezone}: use an IANA name such as America/New_York.`,
    );
  }
  const [hoursProblem] = hoursProblems(zone.hours as HoursFile, 'zone');
  if (hoursProblem) throw invalidParameter(hoursProblem.path.replace(/^zone\./, ''), 'open must be before close');
  for (const field of ['price_adjustment_percent', 'tax_rate'] as const) {
    if (!atMostThreeDecimals(zone[field])) throw invalidParameter(field, `${field} has at most 3 decimals.`);
  }
  if (zone.zips.some((zip) => zip === '')) throw invalidParameter('zips', 'A ZIP code is empty.');
  if (new Set(zone.zips).size !== zone.zips.length) throw invalidParameter('zips', 'A ZIP code is listed twice.');
  const known = await repository.knownIndustries(deps.db, tenant, zone.industries);
  const unknown = zone.industries.find((slug) => !known.has(slug));
  if (unknown !== undefined) throw invalidParameter('industries', `No such industry: '${unknown}'.`);
  if (new Set(zone.industries).size !== zone.industries.length) {
    throw invalidParameter('industries', 'An industry is listed twice.');
  }
  const named = await repository.findZoneNamed(deps.db, tenant, zone.name, id);
  if (named) {
    throw new AppError('resource_already_exists', `A zone named ${named.name} already exists (${named.id}).`, {
      param: 'name',
    });
  }
}

function zipTaken(holder: { zone_id: string; name: string; zip: string; industry: string }): AppError {
  return new AppError(
    'resource_already_exists',
    `ZIP ${holder.zip} is already served for ${holder.industry} by the zone ${holder.name} (${holder.zone_id}).`,
    { param: 'zips' },
  );
}

/**
 * Writes a zone, its ZIPs and its coverage in one transaction. The coverage pre-check names the
 * zone that holds a ZIP; should a concurrent writer win anyway, the unique index refuses and
 * the holder is looked up after the rollback.
 */
async function saveZone(
  deps: Deps,
  tenant: Tenant,
  id: string,
  write: (deps: Deps, now: Date) => Promise<repository.ZoneValues & { zips: string[] }>,
): Promise<ZoneView> {
  let attempted: repository.ZoneValues & { zips: string[] } = { zips: [], industries: [] } as never;
  try {
    return await inTransaction(deps, async (deps) => {
      await repository.lockZones(deps.db, tenant);
      const now = deps.clock.now();
      attempted = await write(deps, now);
      if (attempted.is_active) {
        const holder = await repository.findCoverageHolder(deps.db, tenant, id, attempted.zips, attempted.industries);
        if (holder) throw zipTaken(holder);
      }
      await repository.replaceZips(deps.db, tenant, id, attempted.zips);
      await repository.rewriteCoverage(deps.db, tenant, id);
      return getZone(deps, tenant, id);
    });
  } catch (error) {
    if (!constraintViolated(error, repository.ZONE_COVERAGE_CONSTRAINT)) throw error;
    const holder = await repository.findCoverageHolder(deps.db, tenant, id, attempted.zips, attempted.industries);
    throw holder
      ? zipTaken(holder)
      : new AppError('resource_already_exists', 'A ZIP is already served.', { param: 'zips' });
  }
}

export async function createZone(deps: Deps, tenant: Tenant, input: NewZoneInput): Promise<ZoneView> {
  const body = checkInput(NewZoneBody, input);
  const id = newId('zone');
  const zone = {
    name: body.name.trim(),
    timezone: body.timezone,
    zips: body.zips.map((zip) => zip.trim()),
    industries: body.industries,
    hours: fullWeek(body.hours),
    slot_interval_minutes: body.slot_interval_minutes ?? 60,
    travel_buffer_minutes: body.travel_buffer_minutes ?? 0,
    lead_time_minutes: body.lead_time_minutes ?? 0,
    price_adjustment_percent: body.price_adjustment_percent ?? 0,
    tax_rate: body.tax_rate ?? 0,
    is_active: body.is_active ?? true,
  };
  return saveZone(deps, tenant, id, async (deps, now) => {
    await checkZone(deps, tenant, zone, null);
    await repository.insertZone(deps.db, tenant, id, zone, now);
    return zone;
  });
}

/**
 * Changes a zone. Hours, interval, buffer, lead time, adjustment and tax apply to slots and
 * prices from the next request on; bookings already made keep their time, price and crew.
 */
export async function updateZone(deps: Deps, tenant: Tenant, id: string, input: UpdateZoneInput): Promise<ZoneView> {
  const body = checkInput(UpdateZoneBody, input);
  return saveZone(deps, tenant, id, async (deps, now) => {
    const row = found(await repository.findZone(deps.db, tenant, id, { forUpdate: true }), 'zone', id);
    const current = zoneView(row);
    const zone = {
      name: body.name?.trim() ?? current.name,
      timezone: body.timezone ?? current.timezone,
      zips: body.zips?.map((zip) => zip.trim()) ?? current.zips,
      industries: body.industries ?? current.industries,
      hours: body.hours ? fullWeek(body.hours) : current.hours,
      slot_interval_minutes: body.slot_interval_minutes ?? current.slot_interval_minutes,
      travel_buffer_minutes: body.travel_buffer_minutes ?? current.travel_buffer_minutes,
      lead_time_minutes: body.lead_time_minutes ?? current.lead_time_minutes,
      price_adjustment_percent: body.price_adjustment_percent ?? current.price_adjustment_percent,
      tax_rate: body.tax_rate ?? current.tax_rate,
      is_active: body.is_active ?? current.is_active,
    };
    await checkZone(deps, tenant, zone, id);
    await repository.updateZone(deps.db, tenant, id, zone, now);
    return zone;
  });
}

/**
 * Archives a zone: 404 afterwards, gone from lists, availability and pricing, its ZIPs free for
 * another zone. Bookings keep its id. Refused (409 resource_in_use) while confirmed or
 * in-progress bookings in it are not over.
 */
export async function deleteZone(deps: Deps, tenant: Tenant, id: string, heldBookings: HeldBookings): Promise<void> {
  await inTransaction(deps, async (deps) => {
    await repository.lockZones(deps.db, tenant);
    const row = found(await repository.findZone(deps.db, tenant, id, { forUpdate: true }), 'zone', id);
    const now = deps.clock.now();
    const held = await heldBookings(deps, tenant, { zoneId: id }, now);
    if (held.length > 0) throw heldBy(`The zone ${row.name} has`, held);
    await repository.archiveZone(deps.db, tenant, id, now);
  });
}

/** Industries a zone or crew member may serve (the setup pages' checkboxes). */
export function industryChoices(deps: Deps, tenant: Tenant): Promise<{ slug: string; name: string }[]> {
  return repository.listIndustryChoices(deps.db, tenant);
}
