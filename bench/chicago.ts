// The busy zone the booking and catalog benches load: Chicago, junk removal every day from
// 06:00 to 22:00, and a crew that works all of it.
import type { CatalogFile } from '../src/modules/catalog/index.ts';

export const TIMEZONE = 'America/Chicago';
const HOURS = { open: '06:00', close: '22:00' };

/** Adds the Chicago zone (`zips`, slots every `slotIntervalMinutes`) and `staff` crew members to `file`. */
export function addChicago(file: CatalogFile, options: { zips: string[]; slotIntervalMinutes: number; staff: number }) {
  const everyDay = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, HOURS]),
  );
  file.zones.push({
    name: 'Chicago',
    timezone: TIMEZONE,
    zips: options.zips,
    industries: ['junk-removal'],
    hours: everyDay,
    slot_interval_minutes: options.slotIntervalMinutes,
    travel_buffer_minutes: 30,
    lead_time_minutes: 120,
    price_adjustment_percent: 12.5,
    tax_rate: 10.25,
  });
  for (let i = 0; i < options.staff; i++) {
    file.staff.push({ name: `Crew ${i + 1}`, zones: ['Chicago'], industries: ['junk-removal'], hours: everyDay });
  }
}
