import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { resourceRoutes } from '../../core/http/resource-routes.ts';
import { Coupon, CouponList, CouponListQuery, NewCouponBody, UpdateCouponBody } from './coupons.schemas.ts';
import * as coupons from './coupons.service.ts';

const tags = ['Coupons'];

export function couponRoutes(app: FastifyInstance, deps: Deps) {
  resourceRoutes(app, deps, {
    path: '/v1/coupons',
    tags,
    noun: ['coupon', 'coupons'],
    object: Coupon,
    scopes: { read: 'services:read', write: 'catalog:write' },
    list: {
      description: 'Newest first. Archived (deleted) coupons are not listed.',
      query: CouponListQuery,
      response: CouponList,
      run: coupons.listCoupons,
    },
    create: {
      description:
        'The code is unique in the environment ignoring case (409 resource_already_exists, param code); a ' +
        "deleted coupon's code may be reused. Pricing accepts it from the next request.",
      body: NewCouponBody,
      errors: [409],
      errorCodes: ['resource_already_exists'],
      run: coupons.createCoupon,
    },
    retrieve: { run: coupons.getCoupon },
    update: {
      description:
        'Changes the fields sent. percent_off and amount_off are fixed once the coupon has been redeemed ' +
        '(409 resource_in_use): make a new coupon. Bookings keep the terms they were priced with.',
      body: UpdateCouponBody,
      errors: [409],
      errorCodes: ['resource_already_exists', 'resource_in_use'],
      run: coupons.updateCoupon,
    },
    remove: {
      description:
        'Archives the coupon: it leaves lists and reads (404), pricing refuses its code (400 invalid_coupon) and ' +
        'the code may be given to a new coupon. Bookings that used it keep their discount.',
      run: coupons.deleteCoupon,
    },
  });
}
