// Dates and timestamps the API accepts, checked in one place: the request validator's formats
// (`date`, `date-time`, `date-or-date-time`) call these, and the services read the instants with
// `instantOf`/`periodStart`/`periodEnd`, so a value that passed validation always means one instant.

/** The years a date may name (CONTRACT §12): before 1970 or after 9999 is a client's mistake. */
const FIRST_INSTANT = Date.UTC(1970, 0, 1);
const END_INSTANT = Date.UTC(10000, 0, 1);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time as JSON bodies send it: seconds and a zone required (`+05` alone is not
// accepted: JavaScript cannot read it).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):?(\d{2}))$/;
// Query filters also take a plain date, or a time without seconds or zone (read as UTC).
const DATE_OR_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function realDay(year: number, month: number, day: number): boolean {
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  const days = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day <= days;
}

/** Hours, minutes and seconds of a clock (no leap second: JavaScript cannot hold one). */
function realTime(parts: (string | undefined)[]): boolean {
  const [hour = '0', minute = '0', second = '0', offsetHours = '0', offsetMinutes = '0'] = parts;
  return (
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offsetHours) <= 23 &&
    Number(offsetMinutes) <= 59
  );
}

function inRange(instant: number): boolean {
  return Number.isFinite(instant) && instant >= FIRST_INSTANT && instant < END_INSTANT;
}

/** YYYY-MM-DD naming a day that exists, in 1970-9999. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  return match !== null && realDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** An RFC 3339 timestamp with a zone, naming a real day and time, in 1970-9999 (written and in UTC). */
export function isTimestamp(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match || !realDay(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  return realTime(match.slice(4)) && inRange(Date.parse(value));
}

/** A query filter's value: a plain date, or a timestamp whose zone may be left out (UTC). */
export function isTimestampOrDate(value: string): boolean {
  const match = DATE_OR_TIME.exec(value);
  if (!match || !realDay(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  if (match[4] === undefined) return true;
  return realTime(match.slice(4)) && inRange(instantOf(value).getTime());
}

/** The instant a validated date or timestamp names: a plain date is midnight UTC, no zone is UTC. */
export function instantOf(value: string): Date {
  if (DATE.test(value)) return new Date(`${value}T00:00:00Z`);
  const hasZone = /(?:[Zz]|[+-]\d{2}:?\d{2})$/.test(value.slice(10));
  return new Date(hasZone ? value : `${value}Z`);
}

/** Start of a `date_from`-style filter: the instant, or a plain date's midnight (UTC). */
export function periodStart(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : instantOf(value);
}

/**
 * Exclusive end of a `date_to`-style filter: a plain date is the whole UTC day, an exact
 * timestamp is inclusive (so the end is one millisecond after it).
 */
export function periodEnd(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = instantOf(value).getTime();
  const end = DATE.test(value) ? at + 86_400_000 : at + 1;
  // 9999-12-31 would end in year 10000, which the drivers cannot send: stop a millisecond short
  // (no stored instant lies in that last millisecond: slots start on whole minutes).
  return new Date(Math.min(end, END_INSTANT - 1));
}

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The calendar date `days` after `day` (both YYYY-MM-DD; negative goes back). */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}
