// Issue 4: availability for a zone with 25 crew members and 400 bookings on the queried day,
// and pricing with 5 extras and a coupon; 50 connections on PostgreSQL.

import { query, sql } from '../src/core/db.ts';
import { localDate } from '../src/modules/availability/index.ts';
import { blockCrewTime, exportCatalog, importCatalog } from '../src/modules/catalog/index.ts';
import { seedDemoEnvironment } from '../src/modules/demo/index.ts';
import { addChicago, TIMEZONE } from './chicago.ts';
import { benchAccount, heading, load, measureCeiling, startBenchServer } from './harness.ts';

const STAFF = 25;
const BLOCKS_PER_STAFF = 16;

export default async function run(): Promise<void> {
  heading(
    `catalog: availability (${STAFF} staff, ${STAFF * BLOCKS_PER_STAFF} bookings that day) and pricing, 50 connections, PostgreSQL`,
  );
  const server = await startBenchServer();
  try {
    const account = await benchAccount(server, { demo: seedDemoEnvironment });
    const db = server.database.sql;
    const file = await exportCatalog(server.deps, account.tenant);
    addChicago(file, { zips: ['60601', '60602', '60603', '60604', '60605'], slotIntervalMinutes: 30, staff: STAFF });
    const junk = file.industries.find((industry) => industry.slug === 'junk-removal')!;
    junk.extras.push(
      {
        slug: 'hazmat',
        name: 'Paint and chemicals',
        price: 1500,
        price_type: 'per_unit',
        unit_label: 'can',
        minutes: 2,
      },
      { slug: 'sweep-up', name: 'Sweep-up', price: 1900, price_type: 'flat', minutes: 10 },
    );
    await importCatalog(server.deps, account.tenant, JSON.stringify(file));
    const catalog = await exportCatalog(server.deps, account.tenant);
    const crew = catalog.staff.filter((member) => member.zones.includes('Chicago'));

    // a week ahead; each crew member holds 16 short jobs from 06:00, the afternoon mostly free
    const date = localDate(Date.now() + 7 * 86_400_000, TIMEZONE);
    const dayStart = new Date(`${date}T06:00:00-05:00`).getTime();
    for (const [i, member] of crew.entries()) {
      for (let k = 0; k < BLOCKS_PER_STAFF; k++) {
        const start = dayStart + (k * 40 + (i % 4) * 5) * 60_000;
        await blockCrewTime(server.deps, account.tenant, {
          staffId: member.id!,
          bookingId: `bk_bench_${i}_${k}`,
          start: new Date(start),
          end: new Date(start + 30 * 60_000),
        });
      }
    }

    // the ceiling: a bare route doing one primary-key SELECT, in its own process like the server
    const [zone] = await query<{ id: string }>(db, sql`select id from zones where name = 'Chicago'`);
    const ceiling = await measureCeiling(server, () => `/zones/${zone!.id}`);

    const headers = { authorization: `Bearer ${account.key}` };
    const industries = await load('GET /v1/services/industries', {
      url: `${server.url}/v1/services/industries`,
      headers,
    });
    await load('GET /v1/services/availability (demo zone)', {
      url: `${server.url}/v1/services/availability?zip=10001&industry=junk-removal&date=${date}`,
      headers,
    });
    const availability = await load('GET /v1/services/availability (25 crew, 400 bookings)', {
      url: `${server.url}/v1/services/availability?zip=60603&industry=junk-removal&date=${date}`,
      headers,
    });
    const products = catalog.industries
      .find((industry) => industry.slug === 'junk-removal')!
      .categories.flatMap((c) => c.products);
    const extras = catalog.industries.find((industry) => industry.slug === 'junk-removal')!.extras;
    const body = JSON.stringify({
      industry: 'junk-removal',
      zip: '60603',
      configuration: {
        items: products.slice(0, 4).map((product, i) => ({ product_id: product.id, quantity: i + 1 })),
        frequency: 'monthly',
        extras: extras.map((extra, i) => (i % 2 === 0 ? { id: extra.id, quantity: 2 } : extra.id)),
      },
      coupon_code: 'WELCOME10',
    });
    const pricing = await load('POST /v1/services/pricing (5 extras + coupon)', {
      url: `${server.url}/v1/services/pricing`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    });
    // service time without queueing: one connection
    const availabilityAlone = await load('  same, 1 connection', {
      url: `${server.url}/v1/services/availability?zip=60603&industry=junk-removal&date=${date}`,
      headers,
      connections: 1,
      duration: 5,
    });
    const pricingAlone = await load('  pricing, 1 connection', {
      url: `${server.url}/v1/services/pricing`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
      connections: 1,
      duration: 5,
    });
    console.log(
      `1 connection p50/p99: availability ${availabilityAlone.p50}/${availabilityAlone.p99} ms, pricing ${pricingAlone.p50}/${pricingAlone.p99} ms`,
    );
    console.log(`ceiling p99: ${ceiling.p99} ms (the machine's floor for any request)`);
    console.log(
      `targets: industries ${(industries.requestsPerSecond / ceiling.bare).toFixed(2)}× (>= 0.6×), pricing ${(pricing.requestsPerSecond / ceiling.bare).toFixed(2)}× (>= 0.3×), ` +
        `availability ${(availability.requestsPerSecond / ceiling.bare).toFixed(2)}× (>= 0.15×), ` +
        `availability p99 at 1 connection ${availabilityAlone.p99} ms (< 5 ms)`,
    );
  } finally {
    await server.close();
  }
}
