// Factories for booking tests on the demo catalog: customers with an address in a zone,
// configurations of each industry, and slots taken from the availability endpoint.

import type { Clock } from '../../src/core/clock.ts';
import { query, sql } from '../../src/core/db.ts';
import { startWithAccount, type TestAccount, type TestApp } from './app.ts';
import type { Api } from './http.ts';

let counter = 0;

export const ZIPS = { manhattan: '10001', sanFrancisco: '94107' } as const;

/** A customer with one address (the default) at `zip`. */
export async function customerWithAddress(api: Api, zip: string = ZIPS.manhattan) {
  counter += 1;
  const res = await api.post('/v1/customers', {
    first_name: 'Bea',
    last_name: `Booker${counter}`,
    email: `booker-${process.pid}-${Date.now()}-${counter}@example.com`,
    address: { street: `${counter} Main St`, city: 'New York', state: 'NY', zip },
  });
  if (res.status !== 201) throw new Error(`customer not created: ${JSON.stringify(res.body)}`);
  return { id: res.body.id as string, addressId: res.body.addresses[0].id as string, email: res.body.email as string };
}

export interface Catalog {
  products: Record<string, Record<string, string>>;
  extras: Record<string, Record<string, string>>;
}

/** Product and extra ids of the demo catalog, by industry and slug-ish name. */
export async function demoCatalog(api: Api): Promise<Catalog> {
  const catalog: Catalog = { products: {}, extras: {} };
  for (const industry of ['residential-cleaning', 'junk-removal', 'carpet-cleaning']) {
    const products = (await api.get(`/v1/services/industries/${industry}/products`)).body;
    const extras = (await api.get(`/v1/services/industries/${industry}/extras`)).body;
    catalog.products[industry] = Object.fromEntries(
      products.categories.flatMap((c: { products: { id: string; name: string }[] }) =>
        c.products.map((p) => [p.name, p.id]),
      ),
    );
    catalog.extras[industry] = Object.fromEntries(extras.data.map((e: { id: string; name: string }) => [e.name, e.id]));
  }
  return catalog;
}

/**
 * A server on `clock` (workers off) with a demo account and its catalog's ids, for a file's
 * `beforeAll`, which returns `t.close`.
 */
export async function startWithDemoCatalog(clock: Clock): Promise<{ t: TestApp; acct: TestAccount; catalog: Catalog }> {
  const { t, acct } = await startWithAccount({ clock, workers: false }, { demo: true });
  return { t, acct, catalog: await demoCatalog(acct.api) };
}

/** One configuration per configuration type. */
export function configurations(catalog: Catalog) {
  return {
    'residential-cleaning': {
      bedrooms: 2,
      bathrooms: 1,
      frequency: 'one-time',
      extras: [catalog.extras['residential-cleaning']!['Inside the oven']!],
    },
    'junk-removal': {
      items: [{ product_id: catalog.products['junk-removal']!.Sofa!, quantity: 1 }],
      frequency: 'one-time',
    },
    'carpet-cleaning': {
      sections: [{ product_id: catalog.products['carpet-cleaning']!['Room (up to 200 sq ft)']!, quantity: 2 }],
      frequency: 'one-time',
      extras: [{ id: catalog.extras['carpet-cleaning']!['Stain protection']!, quantity: 2 }],
    },
  } as const;
}

/** A sofa pickup: 20 minutes, so short jobs fit many times a day. */
export function sofa(catalog: Catalog, frequency = 'one-time') {
  return { items: [{ product_id: catalog.products['junk-removal']!.Sofa!, quantity: 1 }], frequency };
}

export async function slots(api: Api, industry: string, date: string, duration: number, zip: string = ZIPS.manhattan) {
  const res = await api.get(
    `/v1/services/availability?zip=${zip}&industry=${industry}&date=${date}&duration=${duration}`,
  );
  if (res.status !== 200) throw new Error(`availability: ${JSON.stringify(res.body)}`);
  return res.body.available_slots as { start: string; starts_at: string }[];
}

/** The starts_at of the slot at local `time` on `date`, as availability offers it. */
export async function slotAt(api: Api, industry: string, date: string, time: string, duration: number, zip?: string) {
  const slot = (await slots(api, industry, date, duration, zip)).find((s) => s.start === time);
  if (!slot) throw new Error(`no ${time} slot on ${date}`);
  return slot.starts_at;
}

export async function book(api: Api, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api.post('/v1/bookings', body, headers);
}

/** Every overlap of two time blocks of one staff member in the account (should be none). */
export function overlaps(t: TestApp, acct: TestAccount) {
  return query<{ staff_id: string }>(
    t.database.sql,
    sql`select a.staff_id from staff_time_blocks a join staff_time_blocks b
          on a.staff_id = b.staff_id and a.id < b.id and a.during && b.during
        where a.account_id = ${acct.accountId}`,
  );
}

/** Customer stats as stored, and as recounted from the booking rows. */
export async function statsAndRecount(t: TestApp, customerId: string) {
  const [row] = await query<{
    stored: { total_bookings: number; last_booking_at: string | null; active_subscription: boolean };
    counted: { total_bookings: number; last_booking_at: string | null; active_subscription: boolean };
  }>(
    t.database.sql,
    sql`select json_build_object('total_bookings', c.total_bookings, 'last_booking_at', c.last_booking_at,
                 'active_subscription', c.active_subscription) as stored,
               json_build_object(
                 'total_bookings', (select count(*) from bookings b where b.customer_id = c.id and b.status <> 'cancelled'),
                 'last_booking_at', (select max(created_at) from bookings b where b.customer_id = c.id and b.status <> 'cancelled'),
                 'active_subscription', exists (select 1 from subscriptions s where s.customer_id = c.id and s.status = 'active')
               ) as counted
        from customers c where c.id = ${customerId}`,
  );
  if (!row) throw new Error('no customer');
  return row;
}

/** booking_counts of the account's test environment, and the same counted from the rows. */
export async function countsAndRecount(t: TestApp, acct: TestAccount) {
  const [row] = await query<{ stored: Record<string, number> | null; counted: Record<string, number> | null }>(
    t.database.sql,
    sql`select (select json_object_agg(status, n) from (select status, sum(count)::int as n from booking_counts
                where account_id = ${acct.accountId} and environment = 'test' group by status having sum(count) <> 0) s) as stored,
               (select json_object_agg(status, n) from (select status, count(*) as n from bookings
                where account_id = ${acct.accountId} and environment = 'test' group by status) c) as counted`,
  );
  return { stored: row?.stored ?? {}, counted: row?.counted ?? {} };
}
