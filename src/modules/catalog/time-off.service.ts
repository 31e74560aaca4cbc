// A crew member's time off. It is held like booked time (staff_time_blocks), so the one
// exclusion constraint refuses time off over a booking and a booking inside time off, under any
// concurrency, and availability never offers a slot inside it.
import { isoTimestamp } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, invalidParameter, notFound } from '../../core/errors.ts';
import { checkInput } from '../../core/http/validation.ts';
import { newId } from '../../core/ids.ts';
import { type Page, pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { heldBy } from './held-bookings.ts';
import * as repository from './staff.repository.ts';
import { NewTimeOffBody, type TimeOffListQuery, type TimeOffView } from './staff.schemas.ts';

const MAX_DAYS = 366;

export function timeOffView(row: repository.TimeOffRow): TimeOffView {
  return {
    id: row.id,
    object: 'time_off',
    staff_id: row.staff_id,
    starts_at: isoTimestamp(row.starts_at),
    ends_at: isoTimestamp(row.ends_at),
    reason: row.reason,
    created_at: isoTimestamp(row.created_at),
  };
}

async function liveStaff(deps: Deps, tenant: Tenant, staffId: string) {
  return found(await repository.findStaff(deps.db, tenant, staffId), 'staff member', staffId);
}

export async function listTimeOff(
  deps: Deps,
  tenant: Tenant,
  staffId: string,
  query: TimeOffListQuery,
): Promise<Page<TimeOffView>> {
  await liveStaff(deps, tenant, staffId);
  const page = pageRequest(query);
  const ids = parseIds(query.ids, 'toff');
  return pageOf(page, await repository.listTimeOff(deps.db, tenant, staffId, { ids }, page), timeOffView);
}

/**
 * Blocks a crew member's time off. Over confirmed or in-progress bookings: 409 resource_in_use
 * naming them; over other time off: 409 resource_already_exists naming it.
 */
export async function createTimeOff(
  deps: Deps,
  tenant: Tenant,
  staffId: string,
  input: { starts_at: string; ends_at: string; reason?: string | null },
): Promise<TimeOffView> {
  const body = checkInput(NewTimeOffBody, input);
  const start = new Date(body.starts_at);
  const end = new Date(body.ends_at);
  if (end <= start) throw invalidParameter('ends_at', 'ends_at must be after starts_at.');
  if (end.getTime() - start.getTime() > MAX_DAYS * 86_400_000) {
    throw invalidParameter('ends_at', `Time off lasts at most ${MAX_DAYS} days; add another for longer.`);
  }
  const id = newId('timeOff');
  return inTransaction(deps, async (deps) => {
    await liveStaff(deps, tenant, staffId);
    const reason = body.reason?.trim() || null;
    const held = await repository.tryInsertTimeOff(deps.db, tenant, {
      id,
      staffId,
      start,
      end,
      reason,
      now: deps.clock.now(),
    });
    if (!held) {
      // the insert waited for any concurrent holder, so this statement sees who holds the time
      const holders = await repository.findHolders(deps.db, tenant, staffId, start, end);
      const bookings = holders.flatMap((holder) => (holder.booking_id ? [{ id: holder.booking_id }] : []));
      if (bookings.length > 0) throw heldBy('That time off overlaps', bookings, 'starts_at');
      const others = holders.flatMap((holder) => (holder.time_off_id ? [holder.time_off_id] : []));
      throw new AppError(
        'resource_already_exists',
        `That time off overlaps time off already recorded: ${others.slice(0, 5).join(', ') || 'another block'}.`,
        { param: 'starts_at' },
      );
    }
    const row = await repository.findTimeOff(deps.db, tenant, staffId, id);
    if (!row) throw new Error('time off vanished in its own transaction');
    return timeOffView(row);
  });
}

/** Removes time off: the time is free for bookings from the next request on. */
export async function deleteTimeOff(deps: Deps, tenant: Tenant, staffId: string, timeOffId: string): Promise<void> {
  await inTransaction(deps, async (deps) => {
    await liveStaff(deps, tenant, staffId);
    const deleted = await repository.deleteTimeOff(deps.db, tenant, staffId, timeOffId);
    if (!deleted) throw notFound('time off', timeOffId);
  });
}
