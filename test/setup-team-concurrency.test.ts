// Time off and bookings share one exclusion constraint: for one crew member, bookings and time
// off race for overlapping time on two server processes over one PostgreSQL. Afterwards no
// booking overlaps any time off, and every request got 2xx or 409, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { book, type Catalog, customerWithAddress, demoCatalog, sofa } from './helpers/bookings.ts';
import { databaseEnv, onPostgres } from './helpers/database.ts';
import { type Api, apiClient } from './helpers/http.ts';
import { killServers, startServerProcess } from './helpers/processes.ts';
import { createStaff, createZone } from './helpers/setup.ts';

let t: TestApp, acct: TestAccount, catalog: Catalog;
beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ workers: false }, { demo: true }));
  catalog = await demoCatalog(acct.api);
});
afterAll(async () => {
  killServers();
  await t.close();
});

describe.skipIf(!onPostgres())('time off racing bookings on two instances', () => {
  it('never lets a booking and time off share a crew member’s time', async () => {
    const env = { ...databaseEnv(t.database), RUN_WORKERS: 'false', RATE_LIMIT_MAX: '100000' };
    const servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const apis = servers.map((server) => apiClient(server.url, acct.testKey));
    // the servers run on the real clock: a Monday at least three days ahead, in UTC (zone in UTC)
    const day = new Date(Date.now() + 3 * 86_400_000);
    while (day.getUTCDay() !== 1) day.setUTCDate(day.getUTCDate() + 1);
    const date = day.toISOString().slice(0, 10);
    const zone = await createZone(acct.api, { timezone: 'UTC' });
    const member = await createStaff(acct.api, [zone.id]);
    const customers = await Promise.all(
      Array.from({ length: 16 }, () => customerWithAddress(acct.api, zone.zips[0] as string)),
    );
    const at = (hour: number, minute = 0) =>
      `${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`;
    // two bookings (08:00-08:20 …) and two time off requests each hour from 08:00 to 15:00: on odd
    // hours the time off (:10-:50) overlaps the booking, so one of them wins; on even hours (:30-:50)
    // it does not, so both kinds win somewhere
    const requests: Promise<{ status: number; body: any; kind: string }>[] = [];
    customers.forEach((customer, i) => {
      const api = apis[i % 2] as Api;
      const hour = 8 + (i % 8);
      requests.push(
        book(api, {
          customer_id: customer.id,
          address_id: customer.addressId,
          industry: 'junk-removal',
          configuration: sofa(catalog),
          scheduled_at: at(hour),
        }).then((res) => ({ ...res, kind: 'booking' })),
      );
      requests.push(
        api
          .post(`/v1/staff/${member.id}/time_off`, { starts_at: at(hour, hour % 2 ? 10 : 30), ends_at: at(hour, 50) })
          .then((res) => ({ ...res, kind: 'time off' })),
      );
    });
    const results = await Promise.all(requests);
    const statuses = results.map((res) => `${res.kind} ${res.status} ${res.body?.error?.code ?? ''}`.trim());
    for (const status of statuses) expect(status).toMatch(/ (201|409 [a-z_]+)$/);
    expect(results.some((res) => res.status === 201 && res.kind === 'booking')).toBe(true);
    expect(results.some((res) => res.status === 201 && res.kind === 'time off')).toBe(true);
    const overlapping = await query<{ booking_id: string; time_off_id: string }>(
      t.database.sql,
      sql`select b.booking_id, o.time_off_id from staff_time_blocks b join staff_time_blocks o
            on o.staff_id = b.staff_id and o.time_off_id is not null and b.booking_id is not null
           and o.during && b.during
          where b.staff_id = ${member.id}`,
    );
    expect(overlapping).toEqual([]);
    const booked = await query<{ n: number }>(
      t.database.sql,
      sql`select count(*)::int as n from bookings where ${member.id} = any(assigned_crew) and status = 'confirmed'`,
    );
    expect(booked[0]?.n).toBe(results.filter((res) => res.kind === 'booking' && res.status === 201).length);
    for (const server of servers) server.child.kill('SIGTERM');
  }, 120_000);
});
