import { describe, expect, it } from 'vitest';
import {
  availableSlots,
  freeStaffForSlot,
  type SchedulingInput,
  slotRefusal,
  type ZoneSchedule,
} from './availability.ts';
import { instantOf, instantsOf, localDate, weekdayOf } from './wall-clock.ts';

const DAY = { open: '08:00', close: '18:00' };
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const EVERY_DAY = Object.fromEntries(WEEKDAYS.map((day) => [day, DAY])) as Record<
  (typeof WEEKDAYS)[number],
  typeof DAY
>;

const zone: ZoneSchedule = {
  id: 'zone_1',
  name: 'Manhattan',
  timezone: 'America/New_York',
  hours: EVERY_DAY,
  slotIntervalMinutes: 60,
  travelBufferMinutes: 30,
  leadTimeMinutes: 120,
};

const at = (iso: string) => new Date(iso).getTime();
const starts = (input: SchedulingInput & { now: Date }) => availableSlots(input).available_slots.map((s) => s.start);

function input(overrides: Partial<SchedulingInput & { now: Date }> = {}): SchedulingInput & { now: Date } {
  return {
    date: '2026-06-02',
    now: new Date('2026-06-01T12:00:00Z'),
    durationMinutes: 120,
    zone,
    staff: [{ id: 'staff_a', hours: EVERY_DAY }],
    booked: {},
    ...overrides,
  };
}

describe('wall clock', () => {
  it('maps local times to instants across DST changes in New York', () => {
    expect(new Date(instantOf('2026-03-07', 8 * 60, 'America/New_York')).toISOString()).toBe(
      '2026-03-07T13:00:00.000Z',
    );
    expect(new Date(instantOf('2026-03-08', 8 * 60, 'America/New_York')).toISOString()).toBe(
      '2026-03-08T12:00:00.000Z',
    );
    // 02:30 does not exist on the spring-forward night; 01:30 exists twice on the fall-back night
    expect(instantsOf('2026-03-08', 150, 'America/New_York')).toEqual([]);
    expect(instantsOf('2026-11-01', 90, 'America/New_York').map((t) => new Date(t).toISOString())).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T06:30:00.000Z',
    ]);
    expect(localDate(at('2026-06-02T03:59:00Z'), 'America/New_York')).toBe('2026-06-01');
    expect(weekdayOf('2026-06-02')).toBe('tuesday');
  });
});

