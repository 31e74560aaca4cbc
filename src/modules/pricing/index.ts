export { type CancellationFee, type CancellationPolicy, cancellationFee } from './cancellation.ts';
export { type Coupon, couponProblem } from './coupons.ts';
export { percentOf } from './money.ts';
export {
  type Configuration,
  type ConfigurationType,
  FREQUENCIES,
  type Frequency,
  type PriceBreakdown,
  type PricedExtra,
  type PricedProduct,
  type PricingCatalog,
  priceConfiguration,
} from './pricing.ts';
