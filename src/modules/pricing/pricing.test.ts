import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../core/errors.ts';
import { cancellationFee } from './cancellation.ts';
import { type Coupon, couponProblem } from './coupons.ts';
import { percentOf } from './money.ts';
import {
  type Configuration,
  type ConfigurationType,
  FREQUENCIES,
  type PricingCatalog,
  priceConfiguration,
} from './pricing.ts';

const coupon = (overrides: Partial<Coupon> = {}): Coupon => ({
  id: 'coupon_1',
  code: 'WELCOME10',
  description: '',
  percentOff: 10,
  amountOff: null,
  validFrom: null,
  validUntil: null,
  maxRedemptions: null,
  timesRedeemed: 0,
  industries: null,
  isActive: true,
  ...overrides,
});

const cleaning: PricingCatalog = {
  industry: { slug: 'residential-cleaning', configurationType: 'room_based' },
  products: [
    { id: 'prod_visit', name: 'Home visit', basePrice: 6000, minutes: 30, inCatalog: true, room: 'visit' },
    { id: 'prod_bed', name: 'Bedroom', basePrice: 2000, minutes: 30, inCatalog: true, room: 'bedroom' },
    { id: 'prod_bath', name: 'Bathroom', basePrice: 2500, minutes: 30, inCatalog: true, room: 'bathroom' },
  ],
  extras: [
    { id: 'extra_fridge', name: 'Inside the fridge', price: 3500, priceType: 'flat', minutes: 30 },
    { id: 'extra_window', name: 'Interior windows', price: 500, priceType: 'per_unit', minutes: 10 },
  ],
  zone: { id: 'zone_1', name: 'Manhattan', priceAdjustmentPercent: 10, taxRate: 8.875 },
  frequencyDiscounts: { weekly: 20, 'bi-weekly': 15, monthly: 10 },
  currency: 'usd',
  coupon: null,
};

describe('percentOf', () => {
  it('rounds half up in integer arithmetic', () => {
    expect(percentOf(9900, 8.875)).toBe(879); // 878.625
    expect(percentOf(200, 0.25)).toBe(1); // 0.5 rounds up
    expect(percentOf(199, 0.25)).toBe(0); // 0.4975
    expect(percentOf(1000, -12.5)).toBe(-125);
    expect(percentOf(12345678, 100)).toBe(12345678);
  });
});

describe('priceConfiguration', () => {
  it('prices a room-based configuration with zone adjustment, extras, frequency, coupon and tax', () => {
    const price = priceConfiguration(
      { ...cleaning, coupon: coupon() },
      { bedrooms: 2, bathrooms: 1, frequency: 'weekly', extras: ['extra_fridge', { id: 'extra_window', quantity: 4 }] },
    );
    expect(price).toEqual({
      industry: 'residential-cleaning',
      zone: { id: 'zone_1', name: 'Manhattan' },
      currency: 'usd',
      base_price: 12500,
      zone_adjustment: 1250,
      extras: [
        { id: 'extra_fridge', name: 'Inside the fridge', quantity: 1, unit_price: 3500, total: 3500 },
        { id: 'extra_window', name: 'Interior windows', quantity: 4, unit_price: 500, total: 2000 },
      ],
      extras_total: 5500,
      subtotal: 19250,
      discounts: [
        { type: 'frequency', description: 'Weekly discount (20%)', amount: 3850 },
        { type: 'coupon', code: 'WELCOME10', description: 'Coupon WELCOME10 (10% off)', amount: 1540 },
      ],
      discount: 5390,
      tax_rate: 8.875,
      tax: 1230, // 13860 x 8.875 % = 1230.075
      total: 15090,
      estimated_duration: 30 + 60 + 30 + 30 + 40,
    });
  });

  it('names the configuration field at fault', () => {
    const fail = (configuration: Configuration) => {
      try {
        priceConfiguration(cleaning, configuration);
      } catch (error) {
        return { code: (error as AppError).code, param: (error as AppError).param };
      }
      return null;
    };
    expect(fail({ bathrooms: 1 })).toEqual({ code: 'missing_required_field', param: 'configuration.bedrooms' });
    expect(fail({ bedrooms: 11, bathrooms: 1 })).toEqual({
      code: 'parameter_invalid',
      param: 'configuration.bedrooms',
    });
    expect(fail({ bedrooms: 1, bathrooms: 1, items: [] })).toEqual({
      code: 'parameter_unknown',
      param: 'configuration.items',
    });
    expect(fail({ bedrooms: 1, bathrooms: 1, extras: ['extra_fridge', 'extra_nope'] })).toEqual({
      code: 'parameter_invalid',
      param: 'configuration.extras.1',
    });
  });
});

