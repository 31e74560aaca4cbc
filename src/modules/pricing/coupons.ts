// Whether a coupon may be used now, for an industry. Bookings count redemptions; here we only
// read the count.

export interface Coupon {
  id: string;
  code: string;
  description: string;
  percentOff: number | null;
  amountOff: number | null;
  validFrom: Date | null;
  validUntil: Date | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  /** Industry slugs; null = every industry. */
  industries: string[] | null;
  isActive: boolean;
}

/** Why the coupon cannot be used, or null when it can. */
export function couponProblem(coupon: Coupon, use: { industry: string; now: Date }): string | null {
  if (!coupon.isActive) return `The coupon ${coupon.code} is no longer valid.`;
  if (coupon.validFrom && use.now < coupon.validFrom) return `The coupon ${coupon.code} is not valid yet.`;
  if (coupon.validUntil && use.now > coupon.validUntil) return `The coupon ${coupon.code} has expired.`;
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    return `The coupon ${coupon.code} has been used up.`;
  }
  if (coupon.industries && coupon.industries.length > 0 && !coupon.industries.includes(use.industry)) {
    return `The coupon ${coupon.code} does not apply to ${use.industry}.`;
  }
  return null;
}
