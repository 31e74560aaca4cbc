import { type Static, Type } from 'typebox';
import { Nullable, Strict } from '../../core/http/schemas.ts';

export const Industry = Type.Object(
  {
    id: Type.String({ description: 'Prefix ind_.' }),
    name: Type.String(),
    slug: Type.String({ description: 'The industry identifier in paths and queries.' }),
    description: Type.String(),
    icon: Type.String({ description: 'Icon name.' }),
    configuration_type: Type.Enum(['room_based', 'item_based', 'section_based']),
    is_active: Type.Boolean(),
  },
  { $id: 'Industry', title: 'Industry' },
);

export const Product = Type.Object(
  {
    id: Type.String({ description: 'Prefix prod_.' }),
    name: Type.String(),
    base_price: Type.Integer({ description: 'Cents.' }),
    description: Type.String(),
    in_catalog: Type.Boolean({ description: 'Offered for booking (items and sections).' }),
    minutes: Type.Integer({ description: 'Minutes of work per unit, for duration estimates.' }),
  },
  { $id: 'Product', title: 'Product' },
);

export const Category = Type.Object(
  {
    id: Type.String({ description: 'Prefix pcat_.' }),
    name: Type.String(),
    slug: Type.String(),
    products: Type.Array(Type.Ref('Product')),
  },
  { $id: 'ProductCategory', title: 'ProductCategory' },
);

export const Extra = Type.Object(
  {
    id: Type.String({ description: 'Prefix extra_.' }),
    name: Type.String(),
    description: Type.String(),
    price: Type.Integer({ description: 'Cents; per unit for per_unit extras.' }),
    price_type: Type.Enum(['per_unit', 'flat']),
    unit_label: Nullable(Type.String({ description: 'The unit of a per_unit extra, e.g. "window".' })),
    minutes: Type.Integer({ description: 'Minutes of work (per unit for per_unit extras).' }),
  },
  { $id: 'Extra', title: 'Extra' },
);

export const IndustryList = Type.Object({ data: Type.Array(Type.Ref('Industry')) });
export const ProductCatalog = Type.Object({
  industry: Type.String({ description: 'The industry slug.' }),
  categories: Type.Array(Type.Ref('ProductCategory')),
});
export const ExtraList = Type.Object({ data: Type.Array(Type.Ref('Extra')) });
/** Slugs may hold dashes; anything outside this alphabet names no industry (404). */
export const SlugParams = Type.Object({ slug: Type.String({ pattern: '^[A-Za-z0-9_-]+$', maxLength: 100 }) });

export const AvailabilityQuery = Type.Object({
  zip: Type.String({ minLength: 1, maxLength: 10, description: 'ZIP code of the job.' }),
  industry: Type.String({ minLength: 1, maxLength: 100, description: 'Industry slug.' }),
  date: Type.String({ format: 'date', description: "YYYY-MM-DD, the zone's local date, between 1970 and 9999." }),
  duration: Type.Integer({ minimum: 15, maximum: 720, default: 120, description: 'Minutes; default 120.' }),
});
export type AvailabilityQuery = Static<typeof AvailabilityQuery>;

export const Availability = Type.Object(
  {
    date: Type.String(),
    zone: Nullable(Type.Object({ id: Type.String(), name: Type.String(), timezone: Type.String() })),
    available_slots: Type.Array(
      Type.Object({
        start: Type.String({ description: 'Local HH:MM.' }),
        end: Type.String({ description: 'Local HH:MM.' }),
        label: Type.String({ description: 'e.g. "8:00 AM - 10:00 AM".' }),
        starts_at: Type.String({ description: 'UTC timestamp; pass it as a booking scheduled_at.' }),
        ends_at: Type.String({ description: 'UTC timestamp.' }),
      }),
    ),
    fully_booked: Type.Boolean({ description: 'The zone works that day and no slot is free.' }),
  },
  { $id: 'Availability', title: 'Availability' },
);

const Quantity = Type.Integer({ minimum: 1, maximum: 100, default: 1 });
const LineItem = Strict({ product_id: Type.String({ maxLength: 64 }), quantity: Type.Optional(Quantity) });

/** A service configuration; bookings take the same object. Which fields apply depends on the industry. */
export const ServiceConfiguration = Strict(
  {
    bedrooms: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'room_based: 0-10.' })),
    bathrooms: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, description: 'room_based: 1-10.' })),
    items: Type.Optional(
      Type.Array(LineItem, { minItems: 1, maxItems: 50, description: 'item_based: products and quantities.' }),
    ),
    sections: Type.Optional(
      Type.Array(LineItem, { minItems: 1, maxItems: 50, description: 'section_based: products and quantities.' }),
    ),
    frequency: Type.Optional(Type.Enum(['one-time', 'weekly', 'bi-weekly', 'monthly'], { default: 'one-time' })),
    extras: Type.Optional(
      Type.Array(
        Type.Union([
          Type.String({ maxLength: 64, description: 'An extra id (quantity 1).' }),
          Strict({ id: Type.String({ maxLength: 64 }), quantity: Type.Optional(Quantity) }),
        ]),
        { maxItems: 50 },
      ),
    ),
  },
  { description: 'room_based: bedrooms, bathrooms; item_based: items; section_based: sections.' },
);
export type ServiceConfiguration = Static<typeof ServiceConfiguration>;

export const PricingBody = Strict({
  industry: Type.String({ minLength: 1, maxLength: 100, description: 'Industry slug.' }),
  zip: Type.Optional(
    Type.String({ minLength: 1, maxLength: 10, description: 'ZIP of the job; without it no zone applies.' }),
  ),
  configuration: ServiceConfiguration,
  coupon_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
export type PricingBody = Static<typeof PricingBody>;

export const Pricing = Type.Object(
  {
    industry: Type.String(),
    zone: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
    currency: Type.String(),
    base_price: Type.Integer(),
    zone_adjustment: Type.Integer({ description: 'round(base_price x price_adjustment_percent / 100).' }),
    extras: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        quantity: Type.Integer(),
        unit_price: Type.Integer(),
        total: Type.Integer(),
      }),
    ),
    extras_total: Type.Integer(),
    subtotal: Type.Integer({ description: 'base_price + zone_adjustment + extras_total.' }),
    discounts: Type.Array(
      Type.Object({
        type: Type.Enum(['frequency', 'coupon']),
        code: Type.Optional(Type.String()),
        description: Type.String(),
        amount: Type.Integer(),
      }),
    ),
    discount: Type.Integer({ description: 'Frequency discount of the subtotal, then the coupon on the rest.' }),
    tax_rate: Type.Number({ description: 'Percent.' }),
    tax: Type.Integer({ description: 'round((subtotal - discount) x tax_rate / 100).' }),
    total: Type.Integer({ description: 'subtotal - discount + tax.' }),
    estimated_duration: Type.Integer({ description: 'Minutes.' }),
  },
  { $id: 'Pricing', title: 'Pricing' },
);
