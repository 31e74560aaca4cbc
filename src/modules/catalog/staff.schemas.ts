// /v1/staff and their time off: objects and request bodies. Field rules are the catalog file's
// (StaffFields in catalog-file.ts); the API names zones by id where the file names them.
import { type Static, Type } from 'typebox';
import { ListOf, ListQuery } from '../../core/http/pagination.ts';
import { Nullable, Strict, Timestamp } from '../../core/http/schemas.ts';
import { StaffFields } from './catalog-file.ts';
import { HoursView } from './zones.schemas.ts';

export const StaffStatus = Type.Union([Type.Literal('active'), Type.Literal('inactive')], {
  description: 'An inactive crew member is kept but gets no new bookings.',
});

export const Staff = Type.Object(
  {
    id: Type.String({ description: 'Prefix staff_.' }),
    object: Type.Literal('staff'),
    name: Type.String(),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    zones: Type.Array(Type.String(), { description: 'Ids of the zones the crew member works in.' }),
    industries: Type.Array(Type.String({ description: 'Industry slug.' })),
    hours: HoursView,
    status: StaffStatus,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Staff', title: 'Staff' },
);
export type StaffView = Static<typeof Staff>;

const ZoneIds = Type.Array(Type.String({ pattern: '^zone_[0-9A-Za-z]{1,64}$', description: 'A zone id.' }), {
  maxItems: 100,
  description: 'Ids of the zones the crew member works in.',
});

export const NewStaffBody = Strict({
  ...StaffFields,
  zones: ZoneIds,
  status: Type.Optional(StaffStatus),
});
export type NewStaffBody = Static<typeof NewStaffBody>;

export const UpdateStaffBody = Strict({
  name: Type.Optional(StaffFields.name),
  email: StaffFields.email,
  phone: StaffFields.phone,
  zones: Type.Optional(ZoneIds),
  industries: Type.Optional(StaffFields.industries),
  hours: Type.Optional(StaffFields.hours),
  status: Type.Optional(StaffStatus),
});
export type UpdateStaffBody = Static<typeof UpdateStaffBody>;

export const StaffListQuery = Type.Object({
  ...ListQuery,
  zone_id: Type.Optional(Type.String({ description: 'Crew working in this zone.' })),
  industry: Type.Optional(Type.String({ description: 'Crew working in this industry (slug).' })),
  status: Type.Optional(StaffStatus),
});
export type StaffListQuery = Static<typeof StaffListQuery>;

export const StaffList = ListOf(Type.Ref('Staff'));

export const TimeOff = Type.Object(
  {
    id: Type.String({ description: 'Prefix toff_.' }),
    object: Type.Literal('time_off'),
    staff_id: Type.String(),
    starts_at: Timestamp,
    ends_at: Timestamp,
    reason: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { $id: 'TimeOff', title: 'TimeOff' },
);
export type TimeOffView = Static<typeof TimeOff>;

export const NewTimeOffBody = Strict({
  starts_at: Type.String({ format: 'date-time', description: 'Start, ISO 8601 with a time zone.' }),
  ends_at: Type.String({ format: 'date-time', description: 'End (after starts_at, within 366 days of it).' }),
  reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
});
export type NewTimeOffBody = Static<typeof NewTimeOffBody>;

export const TimeOffListQuery = Type.Object(ListQuery);
export type TimeOffListQuery = Static<typeof TimeOffListQuery>;

export const TimeOffList = ListOf(Type.Ref('TimeOff'));
