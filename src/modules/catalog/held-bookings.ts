// What the catalog asks of bookings before it archives or changes a zone or a crew member. The
// catalog cannot import bookings (bookings import the catalog), so app.ts and the dashboard hand
// the rule in, as customers get theirs (CONTRACT §11: something still needed is 409 resource_in_use).
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';

/** A confirmed or in-progress booking that is not over yet. */
export interface HeldBooking {
  id: string;
  zoneId: string | null;
  industry: string;
  scheduledAt: Date;
  durationMinutes: number;
}

/** The confirmed or in-progress bookings of a zone or a crew member that end after `from`, soonest first. */
export type HeldBookings = (
  deps: Deps,
  tenant: Tenant,
  holder: { zoneId: string } | { staffId: string },
  from: Date,
) => Promise<HeldBooking[]>;

/** 409 resource_in_use naming up to 5 of the bookings that hold `what`. */
export function heldBy(what: string, bookings: { id: string }[], param?: string): AppError {
  const shown = bookings.slice(0, 5).map((booking) => booking.id);
  const more = bookings.length > 5 ? ` and ${bookings.length - 5} more` : '';
  return new AppError(
    'resource_in_use',
    `${what} confirmed or in-progress bookings: ${shown.join(', ')}${more}. Cancel or move them first.`,
    param === undefined ? {} : { param },
  );
}
