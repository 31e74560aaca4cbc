import { localDate } from '../src/modules/availability/index.ts';
import { seedDemoEnvironment } from '../src/modules/demo/index.ts';
import { benchAccount, heading, load, rssMb, seedCustomers, startBenchServer } from './harness.ts';

const CUSTOMERS = 10_000;

export default async function run(): Promise<void> {
  heading('mixed: 50 connections for 20 s over eight kinds of request; server RSS, PostgreSQL');
  const server = await startBenchServer();
  try {
    const account = await benchAccount(server, { demo: seedDemoEnvironment });
    const _db = server.database.sql;
    const ids = await seedCustomers(server, account.accountId, CUSTOMERS, 'mixed');
    const headers = { authorization: `Bearer ${account.key}` };
    const json = { ...headers, 'content-type': 'application/json' };
    const products = (await (
      await fetch(`${server.url}/v1/services/industries/junk-removal/products`, { headers })
    ).json()) as { categories: { products: { id: string }[] }[] };
    const product = products.categories[0]!.products[0]!.id;
    const date = localDate(Date.now() + 7 * 86_400_000, 'America/New_York');
    const pricing = JSON.stringify({
      industry: 'junk-removal',
      zip: '10001',
      configuration: { items: [{ product_id: product, quantity: 2 }], frequency: 'one-time' },
    });

    let n = 0;
    const mix = (
      i: number,
    ): { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> } => {
      const id = ids[i % ids.length];
      switch (i % 8) {
        case 0:
          return { method: 'GET', path: `/v1/customers/${id}` };
        case 1:
          // a term as a person types it: one customer's e-mail (a common word matches every row)
          return { method: 'GET', path: `/v1/customers?search=mixed${1 + (i % 9000)}%40` };
        case 2:
          return { method: 'GET', path: '/v1/customers?per_page=100' };
        case 3:
          return { method: 'GET', path: `/v1/services/availability?zip=10001&industry=junk-removal&date=${date}` };
        case 4:
          return { method: 'POST', path: '/v1/services/pricing', body: pricing, headers: json };
        case 5:
          return { method: 'GET', path: '/v1/services/industries' };
        case 6:
          return {
            method: 'POST',
            path: '/v1/customers',
            body: JSON.stringify({ first_name: 'Load', last_name: `Writer ${i}`, email: `w${i}@example.com` }),
            headers: json,
          };
        default:
          return { method: 'GET', path: '/v1/bookings?per_page=100' };
      }
    };
    const before = rssMb(server.pid);
    let peak = before ?? 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid) ?? 0);
    }, 250);
    await load('mixed (8 kinds of request)', {
      url: server.url,
      headers,
      duration: 20,
      requests: [{ setupRequest: (req) => ({ ...req, ...mix(n++) }) }],
    });
    clearInterval(sampler);
    const after = rssMb(server.pid);
    console.log(`server RSS: ${before} MB before, peak ${peak} MB, ${after} MB after the load (target < 150 MB after)`);
  } finally {
    await server.close();
  }
}
