// Issue 5: booking creation at 50 connections across many slots (availability check, pricing,
// crew held by the exclusion constraint, stats, event: the whole transaction), and the booking
// list with 200,000 bookings in the account. Targets: >= 600 bookings/s (issue 16) with no
// overlapping crew time; list p99 < 30 ms.
import os from 'node:os';
import { query, sql } from '../src/core/db.ts';
import { localDate } from '../src/modules/availability/index.ts';
import { exportCatalog, importCatalog } from '../src/modules/catalog/index.ts';
import { seedDemoEnvironment } from '../src/modules/demo/index.ts';
import { addChicago, TIMEZONE } from './chicago.ts';
import { benchAccount, heading, load, loadPosts, measureCeiling, perRequest, startBenchServer } from './harness.ts';

const STAFF = 25;
const DAYS = 60;
const CUSTOMERS = 200;
const LISTED = 200_000;

export default async function run(): Promise<void> {
  heading(
    `bookings: create across ${DAYS} days x ${STAFF} crew, 50 connections; list over ${LISTED} bookings; PostgreSQL`,
  );
  const server = await startBenchServer();
  try {
    const account = await benchAccount(server, { demo: seedDemoEnvironment });
    const db = server.database.sql;
    const file = await exportCatalog(server.deps, account.tenant);
    addChicago(file, { zips: ['60601'], slotIntervalMinutes: 60, staff: STAFF });
    await importCatalog(server.deps, account.tenant, JSON.stringify(file));
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as any;
    };

    const customers: { id: string; address: string }[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const customer = await api('POST', '/v1/customers', {
        first_name: 'Bench',
        last_name: `Booker ${i}`,
        email: `booker${i}@example.com`,
        address: { street: `${i} Lake Shore Dr`, city: 'Chicago', state: 'IL', zip: '60601' },
      });
      customers.push({ id: customer.id, address: customer.addresses[0].id });
    }
    const products = await api('GET', '/v1/services/industries/junk-removal/products');
    const sofa = products.categories[0].products.find((p: { name: string }) => p.name === 'Sofa').id;
    const configuration = { items: [{ product_id: sofa, quantity: 1 }], frequency: 'one-time' };

    // every slot of the next DAYS days, as availability offers them (20-min job)
    const slots: string[] = [];
    for (let d = 2; d < DAYS + 2; d++) {
      const date = localDate(Date.now() + d * 86_400_000, TIMEZONE);
      const day = await api(
        'GET',
        `/v1/services/availability?zip=60601&industry=junk-removal&date=${date}&duration=20`,
      );
      for (const slot of day.available_slots) slots.push(slot.starts_at);
    }
    // the ceiling: a bare route doing one primary-key SELECT, in its own process like the server
    const ceiling = await measureCeiling(server, () => `/customers/${customers[0]!.id}`);
    // consecutive requests go to different slots; each slot takes STAFF bookings
    const creation = await perRequest(server, () =>
      loadPosts('POST /v1/bookings (50 connections)', {
        url: server.url,
        headers,
        path: '/v1/bookings',
        body: (i) => {
          const customer = customers[i % customers.length]!;
          return {
            customer_id: customer.id,
            address_id: customer.address,
            industry: 'junk-removal',
            configuration,
            scheduled_at: slots[i % slots.length],
          };
        },
      }),
    );
    const [made] = await query<{ bookings: number; overlaps: number }>(
      db,
      sql`select (select count(*)::int from bookings) as bookings,
                 (select count(*)::int from staff_time_blocks a join staff_time_blocks b
                    on a.staff_id = b.staff_id and a.id < b.id and a.during && b.during) as overlaps`,
    );
    console.log(
      `bookings created ${made?.bookings}, overlapping crew time ${made?.overlaps} (slots offered ${slots.length})`,
    );
    // BENCH_CREATE_ONLY=1 stops here (profiling the write path needs no list)
    if (process.env.BENCH_CREATE_ONLY) {
      console.log(`bookings/s: ${creation.requestsPerSecond}, create p99: ${creation.p99} ms`);
      return;
    }

    // 200,000 bookings in the account, bulk-inserted with the shape the API writes
    const sample = await api('POST', '/v1/services/pricing', { industry: 'junk-removal', zip: '60601', configuration });
    const [zone] = await query<{ id: string }>(
      db,
      sql`select id from zones where name = 'Chicago' and account_id = ${account.accountId}`,
    );
    await query(
      db,
      sql`insert into bookings (id, account_id, environment, customer_id, address_id, zone_id, status, industry,
            configuration, pricing, total, estimated_duration, scheduled_at, assigned_crew, timeline, created_at, updated_at)
          select 'bk_' || substr(md5(g::text || random()::text), 1, 24), ${account.accountId}, 'test', c.id, a.id, ${zone?.id},
                 (array['confirmed','confirmed','completed','cancelled','in_progress'])[1 + g % 5], 'junk-removal',
                 ${JSON.stringify(configuration)}::jsonb, ${JSON.stringify(sample)}::jsonb, ${sample.total}, 20,
                 now() + make_interval(hours => g % 2000), '{}', '[]'::jsonb,
                 now() - make_interval(secs => g * 60), now() - make_interval(secs => g * 60)
          from generate_series(1, ${LISTED}) as g
          join lateral (select id from customers where account_id = ${account.accountId} order by id
                        offset (g % ${CUSTOMERS}) limit 1) c on true
          join addresses a on a.customer_id = c.id`,
    );
    // what the API keeps in its transactions, set here for the rows inserted behind its back
    await query(db, sql`delete from booking_counts where account_id = ${account.accountId}`);
    await query(
      db,
      sql`insert into booking_counts (account_id, environment, status, shard, count)
          select account_id, environment, status, 0, count(*) from bookings where account_id = ${account.accountId}
          group by account_id, environment, status`,
    );
    await query(db, sql`vacuum analyze bookings`);
    const listUrl = `${server.url}/v1/bookings?status=confirmed&per_page=100`;
    const alone = await load('GET /v1/bookings?status=confirmed&per_page=100, 1 conn', {
      url: listUrl,
      headers,
      connections: 1,
      duration: 5,
    });
    const ten = await load('  same, 10 connections', { url: listUrl, headers, connections: 10, duration: 5 });
    // A list asked for again is kept (docs/caching.md); this one asks a page the server was never
    // asked for on each request (a day's page of one of the 83 days booked), as a sync paging
    // through would: what a list costs before it is kept
    let asked = 0;
    const fresh = await load('  10 connections, a page never asked before each time', {
      url: server.url,
      headers,
      connections: 10,
      duration: 5,
      requests: [
        {
          setupRequest: (req) => {
            const day = localDate(Date.now() + (1 + (asked % 83)) * 86_400_000, 'UTC');
            const page = 1 + (Math.floor(asked++ / 83) % 24);
            return { ...req, path: `/v1/bookings?per_page=100&date_from=${day}&date_to=${day}&page=${page}` };
          },
        },
      ],
    });
    const fifty = await load('  same, 50 connections', { url: listUrl, headers, duration: 5 });
    const deep = await load('  page 500 (offset 49,900), 1 conn', {
      url: `${listUrl}&page=500`,
      headers,
      connections: 1,
      duration: 5,
    });
    console.log(`machine load average (1 min) at the end: ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`);
    console.log(
      `bookings/s: ${creation.requestsPerSecond} (target >= 600), create p99: ${creation.p99} ms; ` +
        `${((100 * creation.requestsPerSecond) / ceiling.bare).toFixed(1)}% of the ceiling's req/s`,
    );
    console.log(
      `list p99: ${alone.p99} ms at 1 connection, ${ten.p99} ms at 10, ${fifty.p99} ms at 50 (target < 30 ms); ` +
        `pages never asked before, 10 connections: ${fresh.p99} ms; page 500 p99 ${deep.p99} ms`,
    );
  } finally {
    await server.close();
  }
}
