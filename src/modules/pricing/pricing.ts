// The price of a service configuration: a pure function of the catalog data, so that a booking
// made with the same input carries exactly the figures the pricing endpoint quoted.
//
// subtotal = base_price + zone_adjustment + extras_total
// discount = frequency discount of the subtotal, then the coupon on what remains
// tax      = round((subtotal - discount) x tax_rate / 100)
// total    = subtotal - discount + tax
import { AppError } from '../../core/errors.ts';
import { formatMoney } from '../../core/money.ts';
import type { Coupon } from './coupons.ts';
import { formatPercent, percentOf } from './money.ts';

export const FREQUENCIES = ['one-time', 'weekly', 'bi-weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export type ConfigurationType = 'room_based' | 'item_based' | 'section_based';

export interface PricedProduct {
  id: string;
  name: string;
  basePrice: number;
  minutes: number;
  inCatalog: boolean;
  room: 'visit' | 'bedroom' | 'bathroom' | null;
}

export interface PricedExtra {
  id: string;
  name: string;
  price: number;
  priceType: 'per_unit' | 'flat';
  minutes: number;
}

export interface PricingCatalog {
  industry: { slug: string; configurationType: ConfigurationType };
  /** The industry's products and extras. */
  products: PricedProduct[];
  extras: PricedExtra[];
  zone: { id: string; name: string; priceAdjustmentPercent: number; taxRate: number } | null;
  /** Percent off by frequency (missing = none). */
  frequencyDiscounts: Partial<Record<Frequency, number>>;
  currency: string;
  /** A coupon already checked for this use (see couponProblem). */
  coupon: Coupon | null;
}

export interface LineItemInput {
  product_id: string;
  quantity?: number;
}

export interface Configuration {
  bedrooms?: number;
  bathrooms?: number;
  items?: LineItemInput[];
  sections?: LineItemInput[];
  frequency?: Frequency;
  extras?: (string | { id: string; quantity?: number })[];
}

export interface PriceBreakdown {
  industry: string;
  zone: { id: string; name: string } | null;
  currency: string;
  base_price: number;
  zone_adjustment: number;
  extras: { id: string; name: string; quantity: number; unit_price: number; total: number }[];
  extras_total: number;
  subtotal: number;
  discounts: { type: 'frequency' | 'coupon'; code?: string; description: string; amount: number }[];
  discount: number;
  tax_rate: number;
  tax: number;
  total: number;
  /** Minutes, from the products' and extras' minutes. */
  estimated_duration: number;
}

const FREQUENCY_NAMES: Record<Frequency, string> = {
  'one-time': 'One-time',
  weekly: 'Weekly',
  'bi-weekly': 'Bi-weekly',
  monthly: 'Monthly',
};

function unknownField(field: string, type: ConfigurationType): AppError {
  return new AppError('parameter_unknown', `configuration.${field} does not apply to ${type} industries.`, {
    param: `configuration.${field}`,
  });
}

function missing(field: string): AppError {
  return new AppError('missing_required_field', `Missing required field: configuration.${field}.`, {
    param: `configuration.${field}`,
  });
}

function invalid(param: string, message: string): AppError {
  return new AppError('parameter_invalid', message, { param });
}

function checkRange(value: number, field: string, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(`configuration.${field}`, `configuration.${field} must be an integer from ${min} to ${max}.`);
  }
}

interface Base {
  basePrice: number;
  minutes: number;
}

function roomBase(catalog: PricingCatalog, configuration: Configuration): Base {
  const type = catalog.industry.configurationType;
  if (configuration.items !== undefined) throw unknownField('items', type);
  if (configuration.sections !== undefined) throw unknownField('sections', type);
  if (configuration.bedrooms === undefined) throw missing('bedrooms');
  if (configuration.bathrooms === undefined) throw missing('bathrooms');
  checkRange(configuration.bedrooms, 'bedrooms', 0, 10);
  checkRange(configuration.bathrooms, 'bathrooms', 1, 10);
  const room = (kind: PricedProduct['room']) => catalog.products.find((product) => product.room === kind);
  const parts: [PricedProduct | undefined, number][] = [
    [room('visit'), 1],
    [room('bedroom'), configuration.bedrooms],
    [room('bathroom'), configuration.bathrooms],
  ];
  let basePrice = 0;
  let minutes = 0;
  for (const [product, count] of parts) {
    basePrice += (product?.basePrice ?? 0) * count;
    minutes += (product?.minutes ?? 0) * count;
  }
  return { basePrice, minutes };
}

