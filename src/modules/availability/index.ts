export {
  type Availability,
  availableSlots,
  type DayHours,
  findOfferedSlot,
  freeStaffForSlot,
  type SchedulingInput,
  type Slot,
  type StaffSchedule,
  slotRefusal,
  type TimeBlock,
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