// Random catalogs of every configuration type, and random configurations over them.
const arbitraryCatalog = fc
  .record({
    type: fc.constantFrom<ConfigurationType>('room_based', 'item_based', 'section_based'),
    prices: fc.array(fc.integer({ min: 0, max: 500_000 }), { minLength: 3, maxLength: 6 }),
    extras: fc.array(fc.record({ price: fc.integer({ min: 0, max: 50_000 }), flat: fc.boolean() }), {
      minLength: 0,
      maxLength: 5,
    }),
    adjustment: fc.integer({ min: -100_000, max: 200_000 }).map((n) => n / 1000),
    taxRate: fc.integer({ min: 0, max: 25_000 }).map((n) => n / 1000),
    discounts: fc.record({
      weekly: fc.integer({ min: 0, max: 100 }),
      'bi-weekly': fc.integer({ min: 0, max: 100 }),
      monthly: fc.integer({ min: 0, max: 100 }),
    }),
    coupon: fc.option(
      fc.oneof(
        fc.integer({ min: 1, max: 100_000 }).map((n) => coupon({ percentOff: n / 1000 })),
        fc.integer({ min: 1, max: 10_000_000 }).map((n) => coupon({ percentOff: null, amountOff: n, code: 'SAVE' })),
      ),
    ),
  })
  .map(({ type, prices, extras, adjustment, taxRate, discounts, coupon }): PricingCatalog => {
    const rooms = ['visit', 'bedroom', 'bathroom'] as const;
    return {
      industry: { slug: 'any', configurationType: type },
      products: prices.map((price, i) => ({
        id: `prod_${i}`,
        name: `Product ${i}`,
        basePrice: price,
        minutes: (i + 1) * 15,
        inCatalog: true,
        room: type === 'room_based' ? (rooms[i] ?? null) : null,
      })),
      extras: extras.map((extra, i) => ({
        id: `extra_${i}`,
        name: `Extra ${i}`,
        price: extra.price,
        priceType: extra.flat ? 'flat' : 'per_unit',
        minutes: 10,
      })),
      zone: { id: 'zone_1', name: 'Zone', priceAdjustmentPercent: adjustment, taxRate },
      frequencyDiscounts: discounts,
      currency: 'usd',
      coupon,
    };
  });

const arbitraryInput = arbitraryCatalog.chain((catalog) => {
  const lines = fc.array(
    fc.record({
      product_id: fc.constantFrom(...catalog.products.map((p) => p.id)),
      quantity: fc.integer({ min: 1, max: 100 }),
    }),
    { minLength: 1, maxLength: 6 },
  );
  const extras = fc
    .subarray(catalog.extras.map((e) => e.id))
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id) =>
          fc.oneof(fc.constant(id), fc.record({ id: fc.constant(id), quantity: fc.integer({ min: 1, max: 100 }) })),
        ),
      ),
    );
  const common = { frequency: fc.constantFrom(...FREQUENCIES), extras };
  const configuration: fc.Arbitrary<Configuration> =
    catalog.industry.configurationType === 'room_based'
      ? fc.record({ bedrooms: fc.integer({ min: 0, max: 10 }), bathrooms: fc.integer({ min: 1, max: 10 }), ...common })
      : catalog.industry.configurationType === 'item_based'
        ? fc.record({ items: lines, ...common })
        : fc.record({ sections: lines, ...common });
  return fc.tuple(fc.constant(catalog), configuration);
});

