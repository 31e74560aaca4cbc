// Factories for invoice and payment tests: customers, cards and invoices made through the API.
import { query, sql } from '../../src/core/db.ts';
import type { TestAccount, TestApp } from './app.ts';
import type { Api } from './http.ts';

export const CARDS = {
  visa: '4242424242424242',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

let counter = 0;

export async function newCustomer(api: Api, overrides: Record<string, unknown> = {}) {
  counter += 1;
  const res = await api.post('/v1/customers', {
    first_name: 'Pat',
    last_name: `Payer${counter}`,
    email: `payer-${process.pid}-${counter}@example.com`,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`customer not created: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; email: string };
}

export async function addCard(api: Api, customerId: string, number: string = CARDS.visa, extra = {}) {
  return api.post(`/v1/customers/${customerId}/payment_methods`, {
    card: { number, exp_month: 12, exp_year: 2040, cvc: '123' },
    ...extra,
  });
}

export const threeItems = [
  { description: 'Standard clean', quantity: 1, unit_price: 12000 },
  { description: 'Inside fridge', quantity: 2, unit_price: 2500 },
  { description: 'Travel', quantity: 1, unit_price: 1500 },
];

export async function newInvoice(api: Api, customerId: string, body: Record<string, unknown> = {}) {
  const res = await api.post('/v1/invoices', { customer_id: customerId, line_items: threeItems, ...body });
  if (res.status !== 201) throw new Error(`invoice not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function eventsOf(t: TestApp, acct: TestAccount) {
  return query<{ type: string; environment: string; payload: { data: { object: Record<string, unknown> } } }>(
    t.database.sql,
    sql`select type, environment, body::jsonb as payload from events where account_id = ${acct.accountId} order by created_at, id`,
  );
}

export async function customerStats(t: TestApp, customerId: string) {
  const [row] = await query<{ total_spent: number; credit_balance: number }>(
    t.database.sql,
    sql`select total_spent, credit_balance from customers where id = ${customerId}`,
  );
  return row;
}
