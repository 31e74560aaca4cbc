export {
  type Availability,
  availableSlots,
  type DayHours,
  findOfferedSlot,
  slotRefusal,
  takenMessage,
  freeStaffForSlot,
  type SchedulingInput,
  type Slot,
  type StaffSchedule,
  type TimeBlock,
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
