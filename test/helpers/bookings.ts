// Factories for booking tests on the demo catalog: customers with an address in a zone,
// configurations of each industry, and slots taken from the availability endpoint.

import { afterAll, beforeAll } from 'vitest';
import { type Clock, ManualClock } from '../../src/core/clock.ts';
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

// Each account and environment has its own demo catalog, with its own ids.
const catalogs = new Map<Api, Catalog>();

/** The booking as the API returns it. */
export interface SofaPickup {
  id: string;
  customer: { id: string; name: string };
  crew: { name: string }[];
  [field: string]: any;
}

/**
 * A confirmed sofa pickup for the account (and environment) of `api`, on its own demo catalog:
 * on `date` at local `time` (10:00 unless told) in `zip` (Manhattan), for `customer` or a new one,
 * with `couponCode` if given.
 */
export async function sofaPickup(
  api: Api,
  date: string,
  options: { time?: string; zip?: string; customer?: { id: string; addressId: string }; couponCode?: string } = {},
) {
  if (!catalogs.has(api)) catalogs.set(api, await demoCatalog(api));
  const customer = options.customer ?? (await customerWithAddress(api, options.zip));
  const res = await book(api, {
    customer_id: customer.id,
    address_id: customer.addressId,
    industry: 'junk-removal',
    configuration: sofa(catalogs.get(api) as Catalog),
    scheduled_at: await slotAt(api, 'junk-removal', date, options.time ?? '10:00', 20, options.zip),
    ...(options.couponCode ? { coupon_code: options.couponCode } : {}),
  });
  if (res.status !== 201) throw new Error(`booking not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as SofaPickup;
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

/**
 * Monday 2026-06-01, 08:00 in New York. On Mondays exactly two Manhattan crew members do junk
 * removal (Maria Lopez and Dmitri Petrov; James Carter is off).
 */
export const MONDAY_8AM_NEW_YORK = '2026-06-01T12:00:00Z';

/** The bookings test files' world: one server, its demo account and catalog, and the clock. */
export interface BookingScene {
  clock: ManualClock;
  t: TestApp;
  acct: TestAccount;
  catalog: Catalog;
  /** A customer of the account with one address at `zip` (Manhattan unless told). */
  customer(zip?: string): ReturnType<typeof customerWithAddress>;
  book(body: Record<string, unknown>, headers?: Record<string, string>): ReturnType<typeof book>;
  slots(industry: string, date: string, duration: number, zip?: string): ReturnType<typeof slots>;
  slotAt(industry: string, date: string, time: string, duration: number, zip?: string): Promise<string>;
  sofa(frequency?: string): ReturnType<typeof sofa>;
  overlaps(): ReturnType<typeof overlaps>;
  statsAndRecount(customerId: string): ReturnType<typeof statsAndRecount>;
  countsAndRecount(): ReturnType<typeof countsAndRecount>;
}

/**
 * Registers the file's `beforeAll` (a server on a ManualClock at Monday 08:00 in New York, workers
 * off, with a demo account and its catalog's ids) and the `afterAll` that closes it. Read `t`,
 * `acct` and `catalog` inside tests and hooks, not at the top of the file.
 */
export function mondayInNewYork(): BookingScene {
  const scene: BookingScene = {
    clock: new ManualClock(MONDAY_8AM_NEW_YORK),
    t: undefined as unknown as TestApp,
    acct: undefined as unknown as TestAccount,
    catalog: undefined as unknown as Catalog,
    customer: (zip) => customerWithAddress(scene.acct.api, zip),
    book: (body, headers) => book(scene.acct.api, body, headers),
    slots: (industry, date, duration, zip) => slots(scene.acct.api, industry, date, duration, zip),
    slotAt: (industry, date, time, duration, zip) => slotAt(scene.acct.api, industry, date, time, duration, zip),
    sofa: (frequency) => sofa(scene.catalog, frequency),
    overlaps: () => overlaps(scene.t, scene.acct),
    statsAndRecount: (customerId) => statsAndRecount(scene.t, customerId),
    countsAndRecount: () => countsAndRecount(scene.t, scene.acct),
  };
  beforeAll(async () => {
    Object.assign(scene, await startWithDemoCatalog(scene.clock));
  });
  afterAll(() => scene.t?.close());
  return scene;
}