function lineItemBase(catalog: PricingCatalog, configuration: Configuration): Base {
  const type = catalog.industry.configurationType;
  const field = type === 'item_based' ? 'items' : 'sections';
  const other = type === 'item_based' ? 'sections' : 'items';
  if (configuration[other] !== undefined) throw unknownField(other, type);
  if (configuration.bedrooms !== undefined) throw unknownField('bedrooms', type);
  if (configuration.bathrooms !== undefined) throw unknownField('bathrooms', type);
  const lines = configuration[field];
  if (lines === undefined) throw missing(field);
  if (lines.length === 0)
    throw invalid(`configuration.${field}`, `configuration.${field} must have at least one entry.`);
  const byId = new Map(catalog.products.filter((p) => p.inCatalog).map((product) => [product.id, product]));
  let basePrice = 0;
  let minutes = 0;
  lines.forEach((line, index) => {
    const product = byId.get(line.product_id);
    if (!product) {
      throw invalid(
        `configuration.${field}.${index}.product_id`,
        `No such product for ${catalog.industry.slug}: '${line.product_id}'.`,
      );
    }
    const quantity = line.quantity ?? 1;
    checkRange(quantity, `${field}.${index}.quantity`, 1, 100);
    basePrice += product.basePrice * quantity;
    minutes += product.minutes * quantity;
  });
  return { basePrice, minutes };
}

function pricedExtras(catalog: PricingCatalog, configuration: Configuration) {
  const byId = new Map(catalog.extras.map((extra) => [extra.id, extra]));
  const seen = new Set<string>();
  let minutes = 0;
  const lines = (configuration.extras ?? []).map((entry, index) => {
    const id = typeof entry === 'string' ? entry : entry.id;
    const extra = byId.get(id);
    if (!extra) throw invalid(`configuration.extras.${index}`, `No such extra for ${catalog.industry.slug}: '${id}'.`);
    if (seen.has(id)) {
      throw invalid(`configuration.extras.${index}`, `The extra '${id}' is listed twice; send {id, quantity} once.`);
    }
    seen.add(id);
    const requested = typeof entry === 'string' ? 1 : (entry.quantity ?? 1);
    checkRange(requested, `extras.${index}.quantity`, 1, 100);
    // a flat extra is charged once, whatever quantity is sent
    const quantity = extra.priceType === 'flat' ? 1 : requested;
    minutes += extra.minutes * quantity;
    return { id: extra.id, name: extra.name, quantity, unit_price: extra.price, total: extra.price * quantity };
  });
  return { lines, minutes };
}

/** Prices a configuration; throws 400 errors naming the configuration field at fault. */
export function priceConfiguration(catalog: PricingCatalog, configuration: Configuration): PriceBreakdown {
  const type = catalog.industry.configurationType;
  const base = type === 'room_based' ? roomBase(catalog, configuration) : lineItemBase(catalog, configuration);
  const extras = pricedExtras(catalog, configuration);
  const extrasTotal = extras.lines.reduce((sum, line) => sum + line.total, 0);
  const zoneAdjustment = catalog.zone ? percentOf(base.basePrice, catalog.zone.priceAdjustmentPercent) : 0;
  // adjustments are >= -100 % (the catalog file checks it), so this is never negative
  const subtotal = base.basePrice + zoneAdjustment + extrasTotal;

  const discounts: PriceBreakdown['discounts'] = [];
  const frequency = configuration.frequency ?? 'one-time';
  const frequencyPercent = catalog.frequencyDiscounts[frequency] ?? 0;
  let remaining = subtotal;
  if (frequencyPercent > 0) {
    const amount = Math.min(remaining, percentOf(remaining, frequencyPercent));
    discounts.push({
      type: 'frequency',
      description: `${FREQUENCY_NAMES[frequency]} discount (${formatPercent(frequencyPercent)})`,
      amount,
    });
    remaining -= amount;
  }
  const coupon = catalog.coupon;
  if (coupon) {
    const amount =
      coupon.percentOff !== null
        ? Math.min(remaining, percentOf(remaining, coupon.percentOff))
        : Math.min(remaining, coupon.amountOff ?? 0);
    const off =
      coupon.percentOff !== null
        ? `${formatPercent(coupon.percentOff)} off`
        : `${formatMoney(coupon.amountOff ?? 0, catalog.currency)} off`;
    discounts.push({ type: 'coupon', code: coupon.code, description: `Coupon ${coupon.code} (${off})`, amount });
    remaining -= amount;
  }
  const discount = subtotal - remaining;
  const taxRate = catalog.zone?.taxRate ?? 0;
  const tax = percentOf(remaining, taxRate);
  return {
    industry: catalog.industry.slug,
    zone: catalog.zone ? { id: catalog.zone.id, name: catalog.zone.name } : null,
    currency: catalog.currency,
    base_price: base.basePrice,
    zone_adjustment: zoneAdjustment,
    extras: extras.lines,
    extras_total: extrasTotal,
    subtotal,
    discounts,
    discount,
    tax_rate: taxRate,
    tax,
    total: remaining + tax,
    estimated_duration: base.minutes + extras.minutes,
  };
}
