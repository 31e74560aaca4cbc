// Which start times a zone can offer on a day: pure functions of the zone, its crew and their
// booked time, so that bookings can run the very same rules inside their transaction.
//
// Rules (CONTRACT §4): slots start every `slotIntervalMinutes` from the zone's opening time;
// the job itself must end by closing time (the travel buffer after it may run past closing);
// no slot starts before now + lead time; a slot is offered when some crew member is free for
// [start, start + duration + travel buffer), working that day, with the job inside their hours.

import { type DayClock, dayClock, localDate, localTime, minutesOfDay, type Weekday, weekdayOf } from './wall-clock.ts';

const MINUTE = 60_000;

export interface DayHours {
  open: string;
  close: string;
}

/** Working hours by weekday; a missing or null day is a day off. */
export type WeeklyHours = Partial<Record<Weekday, DayHours | null>>;

export interface ZoneSchedule {
  id: string;
  name: string;
  timezone: string;
  hours: WeeklyHours;
  slotIntervalMinutes: number;
  travelBufferMinutes: number;
  leadTimeMinutes: number;
}

export interface StaffSchedule {
  id: string;
  hours: WeeklyHours;
}

/**
 * Each crew member's booked time around the day (bookings with their travel buffer, time off),
 * by staff id: [start, end, start, end, …] in epoch ms, each pair [start, end). Flat numbers
 * rather than an object per block: a busy day is hundreds of blocks, read on every request.
 */
export type BookedTime = Readonly<Record<string, readonly number[]>>;

export interface Slot {
  start: string;
  end: string;
  label: string;
  starts_at: string;
  ends_at: string;
}

export interface Availability {
  date: string;
  zone: { id: string; name: string; timezone: string } | null;
  available_slots: Slot[];
  fully_booked: boolean;
}

export interface SchedulingInput {
  /** The zone's local date, YYYY-MM-DD. */
  date: string;
  zone: ZoneSchedule;
  /** The crew serving the zone and the industry. */
  staff: StaffSchedule[];
  /** Their booked time around that day. */
  booked: BookedTime;
  durationMinutes: number;
}

interface Window {
  open: number;
  close: number;
}

function dayWindow(hours: WeeklyHours, clock: DayClock, known?: Map<string, Window | null>): Window | null {
  const day = hours[clock.weekday];
  if (!day) return null;
  // crews mostly share their hours: work each pair out once per request
  const key = `${day.open}-${day.close}`;
  const cached = known?.get(key);
  if (cached !== undefined) return cached;
  const open = clock.instantAt(minutesOfDay(day.open));
  const close = clock.instantAt(minutesOfDay(day.close));
  const window = close > open ? { open, close } : null;
  known?.set(key, window);
  return window;
}

interface Crew {
  id: string;
  window: Window;
  booked: readonly number[];
}

const NOTHING_BOOKED: readonly number[] = [];

function crewOnDuty(input: SchedulingInput, clock: DayClock): Crew[] {
  const crew: Crew[] = [];
  const windows = new Map<string, Window | null>();
  for (const member of input.staff) {
    const window = dayWindow(member.hours, clock, windows);
    if (window) crew.push({ id: member.id, window, booked: input.booked[member.id] ?? NOTHING_BOOKED });
  }
  return crew;
}

function isFree(member: Crew, start: number, jobEnd: number, busyUntil: number): boolean {
  if (start < member.window.open || jobEnd > member.window.close) return false;
  const booked = member.booked;
  for (let i = 0; i < booked.length; i += 2) {
    if ((booked[i] as number) < busyUntil && start < (booked[i + 1] as number)) return false;
  }
  return true;
}

function freeCrew(crew: Crew[], start: number, input: SchedulingInput): Crew[] {
  const jobEnd = start + input.durationMinutes * MINUTE;
  const busyUntil = jobEnd + input.zone.travelBufferMinutes * MINUTE;
  return crew.filter((member) => isFree(member, start, jobEnd, busyUntil));
}

function anyoneFree(crew: Crew[], start: number, input: SchedulingInput): boolean {
  const jobEnd = start + input.durationMinutes * MINUTE;
  const busyUntil = jobEnd + input.zone.travelBufferMinutes * MINUTE;
  return crew.some((member) => isFree(member, start, jobEnd, busyUntil));
}

function slotAt(start: number, durationMinutes: number, clock: DayClock): Slot {
  const end = start + durationMinutes * MINUTE;
  return {
    start: clock.time(start),
    end: clock.time(end),
    label: `${clock.label(start)} - ${clock.label(end)}`,
    starts_at: new Date(start).toISOString(),
    ends_at: new Date(end).toISOString(),
  };
}

/** The slots offered on `input.date`, as the availability endpoint returns them. */
export function availableSlots(input: SchedulingInput & { now: Date }): Availability {
  return slotsOffered(input);
}

