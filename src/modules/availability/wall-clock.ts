// Local wall-clock time in a zone's IANA timezone, from the platform's Intl data (no library):
// which instant a local date and time is, and which local date and time an instant is.

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function formattedFields(instant: number, timeZone: string): Fields {
  const fields: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return fields as unknown as Fields;
}

// Offsets change only at transitions, which fall on quarter hours (UTC) in every zone's rules
// since long before our dates; so one offset per zone and quarter hour, asked of Intl once.
// Intl is slow (microseconds a call), and availability asks hundreds of times per request.
const QUARTER_HOUR = 15 * 60_000;
const offsets = new Map<string, number>();

/** How far the zone's wall clock is ahead of UTC at this instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const bucket = Math.floor(instant / QUARTER_HOUR) * QUARTER_HOUR;
  const key = `${timeZone}|${bucket}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const f = formattedFields(bucket, timeZone);
    offset = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second) - bucket;
    if (offsets.size > 100_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

function fieldsAt(instant: number, timeZone: string): Fields {
  const wall = new Date(instant + offsetAt(instant, timeZone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** The local date (YYYY-MM-DD) at an instant. */
export function localDate(instant: number, timeZone: string): string {
  const f = fieldsAt(instant, timeZone);
  return `${f.year}-${pad(f.month)}-${pad(f.day)}`;
}

/** The local time of day (HH:MM) at an instant. */
export function localTime(instant: number, timeZone: string): string {
  const f = fieldsAt(instant, timeZone);
  return `${pad(f.hour)}:${pad(f.minute)}`;
}

/** "8:00 AM" for an instant, in the zone's local time. */
export function clockLabel(instant: number, timeZone: string): string {
  const f = fieldsAt(instant, timeZone);
  const hour12 = f.hour % 12 === 0 ? 12 : f.hour % 12;
  return `${hour12}:${pad(f.minute)} ${f.hour < 12 ? 'AM' : 'PM'}`;
}

function parseDate(date: string): [number, number, number] {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return [year, month, day];
}

export function weekdayOf(date: string): Weekday {
  const [year, month, day] = parseDate(date);
  return WEEKDAYS[new Date(Date.UTC(year, month - 1, day)).getUTCDay()] as Weekday;
}

/** "08:30" as minutes after midnight ("24:00" is 1440, the end of the day). */
export function minutesOfDay(time: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

/**
 * The instants at which the local wall clock reads `date` + `minutes`: none when the clock
 * jumps over that time (spring forward), two when it passes it twice (fall back), else one.
 */
export function instantsOf(date: string, minutes: number, timeZone: string): number[] {
  const [year, month, day] = parseDate(date);
  const asUtc = Date.UTC(year, month - 1, day, 0, minutes);
  const candidates = new Set([offsetAt(asUtc - DAY, timeZone), offsetAt(asUtc + DAY, timeZone)]);
  const found: number[] = [];
  for (const offset of candidates) {
    const candidate = asUtc - offset;
    if (offsetAt(candidate, timeZone) === offset) found.push(candidate);
  }
  return found.sort((a, b) => a - b);
}

/**
 * One instant for a local date and time, as a person reading a clock means it: the earlier
 * of two on a fall-back night, and on a spring-forward night a skipped time counts as the
 * moment the clock jumps to (02:30 becomes 03:30 in New York), like Temporal's "compatible".
 */
export function instantOf(date: string, minutes: number, timeZone: string): number {
  const found = instantsOf(date, minutes, timeZone);
  if (found.length > 0) return found[0] as number;
  const [year, month, day] = parseDate(date);
  const asUtc = Date.UTC(year, month - 1, day, 0, minutes);
  return asUtc - offsetAt(asUtc - DAY, timeZone);
}

/** One local day's clock: the same answers as the functions above, computed once per day. */
export interface DayClock {
  date: string;
  weekday: Weekday;
  timeZone: string;
  /** As instantsOf, for this day. */
  instantsAt(minutes: number): number[];
  /** As instantOf, for this day. */
  instantAt(minutes: number): number;
  /** HH:MM local. */
  time(instant: number): string;
  /** "8:00 AM" local. */
  label(instant: number): string;
}

export function dayClock(date: string, timeZone: string): DayClock {
  const [year, month, day] = parseDate(date);
  const midnight = Date.UTC(year, month - 1, day);
  const offset = offsetAt(midnight - DAY, timeZone);
  const weekday = WEEKDAYS[new Date(midnight).getUTCDay()] as Weekday;
  // no change of offset from the day before to the day after: plain arithmetic, no Intl
  if (offsetAt(midnight + 2 * DAY, timeZone) === offset) {
    const wall = (instant: number) => new Date(instant + offset);
    return {
      date,
      weekday,
      timeZone,
      instantsAt: (minutes) => [midnight + minutes * MINUTE - offset],
      instantAt: (minutes) => midnight + minutes * MINUTE - offset,
      time: (instant) => {
        const w = wall(instant);
        return `${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
      },
      label: (instant) => {
        const hour = wall(instant).getUTCHours();
        return `${hour % 12 === 0 ? 12 : hour % 12}:${pad(wall(instant).getUTCMinutes())} ${hour < 12 ? 'AM' : 'PM'}`;
      },
    };
  }
  return {
    date,
    weekday,
    timeZone,
    instantsAt: (minutes) => instantsOf(date, minutes, timeZone),
    instantAt: (minutes) => instantOf(date, minutes, timeZone),
    time: (instant) => localTime(instant, timeZone),
    label: (instant) => clockLabel(instant, timeZone),
  };
}
