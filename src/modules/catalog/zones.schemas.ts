// /v1/zones: the Zone object and its request bodies. Field rules are the catalog file's
// (ZoneFields in catalog-file.ts), so the API and an import judge a zone alike.
import { type Static, Type } from 'typebox';
import { ListOf, ListQuery } from '../../core/http/pagination.ts';
import { Nullable, Strict, Timestamp } from '../../core/http/schemas.ts';
import { ZoneFields } from './catalog-file.ts';

const DayHoursView = Nullable(Type.Object({ open: Type.String(), close: Type.String() }));

/** Working hours in responses: every weekday, null on a day off, in the zone's local time. */
export const HoursView = Type.Object(
  {
    monday: DayHoursView,
    tuesday: DayHoursView,
    wednesday: DayHoursView,
    thursday: DayHoursView,
    friday: DayHoursView,
    saturday: DayHoursView,
    sunday: DayHoursView,
  },
  { description: 'Weekday to `{open, close}` (HH:MM, local time) or null for a day off.' },
);

export const Zone = Type.Object(
  {
    id: Type.String({ description: 'Prefix zone_.' }),
    object: Type.Literal('zone'),
    name: Type.String(),
    timezone: Type.String({ description: 'IANA time zone; hours are local to it.' }),
    zips: Type.Array(Type.String()),
    industries: Type.Array(Type.String({ description: 'Industry slug.' })),
    hours: HoursView,
    slot_interval_minutes: Type.Integer(),
    travel_buffer_minutes: Type.Integer(),
    lead_time_minutes: Type.Integer(),
    price_adjustment_percent: Type.Number(),
    tax_rate: Type.Number(),
    is_active: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Zone', title: 'Zone' },
);
export type ZoneView = Static<typeof Zone>;

const IsActive = Type.Boolean({ description: 'An inactive zone is kept but offers no slots or prices.' });

export const NewZoneBody = Strict({
  ...ZoneFields,
  zips: Type.Array(ZoneFields.zips.items, {
    minItems: 1,
    maxItems: 2000,
    description: 'ZIP codes served. A ZIP is served for an industry by at most one active zone.',
  }),
  slot_interval_minutes: Type.Optional({ ...ZoneFields.slot_interval_minutes, default: 60 }),
  travel_buffer_minutes: Type.Optional({ ...ZoneFields.travel_buffer_minutes, default: 0 }),
  lead_time_minutes: Type.Optional({ ...ZoneFields.lead_time_minutes, default: 0 }),
  price_adjustment_percent: Type.Optional({ ...ZoneFields.price_adjustment_percent, default: 0 }),
  tax_rate: Type.Optional({ ...ZoneFields.tax_rate, default: 0 }),
  is_active: Type.Optional(IsActive),
});
export type NewZoneBody = Static<typeof NewZoneBody>;

export const UpdateZoneBody = Strict({
  name: Type.Optional(ZoneFields.name),
  timezone: Type.Optional(ZoneFields.timezone),
  zips: Type.Optional(ZoneFields.zips),
  industries: Type.Optional(ZoneFields.industries),
  hours: Type.Optional(ZoneFields.hours),
  slot_interval_minutes: Type.Optional(ZoneFields.slot_interval_minutes),
  travel_buffer_minutes: Type.Optional(ZoneFields.travel_buffer_minutes),
  lead_time_minutes: Type.Optional(ZoneFields.lead_time_minutes),
  price_adjustment_percent: Type.Optional(ZoneFields.price_adjustment_percent),
  tax_rate: Type.Optional(ZoneFields.tax_rate),
  is_active: Type.Optional(IsActive),
});
export type UpdateZoneBody = Static<typeof UpdateZoneBody>;

export const ZoneListQuery = Type.Object(ListQuery);
export type ZoneListQuery = Static<typeof ZoneListQuery>;

export const ZoneList = ListOf(Type.Ref('Zone'));
