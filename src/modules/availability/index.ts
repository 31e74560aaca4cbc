export {
  type Availability,
  availableSlots,
  type BookedTime,
  type DayHours,
  findOfferedSlot,
  freeStaffForSlot,
  type SchedulingInput,
  type Slot,
  type StaffSchedule,
  slotRefusal,
  takenMessage,
  type WeeklyHours,
  type ZoneSchedule,
} from './availability.ts';
export {
  instantOf,
  isValidTimeZone,
  localDate,
  localTime,
  minutesOfDay,
  WEEKDAYS,
  type Weekday,
} from './wall-clock.ts';
