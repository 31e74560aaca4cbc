// The scopes an app may ask for, and how the consent page says them to a person.
import { SCOPES, type Scope } from '../../core/http/auth.ts';

export { SCOPES, type Scope };

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'bookings:read': 'See your bookings',
  'bookings:write': 'Create, reschedule, start, complete and cancel bookings',
  'catalog:write': 'Change your services, prices, zones, coupons and settings',
  'customers:read': 'See your customers and their addresses',
  'customers:write': 'Add and change customers and their addresses',
  'events:read': 'See the events your webhooks were sent, for the last 30 days',
  'invoices:read': 'See your invoices and payments',
  'invoices:write': 'Create, send, charge, void and refund invoices',
  'services:read': 'See your services, prices and availability',
  'staff:read': 'See your crew, their hours and time off',
  'staff:write': 'Add and change crew members, their hours and time off',
  'webhooks:read': 'See your webhook endpoints and their deliveries',
  'webhooks:write': 'Add, change and remove webhook endpoints',
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** A space-separated scope parameter as a list; null when it names anything unknown. */
export function parseScopeParameter(value: string): Scope[] | null {
  const names = value.split(' ').filter(Boolean);
  if (!names.every(isScope)) return null;
  // keep the table's order, drop duplicates
  return SCOPES.filter((scope) => names.includes(scope));
}
