// Money is integer cents. Percentages (tax 8.875 %, discounts) carry up to three decimals and
// are applied in integer arithmetic, rounding half up (away from zero), once per figure.

const SCALE = 1000n;

/** `percent` % of `amount` cents, rounded half up; exact for percentages with <= 3 decimals. */
export function percentOf(amount: number, percent: number): number {
  const numerator = BigInt(amount) * BigInt(Math.round(percent * Number(SCALE)));
  const denominator = 100n * SCALE;
  const magnitude = (2n * (numerator < 0n ? -numerator : numerator) + denominator) / (2n * denominator);
  return Number(numerator < 0n ? -magnitude : magnitude);
}

export function formatPercent(percent: number): string {
  return `${Number(percent.toFixed(3))}%`;
}
