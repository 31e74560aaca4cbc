import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantOf, isCalendarDate, isTimestamp, isTimestampOrDate, periodEnd, periodStart } from './dates.ts';

const NOT_DAYS = [
  '1969-12-31',
  '0000-01-01',
  '10000-01-01',
  '2026-02-29',
  '1900-02-29',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '2026-01-00',
  '2026-1-1',
  ' 2026-01-01',
  '',
];
const TIMESTAMPS = [
  '2026-06-01T09:00:00Z',
  '2026-06-01t09:00:00z',
  '2026-06-01 09:00:00.123456Z',
  '2026-06-01T09:00:00+05:30',
  '2026-06-01T09:00:00-0800',
  '9999-12-31T23:59:59.999Z',
];
const NOT_TIMESTAMPS = [
  '2026-06-01T09:00:00',
  '2026-06-01T09:00Z',
  '2026-06-01T09:00:00+05',
  '2026-06-30T23:59:60Z',
  '2026-06-01T24:00:00Z',
  '2026-06-01T09:60:00Z',
  '2026-02-30T09:00:00Z',
  '2026-06-01T09:00:00+24:00',
  '1970-01-01T00:30:00+01:00',
  '9999-12-31T23:00:00-05:00',
  '0000-01-01T00:00:00Z',
];

describe('calendar dates', () => {
  it.each(['1970-01-01', '2024-02-29', '2000-02-29', '9999-12-31'])('takes the real day %s', (day) =>
    expect(isCalendarDate(day)).toBe(true));
  it.each(NOT_DAYS)('refuses %j (not a day, or outside 1970-9999)', (day) => expect(isCalendarDate(day)).toBe(false));

  it('agrees with the UTC calendar on every day it accepts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99_999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (y, m, d) => {
          const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          const real = new Date(Date.UTC(y, m - 1, d));
          const exists =
            y >= 1970 &&
            y <= 9999 &&
            real.getUTCFullYear() === y &&
            real.getUTCMonth() === m - 1 &&
            real.getUTCDate() === d;
          expect(isCalendarDate(text)).toBe(exists);
        },
      ),
    );
  });
});

describe('timestamps', () => {
  it.each(TIMESTAMPS)('takes %s (RFC 3339 with a zone JavaScript can read)', (value) =>
    expect(isTimestamp(value)).toBe(true));
  it.each(NOT_TIMESTAMPS)('refuses %s (no zone, no seconds, or not a real day and time)', (value) =>
    expect(isTimestamp(value)).toBe(false));

  it('filters also take a plain date or a time without seconds or zone, read as UTC', () => {
    for (const value of ['2026-06-01', '2026-06-01T09:00', '2026-06-01T09:00:30.5', '2026-06-01T09:00+02:00']) {
      expect(isTimestampOrDate(value), value).toBe(true);
    }
    for (const value of ['2026-06-31', '2026-06-01T25:00', '2026-06-01 09:00', '2026-06-01T09', '1969-12-31T23:59']) {
      expect(isTimestampOrDate(value), value).toBe(false);
    }
    expect(instantOf('2026-06-01T09:00').toISOString()).toBe('2026-06-01T09:00:00.000Z');
    expect(instantOf('2026-06-01').toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(instantOf('2026-06-01T09:00+02:00').toISOString()).toBe('2026-06-01T07:00:00.000Z');
  });

  it('makes a plain date_to the whole day and an exact one inclusive', () => {
    expect(periodStart(undefined)).toBeUndefined();
    expect(periodEnd('2026-06-01')?.toISOString()).toBe('2026-06-02T00:00:00.000Z');
    expect(periodEnd('2026-06-01T10:00:00Z')?.toISOString()).toBe('2026-06-01T10:00:00.001Z');
    expect(periodEnd('9999-12-31')?.toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});