describe('pricing properties', () => {
  it('adds up, stays in non-negative integer cents, and gives the same figures for the same input', () => {
    fc.assert(
      fc.property(arbitraryInput, ([catalog, configuration]) => {
        const price = priceConfiguration(catalog, configuration);
        const figures = [
          price.base_price,
          price.extras_total,
          price.subtotal,
          price.discount,
          price.tax,
          price.total,
          price.estimated_duration,
          ...price.discounts.map((d) => d.amount),
          ...price.extras.map((e) => e.total),
        ];
        for (const figure of figures) {
          expect(Number.isSafeInteger(figure)).toBe(true);
          expect(figure).toBeGreaterThanOrEqual(0);
        }
        expect(Number.isInteger(price.zone_adjustment)).toBe(true);
        expect(price.subtotal).toBe(price.base_price + price.zone_adjustment + price.extras_total);
        expect(price.extras_total).toBe(price.extras.reduce((sum, e) => sum + e.total, 0));
        expect(price.discount).toBe(price.discounts.reduce((sum, d) => sum + d.amount, 0));
        expect(price.discount).toBeLessThanOrEqual(price.subtotal);
        expect(price.tax).toBe(percentOf(price.subtotal - price.discount, price.tax_rate));
        expect(price.total).toBe(price.subtotal - price.discount + price.tax);
        // the coupon never takes the total below zero, not even a huge amount_off
        expect(price.total).toBeGreaterThanOrEqual(0);
        expect(priceConfiguration(structuredClone(catalog), structuredClone(configuration))).toEqual(price);
      }),
      { numRuns: 500 },
    );
  });
});

describe('couponProblem', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  it('checks activity, validity dates, redemptions and industries', () => {
    expect(couponProblem(coupon(), { industry: 'junk-removal', now })).toBeNull();
    expect(couponProblem(coupon({ isActive: false }), { industry: 'x', now })).toMatch(/no longer valid/);
    expect(couponProblem(coupon({ validFrom: new Date('2026-07-01') }), { industry: 'x', now })).toMatch(
      /not valid yet/,
    );
    expect(couponProblem(coupon({ validUntil: new Date('2026-05-31') }), { industry: 'x', now })).toMatch(/expired/);
    expect(couponProblem(coupon({ maxRedemptions: 3, timesRedeemed: 3 }), { industry: 'x', now })).toMatch(/used up/);
    expect(couponProblem(coupon({ maxRedemptions: 3, timesRedeemed: 2 }), { industry: 'x', now })).toBeNull();
    expect(couponProblem(coupon({ industries: ['carpet-cleaning'] }), { industry: 'junk-removal', now })).toMatch(
      /does not apply/,
    );
  });
});

describe('cancellationFee', () => {
  const policy = { free_cancellation_hours: 24, late_cancellation_fee_percent: 50, in_progress_fee_percent: 100 };
  const scheduledAt = new Date('2026-06-10T14:00:00Z');
  it('is free 24 h or more ahead, half the total later, everything once in progress', () => {
    const fee = (status: string, cancelledAt: string) =>
      cancellationFee(policy, { total: 10779, status, scheduledAt, cancelledAt: new Date(cancelledAt) });
    expect(fee('confirmed', '2026-06-09T14:00:00Z')).toEqual({ amount: 0, policy: 'free_cancellation' });
    expect(fee('confirmed', '2026-06-09T14:00:01Z')).toEqual({ amount: 5390, policy: 'late_cancellation' });
    expect(fee('in_progress', '2026-06-10T14:05:00Z')).toEqual({ amount: 10779, policy: 'in_progress' });
  });
});