describe('availableSlots', () => {
  it('offers every interval from opening until the job would pass closing, with labels and UTC instants', () => {
    const result = availableSlots(input());
    expect(result.available_slots).toHaveLength(9);
    expect(result.available_slots[0]).toEqual({
      start: '08:00',
      end: '10:00',
      label: '8:00 AM - 10:00 AM',
      starts_at: '2026-06-02T12:00:00.000Z',
      ends_at: '2026-06-02T14:00:00.000Z',
    });
    expect(result.available_slots.at(-1)).toMatchObject({ start: '16:00', end: '18:00', label: '4:00 PM - 6:00 PM' });
    expect(result.fully_booked).toBe(false);
  });

  it('lets the travel buffer of the last job run past closing, but not the job', () => {
    expect(starts(input({ durationMinutes: 90 })).at(-1)).toBe('16:00'); // 16:00-17:30 (+30 buffer = 18:00)
    expect(starts(input({ durationMinutes: 120 })).at(-1)).toBe('16:00'); // ends 18:00, buffer after closing
    expect(starts(input({ durationMinutes: 600 }))).toEqual(['08:00']);
    expect(starts(input({ durationMinutes: 601 }))).toEqual([]);
  });

  it('keeps the job inside the crew member working hours too', () => {
    const short = { ...EVERY_DAY, tuesday: { open: '10:00', close: '15:00' } };
    expect(starts(input({ staff: [{ id: 'staff_a', hours: short }] }))).toEqual(['10:00', '11:00', '12:00', '13:00']);
    expect(availableSlots(input({ staff: [{ id: 'staff_a', hours: { ...EVERY_DAY, tuesday: null } }] }))).toMatchObject(
      {
        available_slots: [],
        fully_booked: true,
      },
    );
  });

  it('keeps a job and its travel buffer clear of booked time on both sides', () => {
    // booked 12:00-14:00 local plus 30 min buffer: [16:00Z, 18:30Z)
    const booked = { staff_a: [at('2026-06-02T16:00:00Z'), at('2026-06-02T18:30:00Z')] };
    // 09:00 ends 11:00 +30 = 11:30, free; 10:00 ends 12:00 + 30 overlaps; 14:00 starts inside the buffer
    expect(starts(input({ booked }))).toEqual(['08:00', '09:00', '15:00', '16:00']);
    // another member's time is not staff_a's
    expect(starts(input({ booked: { staff_b: booked.staff_a } }))).toHaveLength(9);
    const second = { id: 'staff_b', hours: EVERY_DAY };
    expect(starts(input({ booked, staff: [{ id: 'staff_a', hours: EVERY_DAY }, second] }))).toHaveLength(9);
  });

  it('starts no slot within the lead time, and none on past dates', () => {
    const now = new Date('2026-06-02T13:30:00Z'); // 09:30 local, + 2 h = 11:30
    expect(starts(input({ now }))[0]).toBe('12:00');
    expect(availableSlots(input({ date: '2026-06-01', now }))).toMatchObject({
      available_slots: [],
      fully_booked: true,
    });
  });

  it('is not fully booked on a day the zone does not work', () => {
    const closedTuesday = { ...zone, hours: { ...EVERY_DAY, tuesday: null } };
    expect(availableSlots(input({ zone: closedTuesday }))).toMatchObject({ available_slots: [], fully_booked: false });
  });

  it('follows the local clock on DST change days', () => {
    const night = { open: '00:00', close: '06:00' };
    const nightZone = { ...zone, hours: { sunday: night }, travelBufferMinutes: 0, leadTimeMinutes: 0 };
    const staff = [{ id: 'staff_a', hours: { sunday: night } }];
    const hourSlotsOn = (date: string, now: string) =>
      availableSlots(input({ zone: nightZone, staff, date, durationMinutes: 60, now: new Date(now) })).available_slots;
    const spring = hourSlotsOn('2026-03-08', '2026-03-01T00:00:00Z');
    // 02:00 does not exist; the 01:00 job ends at 03:00 local, one real hour later
    expect(spring.map((s) => s.label)).toEqual([
      '12:00 AM - 1:00 AM',
      '1:00 AM - 3:00 AM',
      '3:00 AM - 4:00 AM',
      '4:00 AM - 5:00 AM',
      '5:00 AM - 6:00 AM',
    ]);
    expect(spring[2]?.starts_at).toBe('2026-03-08T07:00:00.000Z');
    const fall = hourSlotsOn('2026-11-01', '2026-10-01T00:00:00Z');
    // 01:00 local comes twice (05:00 and 06:00 UTC) and is offered once
    const utcHours = ['04', '05', '07', '08', '09', '10'];
    expect(fall.map((s) => s.starts_at)).toEqual(utcHours.map((hour) => `2026-11-01T${hour}:00:00.000Z`));
  });
});

describe('freeStaffForSlot', () => {
  it('lists the crew free for the job and its buffer, least busy first', () => {
    const hours = EVERY_DAY;
    const staff = [
      { id: 'staff_a', hours },
      { id: 'staff_b', hours },
      { id: 'staff_c', hours },
    ];
    const booked = {
      staff_a: [
        at('2026-06-02T12:00:00Z'),
        at('2026-06-02T14:30:00Z'),
        at('2026-06-02T20:00:00Z'),
        at('2026-06-02T22:30:00Z'),
      ],
      staff_b: [at('2026-06-02T16:00:00Z'), at('2026-06-02T18:30:00Z')],
    };
    const base = { date: '2026-06-02', zone, staff, booked, durationMinutes: 120 };
    expect(freeStaffForSlot({ ...base, startsAt: new Date('2026-06-02T14:30:00Z') })).toEqual(['staff_c', 'staff_a']);
    expect(freeStaffForSlot({ ...base, startsAt: new Date('2026-06-02T12:00:00Z') })).toEqual(['staff_c', 'staff_b']);
    expect(freeStaffForSlot({ ...base, startsAt: new Date('2026-06-02T11:00:00Z') })).toEqual([]); // 07:00 local
  });
});

describe('slotRefusal', () => {
  it('names the crew hours when the zone is open but nobody is on duty, and shows seconds off the grid', () => {
    const lateCrew = { id: 'staff_a', hours: { tuesday: { open: '12:00', close: '18:00' } } };
    expect(slotRefusal({ ...input({ staff: [lateCrew] }), startsAt: new Date('2026-06-02T13:00:00Z') })).toBe(
      'No crew member for this work is on duty for a 120-minute job at 09:00 America/New_York: ' +
        'pick a slot that availability offers.',
    );
    expect(slotRefusal({ ...input(), startsAt: new Date('2026-06-02T13:00:30Z') })).toMatch(
      /^09:00:30 America\/New_York is not a slot start: .*\(the nearest are 09:00 and 10:00\)/,
    );
  });
});
