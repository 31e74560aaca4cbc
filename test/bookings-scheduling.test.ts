// Scheduling guarantees over HTTP: availability sees bookings, reschedules re-check and keep the
// crew, cancellation fees under the policy, and recurring occurrences.
import { describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { blockCrewTime } from '../src/modules/catalog/index.ts';
import { addCard } from './helpers/billing.ts';
import { MONDAY_8AM_NEW_YORK, mondayInNewYork } from './helpers/bookings.ts';

const scene = mondayInNewYork();
const { clock } = scene;
const START = MONDAY_8AM_NEW_YORK;

async function sofaAt(
  date: string,
  time: string,
  frequency = 'one-time',
  customer?: { id: string; addressId: string },
) {
  const who = customer ?? (await scene.customer());
  const res = await scene.book({
    customer_id: who.id,
    address_id: who.addressId,
    industry: 'junk-removal',
    configuration: scene.sofa(frequency),
    scheduled_at: await scene.slotAt('junk-removal', date, time, 20),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const starts = async (date: string) => (await scene.slots('junk-removal', date, 20)).map((s) => s.start);

async function blocksOf(bookingId: string) {
  return query<{ staff_id: string; lower: string }>(
    scene.t.database.sql,
    sql`select staff_id, lower(during)::text as lower from staff_time_blocks where booking_id = ${bookingId}`,
  );
}

describe('a refused time says why (409 slot_unavailable, zone time and zone named)', () => {
  it('in the past, on a day off, outside hours, off the grid, at too short notice', async () => {
    expect(clock.now().toISOString()).toBe(new Date(START).toISOString());
    const who = await scene.customer();
    const at = (scheduled_at: string) =>
      scene.book({
        customer_id: who.id,
        address_id: who.addressId,
        industry: 'junk-removal',
        configuration: scene.sofa(),
        scheduled_at,
      });
    const cases = [
      // Friday 10:00 in New York, the week before
      [
        '2026-05-29T14:00:00Z',
        '2026-05-29 10:00 America/New_York is in the past: pick a time that availability offers from now on.',
      ],
      ['2026-06-07T14:00:00Z', 'Manhattan does not work on Sundays: pick another day.'],
      [
        '2026-06-05T23:00:00Z',
        "A 20-minute job at 19:00 America/New_York is outside Manhattan's hours on Fridays " +
          '(08:00-18:00 America/New_York): pick a start from 08:00 that ends by 18:00.',
      ],
      [
        '2026-06-05T14:15:00Z',
        "10:15 America/New_York is not a slot start: starts fall on Manhattan's 60-minute grid from 08:00 " +
          '(the nearest are 10:00 and 11:00), so pick one of those.',
      ],
      [
        '2026-06-01T13:00:00Z',
        "Manhattan needs 120 minutes' notice, so nothing can start before 2026-06-01 10:00 America/New_York: " +
          'pick a later slot.',
      ],
    ] as const;
    for (const [scheduledAt, message] of cases) {
      const res = await at(scheduledAt);
      expect(res.status, scheduledAt).toBe(409);
      expect(res.body.error, scheduledAt).toEqual({
        type: 'invalid_request_error',
        code: 'slot_unavailable',
        param: 'scheduled_at',
        message,
      });
    }
  });
});

describe('availability reflects bookings', () => {
  it('a booked crew member is no longer free; the slot goes when both are booked', async () => {
    expect(await starts('2026-06-08')).toContain('10:00');
    const first = await sofaAt('2026-06-08', '10:00');
    expect(await starts('2026-06-08')).toContain('10:00');
    const second = await sofaAt('2026-06-08', '10:00');
    expect(second.assigned_crew).not.toEqual(first.assigned_crew);
    const after = await starts('2026-06-08');
    // 10:00-10:20 plus the 30 min buffer: 09:00 (ends 09:50) and 11:00 are still free
    expect(after).not.toContain('10:00');
    expect(after).toEqual(expect.arrayContaining(['09:00', '11:00']));
    const third = await scene.book({
      customer_id: first.customer.id,
      address_id: first.address.id,
      industry: 'junk-removal',
      configuration: scene.sofa(),
      scheduled_at: first.scheduled_at,
    });
    expect(third.status).toBe(409);
    expect(third.body.error.code).toBe('slot_unavailable');
    expect(third.body.error.message).toBe(
      '10:00 America/New_York is taken: every crew member who could do this job is booked then ' +
        "(with 30 minutes' travel between jobs), so pick another slot that availability offers.",
    );
    // cancelling frees the crew's time
    await scene.acct.api.post(`/v1/bookings/${first.id}/cancel`);
    expect(await starts('2026-06-08')).toContain('10:00');
    expect(await blocksOf(first.id)).toEqual([]);
  });
});

describe('who gets a new booking', () => {
  it('the least busy crew member free then, ties in the crew’s order', async () => {
    // a Tuesday: Maria Lopez, James Carter and Dmitri Petrov do junk removal in Manhattan
    const date = '2026-07-21';
    const crew = async (time: string) => (await sofaAt(date, time)).crew.map((member: { name: string }) => member.name);
    expect(await crew('09:00')).toEqual(['Maria Lopez']);
    expect(await crew('09:00')).toEqual(['James Carter']);
    // all three are free at 13:00, and Dmitri has nothing booked that day
    expect(await crew('13:00')).toEqual(['Dmitri Petrov']);
    // one booking each: the crew's order decides
    expect(await crew('15:00')).toEqual(['Maria Lopez']);
    // Maria has two now
    expect(await crew('16:00')).toEqual(['James Carter']);
    expect(await scene.overlaps()).toEqual([]);
  });

  it('counts only that day: bookings of the next day do not make someone busier', async () => {
    const names = async (date: string, time: string) =>
      (await sofaAt(date, time)).crew.map((member: { name: string }) => member.name);
    // Wednesday: Maria and James two bookings each, Dmitri one
    const wednesday: string[] = [];
    for (const time of ['09:00', '09:00', '09:00', '13:00', '13:00'])
      wednesday.push(...(await names('2026-08-12', time)));
    expect(wednesday).toEqual(['Maria Lopez', 'James Carter', 'Dmitri Petrov', 'Maria Lopez', 'James Carter']);
    // Tuesday has nobody booked: the crew's order decides, whatever Wednesday holds
    expect(await names('2026-08-11', '09:00')).toEqual(['Maria Lopez']);
  });
});

describe('reschedule', () => {
  it('into a taken slot fails and leaves the booking as it was', async () => {
    await sofaAt('2026-06-15', '10:00');
    await sofaAt('2026-06-15', '10:00');
    const moving = await sofaAt('2026-06-15', '14:00');
    const blocksBefore = await blocksOf(moving.id);
    clock.advance(1000);
    const res = await scene.acct.api.patch(`/v1/bookings/${moving.id}`, { scheduled_at: '2026-06-15T14:00:00.000Z' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'slot_unavailable', param: 'scheduled_at' });
    expect(res.body.error.message).toMatch(/^10:00 America\/New_York is taken: /);
    const after = (await scene.acct.api.get(`/v1/bookings/${moving.id}`)).body;
    expect(after).toEqual(moving);
    expect(await blocksOf(moving.id)).toEqual(blocksBefore);
  });

  it('re-checks availability, keeps the crew when free and frees the old time', async () => {
    const booking = await sofaAt('2026-06-22', '09:00');
    const [crew] = booking.assigned_crew;
    clock.advance(1000);
    const newTime = await scene.slotAt('junk-removal', '2026-06-22', '15:00', 20);
    const res = await scene.acct.api.patch(`/v1/bookings/${booking.id}`, { scheduled_at: newTime });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ scheduled_at: newTime, assigned_crew: [crew], status: 'confirmed' });
    expect(res.body.timeline.at(-1)).toMatchObject({
      status: 'confirmed',
      note: expect.stringContaining('Rescheduled'),
    });
    expect(await blocksOf(booking.id)).toEqual([
      { staff_id: crew, lower: expect.stringContaining('2026-06-22 19:00') },
    ]);
    // 09:00 is free again for both crew members
    const blocked = await sofaAt('2026-06-22', '09:00');
    await sofaAt('2026-06-22', '09:00');
    expect(blocked.assigned_crew).toHaveLength(1);

    // a bigger job at the same time re-prices and still fits
    clock.advance(1000);
    const bigger = await scene.acct.api.patch(`/v1/bookings/${booking.id}`, {
      configuration: { items: [{ product_id: scene.catalog.products['junk-removal']!.Sofa!, quantity: 3 }] },
    });
    expect(bigger.status).toBe(200);
    expect(bigger.body.estimated_duration).toBe(60);
    expect(bigger.body.pricing.base_price).toBe(3 * 8900);
    const events = await query<{ type: string }>(
      scene.t.database.sql,
      sql`select type from events where body::jsonb->'data'->'object'->>'id' = ${booking.id} order by created_at, id`,
    );
    expect(events.map((e) => e.type)).toEqual(['booking.created', 'booking.rescheduled', 'booking.updated']);
    expect(await scene.overlaps()).toEqual([]);
  });

  it('refuses a slot the new duration does not fit', async () => {
    const booking = await sofaAt('2026-06-23', '17:00');
    // 17:00 + 80 min passes closing at 18:00
    const res = await scene.acct.api.patch(`/v1/bookings/${booking.id}`, {
      configuration: { items: [{ product_id: scene.catalog.products['junk-removal']!.Sofa!, quantity: 4 }] },
    });
    expect(res.status).toBe(409);
    expect((await scene.acct.api.get(`/v1/bookings/${booking.id}`)).body.estimated_duration).toBe(20);
  });
});

describe('cancellation', () => {
  it('is free 24 h or more ahead, 50 % later, 100 % in progress; a fee makes a pending invoice', async () => {
    clock.set(START);
    const early = await sofaAt('2026-06-24', '10:00');
    const late = await sofaAt('2026-06-24', '11:00');
    const running = await sofaAt('2026-06-24', '12:00');
    const free = await scene.acct.api.post(`/v1/bookings/${early.id}/cancel`, { reason: 'Changed plans' });
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({
      status: 'cancelled',
      cancellation: {
        reason: 'Changed plans',
        notify_customer: false,
        cancelled_at: clock.now().toISOString(),
        fee: { amount: 0, policy: 'free_cancellation', invoice_id: null },
      },
      invoices: [],
    });

    clock.set('2026-06-24T05:00:00Z'); // 10 h before 11:00 in New York
    const fee = await scene.acct.api.post(`/v1/bookings/${late.id}/cancel`, { notify_customer: true });
    const half = Math.round(late.pricing.total / 2);
    expect(fee.body.cancellation.fee).toMatchObject({ amount: half, policy: 'late_cancellation' });
    expect(fee.body.invoices).toEqual([
      { id: fee.body.cancellation.fee.invoice_id, number: expect.any(String), status: 'pending', total: half },
    ]);
    const invoice = (await scene.acct.api.get(`/v1/invoices/${fee.body.cancellation.fee.invoice_id}`)).body;
    expect(invoice).toMatchObject({ booking_id: late.id, status: 'pending', total: half });
    const mail = await query<{ to_address: string; kind: string; text_body: string }>(
      scene.t.database.sql,
      sql`select to_address, kind, text_body from emails where account_id = ${scene.acct.accountId} and kind = 'booking_cancelled'`,
    );
    expect(mail).toEqual([
      { to_address: late.customer.email, kind: 'booking_cancelled', text_body: expect.any(String) },
    ]);

    await scene.acct.api.post(`/v1/bookings/${running.id}/start`);
    const full = await scene.acct.api.post(`/v1/bookings/${running.id}/cancel`);
    expect(full.body.cancellation.fee).toMatchObject({ amount: running.pricing.total, policy: 'in_progress' });
    for (const booking of [early, late, running]) {
      const { stored, counted } = await scene.statsAndRecount(booking.customer.id);
      expect(stored).toEqual(counted);
      expect(stored.total_bookings).toBe(0);
    }
    clock.set(START);
  });
});

describe('recurring service', () => {
  it('completing an occurrence books the next one at the same local time', async () => {
    clock.set(START);
    const customer = await scene.customer();
    await addCard(scene.acct.api, customer.id);
    const first = await sofaAt('2026-06-29', '10:00', 'weekly', customer);
    expect(first.subscription).toMatchObject({ frequency: 'weekly', status: 'active' });
    expect((await scene.acct.api.get(`/v1/customers/${customer.id}`)).body.stats.active_subscription).toBe(true);
    clock.advance(1000);
    const done = await scene.acct.api.post(`/v1/bookings/${first.id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.invoices[0]).toMatchObject({ status: 'paid', total: first.pricing.total });
    const list = (await scene.acct.api.get(`/v1/customers/${customer.id}/bookings?status=confirmed`)).body.data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      subscription_id: first.subscription_id,
      scheduled_at: '2026-07-06T14:00:00.000Z',
      assigned_crew: first.assigned_crew,
      service: first.service,
      coupon_code: null,
    });
    const { stored, counted } = await scene.statsAndRecount(customer.id);
    expect(stored).toEqual(counted);
    expect(stored).toMatchObject({ total_bookings: 2, active_subscription: true });
  });

  it('takes the nearest free slot that day, else marks the subscription needs_attention', async () => {
    clock.set(START);
    const customer = await scene.customer();
    const first = await sofaAt('2026-06-30', '10:00', 'bi-weekly', customer);
    // two weeks on, 10:00 is taken by all three Tuesday crew members
    for (let i = 0; i < 3; i++) await sofaAt('2026-07-14', '10:00');
    await scene.acct.api.post(`/v1/bookings/${first.id}/complete`);
    const [next] = (await scene.acct.api.get(`/v1/customers/${customer.id}/bookings?status=confirmed`)).body.data;
    // 09:00 (busy until 09:50) and 11:00 are equally near: the earlier one
    expect(next.scheduled_at).toBe('2026-07-14T13:00:00.000Z');

    // the occurrence after that: block every crew member all day
    const crew = await query<{ id: string }>(
      scene.t.database.sql,
      sql`select s.id from staff s where s.account_id = ${scene.acct.accountId} and s.environment = 'test'`,
    );
    for (const member of crew) {
      await blockCrewTime(scene.t.app.deps, scene.acct.tenant(), {
        staffId: member.id,
        bookingId: null,
        start: new Date('2026-07-28T04:00:00Z'),
        end: new Date('2026-07-29T04:00:00Z'),
      });
    }
    const done = await scene.acct.api.post(`/v1/bookings/${next.id}/complete`);
    expect(done.body.subscription).toMatchObject({ status: 'needs_attention' });
    expect((await scene.acct.api.get(`/v1/customers/${customer.id}/bookings?status=confirmed`)).body.data).toEqual([]);
    expect((await scene.acct.api.get(`/v1/customers/${customer.id}`)).body.stats.active_subscription).toBe(false);
  });

  it('cancelling the open occurrence ends the subscription', async () => {
    clock.set(START);
    const customer = await scene.customer();
    const first = await sofaAt('2026-07-01', '10:00', 'monthly', customer);
    const cancelled = await scene.acct.api.post(`/v1/bookings/${first.id}/cancel`);
    expect(cancelled.body.subscription).toMatchObject({ status: 'cancelled' });
    expect((await scene.acct.api.get(`/v1/customers/${customer.id}`)).body.stats.active_subscription).toBe(false);
    const counts = await scene.countsAndRecount();
    expect(counts.stored).toEqual(counts.counted);
  });

  it('completion without a card leaves the invoice pending', async () => {
    clock.set(START);
    const booking = await sofaAt('2026-07-02', '10:00');
    const done = await scene.acct.api.post(`/v1/bookings/${booking.id}/complete`);
    expect(done.body.invoices).toEqual([expect.objectContaining({ status: 'pending', total: booking.pricing.total })]);
  });
});
