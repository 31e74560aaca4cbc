// Money as people read it: e-mails and pages show integer cents as "151.20 USD".

/** `cents` in the currency's major unit with two decimals and the ISO code: `151.20 USD`. */
export function formatMoney(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}
