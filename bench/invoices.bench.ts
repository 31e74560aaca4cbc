// Issue 6: invoice creation with 3 line items and auto_charge (test card 4242…) at 50
// connections on PostgreSQL. Targets: >= 600 invoices/s (issue 16), numbers gapless. Every invoice of the
// account takes the same numbering lock, so this measures the serialised part too.
import { query, sql } from '../src/core/db.ts';
import { benchAccount, heading, loadPosts, measureCeiling, perRequest, startBenchServer } from './harness.ts';

const CUSTOMERS = 200;

export default async function run(): Promise<void> {
  heading('invoices: create with 3 line items + auto_charge (test card), 50 connections, PostgreSQL');
  const server = await startBenchServer();
  try {
    const account = await benchAccount(server);
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
    const customers: string[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const created = await fetch(`${server.url}/v1/customers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ first_name: 'Bench', last_name: `Payer ${i}`, email: `payer${i}@example.com` }),
      });
      const customer = (await created.json()) as { id: string };
      const card = await fetch(`${server.url}/v1/customers/${customer.id}/payment_methods`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } }),
      });
      if (card.status !== 201) throw new Error(`card not added: ${card.status}`);
      customers.push(customer.id);
    }
    const lineItems = [
      { description: 'Standard clean, 2 bedrooms', quantity: 1, unit_price: 14000 },
      { description: 'Inside fridge', quantity: 2, unit_price: 2500 },
      { description: 'Travel', quantity: 1, unit_price: 1500 },
    ];
    // the ceiling: a bare route doing one primary-key SELECT, in its own process like the server
    const ceiling = await measureCeiling(server, () => `/customers/${customers[0]}`);
    const result = await perRequest(server, () =>
      loadPosts('POST /v1/invoices (3 items, auto_charge)', {
        url: server.url,
        headers,
        path: '/v1/invoices',
        body: (i) => ({
          customer_id: customers[i % customers.length],
          line_items: lineItems,
          tax_rate: 8.875,
          auto_charge: true,
        }),
      }),
    );
    // checks the run did what it claims: every invoice numbered and paid, the numbers 1..n
    const [counts] = await query<{ invoices: number; paid: number; numbers: number; highest: number }>(
      server.database.sql,
      sql`select count(*)::int as invoices, count(*) filter (where status = 'paid')::int as paid,
                 count(distinct number)::int as numbers,
                 coalesce(max(substr(number, 5)::int), 0) as highest from invoices`,
    );
    const { invoices, paid, numbers, highest } = counts ?? { invoices: 0, paid: 0, numbers: 0, highest: 0 };
    const gapless = numbers === invoices && highest === invoices;
    console.log(
      `invoices created ${invoices}, paid ${paid}, distinct numbers ${numbers}, highest ${highest}: ` +
        (gapless ? 'gapless' : 'GAPS OR DUPLICATES'),
    );
    console.log(
      `invoices/s: ${result.requestsPerSecond} (target >= 600), p99: ${result.p99} ms; ` +
        `${((100 * result.requestsPerSecond) / ceiling.bare).toFixed(1)}% of the ceiling's req/s`,
    );
  } finally {
    await server.close();
  }
}
