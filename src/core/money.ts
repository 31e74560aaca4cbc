// Money is integer cents everywhere; this is the one place it becomes text for people
// (e-mails, descriptions, the dashboard).

/** "$1,234.50" for 123450 cents in USD, "€20.00" in EUR. */
export function formatMoney(cents: number, currency = 'usd'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