/** `only`: the one start asked about (a booking's), the others left unchecked. */
function slotsOffered(input: SchedulingInput & { now: Date }, only?: number): Availability {
  const { zone, date } = input;
  const result: Availability = {
    date,
    zone: { id: zone.id, name: zone.name, timezone: zone.timezone },
    available_slots: [],
    fully_booked: false,
  };
  const clock = dayClock(date, zone.timezone);
  const hours = zone.hours[weekdayOf(date)];
  const window = dayWindow(zone.hours, clock);
  if (!hours || !window) return result;
  result.fully_booked = true;
  if (date < localDate(input.now.getTime(), zone.timezone)) return result;

  const earliest = input.now.getTime() + zone.leadTimeMinutes * MINUTE;
  const crew = crewOnDuty(input, clock);
  const openMinutes = minutesOfDay(hours.open);
  const closeMinutes = minutesOfDay(hours.close);
  const step = Math.max(1, zone.slotIntervalMinutes);
  for (let minutes = openMinutes; minutes + input.durationMinutes <= closeMinutes; minutes += step) {
    // a local time the clock skips (spring forward) is no slot; a repeated one starts at its first pass
    const start = clock.instantsAt(minutes)[0];
    if (start === undefined || start < window.open || start < earliest) continue;
    if (only !== undefined && start !== only) continue;
    if (start + input.durationMinutes * MINUTE > window.close) continue;
    if (!anyoneFree(crew, start, input)) continue;
    result.available_slots.push(slotAt(start, input.durationMinutes, clock));
  }
  result.fully_booked = result.available_slots.length === 0;
  return result;
}

/** The offered slot starting exactly at `startsAt`, if availability offers it. */
export function findOfferedSlot(input: SchedulingInput & { now: Date; startsAt: Date }): Slot | undefined {
  return slotsOffered(input, input.startsAt.getTime()).available_slots[0];
}

/**
 * The crew members free for a job starting at `startsAt` (working then, nothing booked over
 * the job and its travel buffer), least busy that day first: whom a booking can assign.
 */
export function freeStaffForSlot(input: SchedulingInput & { startsAt: Date }): string[] {
  const crew = crewOnDuty(input, dayClock(input.date, input.zone.timezone));
  return freeCrew(crew, input.startsAt.getTime(), input)
    .map((member, index) => ({ member, index }))
    .sort((a, b) => a.member.booked.length - b.member.booked.length || a.index - b.index)
    .map(({ member }) => member.id);
}

/**
 * Why availability does not offer a job at `startsAt` (ask after `findOfferedSlot` found nothing):
 * the first rule it breaks, in the order a person checks them (past, the zone's day and hours, the
 * slot grid, notice, the crew's hours, the crew's bookings), as one sentence saying what to do,
 * with times on the zone's wall clock and the zone named ("10:15 America/New_York").
 */
export function slotRefusal(input: SchedulingInput & { now: Date; startsAt: Date }): string {
  const { zone, durationMinutes } = input;
  const clock = dayClock(input.date, zone.timezone);
  const start = input.startsAt.getTime();
  const end = start + durationMinutes * MINUTE;
  const seconds = Math.floor((start % MINUTE) / 1000);
  const at = `${clock.time(start)}${seconds ? `:${String(seconds).padStart(2, '0')}` : ''} ${zone.timezone}`;
  const day = `${clock.weekday[0]?.toUpperCase()}${clock.weekday.slice(1)}`;
  if (start < input.now.getTime()) {
    return `${input.date} ${at} is in the past: pick a time that availability offers from now on.`;
  }
  const hours = zone.hours[clock.weekday];
  const window = dayWindow(zone.hours, clock);
  if (!hours || !window) return `${zone.name} does not work on ${day}s: pick another day.`;
  if (start < window.open || end > window.close) {
    return (
      `A ${durationMinutes}-minute job at ${at} is outside ${zone.name}'s hours on ${day}s ` +
      `(${hours.open}-${hours.close} ${zone.timezone}): pick a start from ${hours.open} that ends by ${hours.close}.`
    );
  }
  const step = Math.max(1, zone.slotIntervalMinutes);
  const grid: number[] = [];
  for (
    let minutes = minutesOfDay(hours.open);
    minutes + durationMinutes <= minutesOfDay(hours.close);
    minutes += step
  ) {
    const instant = clock.instantsAt(minutes)[0];
    if (instant !== undefined) grid.push(instant);
  }
  if (!grid.includes(start)) {
    const before = grid.filter((instant) => instant < start).at(-1);
    const after = grid.find((instant) => instant > start);
    const nearest = [before, after].filter((instant) => instant !== undefined).map((instant) => clock.time(instant));
    return (
      `${at} is not a slot start: starts fall on ${zone.name}'s ${step}-minute grid from ${hours.open}` +
      `${nearest.length ? ` (the nearest are ${nearest.join(' and ')})` : ''}, so pick one of those.`
    );
  }
  const earliest = input.now.getTime() + zone.leadTimeMinutes * MINUTE;
  if (start < earliest) {
    return (
      `${zone.name} needs ${zone.leadTimeMinutes} minutes' notice, so nothing can start before ` +
      `${localDate(earliest, zone.timezone)} ${localTime(earliest, zone.timezone)} ${zone.timezone}: pick a later slot.`
    );
  }
  const crew = crewOnDuty(input, clock);
  if (!crew.some((member) => start >= member.window.open && end <= member.window.close)) {
    return `No crew member for this work is on duty for a ${durationMinutes}-minute job at ${at}: pick a slot that availability offers.`;
  }
  if (!anyoneFree(crew, start, input)) return takenMessage(zone, input.startsAt);
  return `${at} is not available for this booking: pick a slot that availability offers for its estimated duration.`;
}

/** Every crew member who could do the job is booked then (or was taken a moment ago). */
export function takenMessage(zone: ZoneSchedule, startsAt: Date): string {
  const at = `${localTime(startsAt.getTime(), zone.timezone)} ${zone.timezone}`;
  const travelBufferMinutes = zone.travelBufferMinutes;
  return (
    `${at} is taken: every crew member who could do this job is booked then` +
    `${travelBufferMinutes ? ` (with ${travelBufferMinutes} minutes' travel between jobs)` : ''}, so pick another slot that availability offers.`
  );
}
