// Invoice arithmetic, pure: integer cents, half-up rounding once for tax (CONTRACT §1).

export interface LineItemInput {
  description: string;
  quantity: number;
  unit_price: number;
}

export interface LineItem extends LineItemInput {
  total: number;
}

export interface InvoiceTotals {
  lineItems: LineItem[];
  subtotal: number;
  discount: number;
  taxRate: number;
  tax: number;
  total: number;
}

/** Tax rates are percents with at most 4 decimals (8.875 %); kept as ten-thousandths of a percent. */
const RATE_SCALE = 10_000;

export function taxRateUnits(taxRate: number): number | null {
  const units = Math.round(taxRate * RATE_SCALE);
  if (taxRate < 0 || taxRate > 100 || Math.abs(units - taxRate * RATE_SCALE) > 1e-6) return null;
  return units;
}

/** round(amount x taxRate / 100), half-up, in exact integer arithmetic. */
export function taxOn(amount: number, taxRate: number): number {
  const units = taxRateUnits(taxRate);
  if (units === null) throw new RangeError(`invalid tax rate ${taxRate}`);
  const divisor = BigInt(100 * RATE_SCALE);
  return Number((BigInt(amount) * BigInt(units) * 2n + divisor) / (2n * divisor));
}

/** Totals from line items: tax on (subtotal - discount); total = subtotal - discount + tax. */
export function invoiceTotals(items: LineItemInput[], options: { taxRate: number; discount: number }): InvoiceTotals {
  const lineItems = items.map((item) => ({ ...item, total: item.quantity * item.unit_price }));
  const subtotal = lineItems.reduce((sum, item) => sum + item.total, 0);
  const tax = taxOn(subtotal - options.discount, options.taxRate);
  return {
    lineItems,
    subtotal,
    discount: options.discount,
    taxRate: options.taxRate,
    tax,
    total: subtotal - options.discount + tax,
  };
}
