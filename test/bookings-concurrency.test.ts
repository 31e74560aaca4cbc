// No double-booking under concurrency: parallel creates for a slot two crew members can serve,
// the same race across two server processes on one PostgreSQL, and a property test over random
// create / reschedule / cancel sequences.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { book, mondayInNewYork, slotAt } from './helpers/bookings.ts';
import { databaseEnv, onPostgres } from './helpers/database.ts';
import { type Api, apiClient } from './helpers/http.ts';
import { killServers, startServerProcess } from './helpers/processes.ts';

const scene = mondayInNewYork();
afterAll(killServers);

/** 40 creates for one slot at once, each by another customer; returns the responses. */
async function race(apis: Api[], scheduledAt: string, customers: { id: string; addressId: string }[]) {
  return Promise.all(
    customers.map((customer, i) =>
      book(apis[i % apis.length] as Api, {
        customer_id: customer.id,
        address_id: customer.addressId,
        industry: 'junk-removal',
        configuration: scene.sofa(),
        scheduled_at: scheduledAt,
      }),
    ),
  );
}

async function expectTwoWinners(results: { status: number; body: any }[], scheduledAt: string) {
  const won = results.filter((res) => res.status === 201);
  const lost = results.filter((res) => res.status !== 201);
  expect(won).toHaveLength(2);
  expect(new Set(won.map((res) => res.body.assigned_crew[0])).size).toBe(2);
  expect(lost.map((res) => `${res.status} ${res.body.error?.code}`)).toEqual(
    Array(results.length - 2).fill('409 slot_unavailable'),
  );
  expect(await scene.overlaps()).toEqual([]);
  const [held] = await query<{ bookings: number; blocks: number }>(
    scene.t.database.sql,
    sql`select (select count(*)::int from bookings where account_id = ${scene.acct.accountId} and scheduled_at = ${scheduledAt}) as bookings,
               (select count(*)::int from staff_time_blocks where account_id = ${scene.acct.accountId} and lower(during) = ${scheduledAt}) as blocks`,
  );
  expect(held).toEqual({ bookings: 2, blocks: 2 });
}

describe('no double-booking', () => {
  it('40 parallel creates for a slot two crew members can serve: exactly two succeed', async () => {
    const customers = await Promise.all(Array.from({ length: 40 }, () => scene.customer()));
    const scheduledAt = await scene.slotAt('junk-removal', '2026-06-08', '10:00', 20);
    await expectTwoWinners(await race([scene.acct.api], scheduledAt, customers), scheduledAt);
  });

  it.skipIf(!onPostgres())(
    'the same race across two server processes on one PostgreSQL',
    async () => {
      const env = databaseEnv(scene.t.database);
      const servers = await Promise.all([startServer(env), startServer(env)]);
      const apis = servers.map((server) => apiClient(server.url, scene.acct.testKey));
      // the servers run on the real clock: a Monday at least three days ahead
      const day = new Date(Date.now() + 3 * 86_400_000);
      while (day.getUTCDay() !== 1) day.setUTCDate(day.getUTCDate() + 1);
      const date = day.toISOString().slice(0, 10);
      const customers = await Promise.all(Array.from({ length: 40 }, () => scene.customer()));
      const scheduledAt = await slotAt(apis[0] as Api, 'junk-removal', date, '10:00', 20);
      const results = await race(apis, scheduledAt, customers);
      await expectTwoWinners(results, scheduledAt);
      // both processes took part
      expect(new Set(results.map((_, i) => i % 2)).size).toBe(2);
      for (const server of servers) server.child.kill('SIGTERM');
    },
    120_000,
  );
});

/** A server process without workers. */
function startServer(env: Record<string, string>) {
  return startServerProcess({ ...env, RUN_WORKERS: 'false', RATE_LIMIT_MAX: '100000' });
}

type Op =
  | { kind: 'create'; customer: number; time: number }
  | { kind: 'reschedule'; booking: number; time: number }
  | { kind: 'cancel'; booking: number };

const TIMES = ['08:00', '09:00', '10:00', '11:00'];
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), customer: fc.nat(2), time: fc.nat(3) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('reschedule' as const), booking: fc.nat(20), time: fc.nat(3) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), booking: fc.nat(20) }) },
);

describe('property: random create, reschedule and cancel', () => {
  it('never leaves overlapping time for one crew member, and stats equal a recount', async () => {
    let week = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }),
        async (batches) => {
          // a Monday of its own for each run
          week += 1;
          const date = new Date(Date.UTC(2026, 5, 15 + 7 * week)).toISOString().slice(0, 10);
          const customers: { id: string; addressId: string }[] = [];
          for (let i = 0; i < 3; i++) customers.push(await scene.customer());
          const startsAt = new Map<string, string>();
          for (const time of TIMES) startsAt.set(time, await scene.slotAt('junk-removal', date, time, 20));
          const booked: string[] = [];
          for (const batch of batches) {
            // the operations of a batch run at the same time
            const results = await Promise.all(
              batch.map(async (step) => {
                if (step.kind === 'create') {
                  const customer = customers[step.customer]!;
                  const res = await scene.book({
                    customer_id: customer.id,
                    address_id: customer.addressId,
                    industry: 'junk-removal',
                    configuration: scene.sofa(),
                    scheduled_at: startsAt.get(TIMES[step.time]!),
                  });
                  if (res.status === 201) booked.push(res.body.id);
                  return res;
                }
                const id = booked[step.booking % Math.max(1, booked.length)];
                if (!id) return { status: 200, body: null };
                return step.kind === 'reschedule'
                  ? scene.acct.api.patch(`/v1/bookings/${id}`, { scheduled_at: startsAt.get(TIMES[step.time]!) })
                  : scene.acct.api.post(`/v1/bookings/${id}/cancel`);
              }),
            );
            for (const res of results) {
              expect([200, 201, 409], JSON.stringify(res.body)).toContain(res.status);
              if (res.status === 409) {
                expect(['slot_unavailable', 'invalid_state_transition']).toContain(res.body.error.code);
              }
            }
          }
          expect(await scene.overlaps()).toEqual([]);
          // every live booking holds exactly its crew's time; cancelled ones hold none
          const held = await query<{ id: string; status: string; blocks: number; crew: string[]; staff: string[] }>(
            scene.t.database.sql,
            sql`select b.id, b.status, b.assigned_crew as crew,
                     (select count(*)::int from staff_time_blocks s where s.booking_id = b.id) as blocks,
                     coalesce((select array_agg(s.staff_id) from staff_time_blocks s where s.booking_id = b.id), '{}') as staff
              from bookings b where b.id = any(${sql.param(booked)}::text[])`,
          );
          for (const row of held) {
            if (row.status === 'cancelled') expect(row.blocks).toBe(0);
            else expect(row.staff).toEqual(row.crew);
          }
          for (const customer of customers) {
            const { stored, counted } = await scene.statsAndRecount(customer.id);
            expect(stored).toEqual(counted);
          }
          const counts = await scene.countsAndRecount();
          expect(counts.stored).toEqual(counts.counted);
        },
      ),
      { numRuns: 12 },
    );
  }, 240_000);
});
