// The coupon as /v1/coupons answers it, and what it takes: the catalog file's coupon fields,
// so that the API and the file accept exactly the same coupons.
import { type Static, Type } from 'typebox';
import { ListOf, ListQuery } from '../../core/http/pagination.ts';
import { Nullable, Strict } from '../../core/http/schemas.ts';
import { CouponFields } from './catalog-file.ts';

export const Coupon = Type.Object(
  {
    id: Type.String({ description: 'Prefix coupon_.' }),
    object: Type.Literal('coupon'),
    code: Type.String({ description: 'Unique in the environment, ignoring case.' }),
    description: Type.String(),
    percent_off: Nullable(Type.Number({ description: 'Percent off (up to 3 decimals); or null.' })),
    amount_off: Nullable(Type.Integer({ description: 'Cents off; or null.' })),
    valid_from: Nullable(Type.String({ description: 'UTC timestamp; null = from now.' })),
    valid_until: Nullable(Type.String({ description: 'UTC timestamp; null = no end.' })),
    max_redemptions: Nullable(Type.Integer({ description: 'Bookings that may use it; null = no limit.' })),
    times_redeemed: Type.Integer({ description: 'Bookings that used it.' }),
    industries: Nullable(Type.Array(Type.String(), { description: 'Industry slugs it applies to; null = all.' })),
    is_active: Type.Boolean(),
    created_at: Type.String(),
  },
  { $id: 'Coupon', title: 'Coupon' },
);
export type CouponView = Static<typeof Coupon>;

export const CouponList = ListOf(Type.Ref('Coupon'));
export const CouponListQuery = Type.Object(ListQuery);
export type CouponListQuery = Static<typeof CouponListQuery>;

export const NewCouponBody = Strict(CouponFields, {
  description: 'Exactly one of percent_off and amount_off. valid_until after valid_from.',
});
export type NewCouponBody = Static<typeof NewCouponBody>;

const { code, ...optional } = CouponFields;
export const UpdateCouponBody = Strict(
  { code: Type.Optional(code), ...optional },
  {
    description:
      'Fields to change; null clears a nullable one. percent_off and amount_off cannot change once the ' +
      'coupon has been redeemed (409 resource_in_use): make a new coupon.',
  },
);
export type UpdateCouponBody = Static<typeof UpdateCouponBody>;
