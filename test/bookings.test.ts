// Bookings over HTTP on the demo catalog: each configuration type end to end, the status rules
// and their 409s, validation, stats, and the lists.
import { describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount } from './helpers/app.ts';
import { addCard, eventsOf } from './helpers/billing.ts';
import { configurations, customerWithAddress, mondayInNewYork, sofaPickup } from './helpers/bookings.ts';

const scene = mondayInNewYork();
const { clock } = scene;

async function timesRedeemed(code: string) {
  const [row] = await query<{ times_redeemed: number }>(
    scene.t.database.sql,
    sql`select times_redeemed from coupons where account_id = ${scene.acct.accountId} and environment = 'test' and code = ${code}`,
  );
  return row?.times_redeemed ?? -1;
}

/** A confirmed sofa pickup on `date` at `time` (local, Manhattan). */
async function sofaBooking(date = '2026-06-03', time = '10:00', customer?: { id: string; addressId: string }) {
  const who = customer ?? (await scene.customer());
  const res = await scene.book({
    customer_id: who.id,
    address_id: who.addressId,
    industry: 'junk-removal',
    configuration: scene.sofa(),
    scheduled_at: await scene.slotAt('junk-removal', date, time, 20),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe('each configuration type, end to end', () => {
  for (const industry of ['residential-cleaning', 'junk-removal', 'carpet-cleaning'] as const) {
    it(`${industry}: priced as the pricing endpoint, crewed, started, completed with a paid invoice`, async () => {
      const customer = await scene.customer();
      await addCard(scene.acct.api, customer.id);
      const configuration = configurations(scene.catalog)[industry];
      const quote = await scene.acct.api.post('/v1/services/pricing', {
        industry,
        zip: '10001',
        configuration,
        coupon_code: 'WELCOME10',
      });
      expect(quote.status).toBe(200);
      const before = await timesRedeemed('WELCOME10');
      const scheduledAt = await scene.slotAt(industry, '2026-06-02', '09:00', quote.body.estimated_duration);
      const created = await scene.book({
        customer_id: customer.id,
        address_id: customer.addressId,
        industry,
        configuration,
        scheduled_at: scheduledAt,
        notes: 'Ring twice',
        coupon_code: 'WELCOME10',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const booking = created.body;
      expect(booking).toMatchObject({
        object: 'booking',
        status: 'confirmed',
        customer: { id: customer.id, email: customer.email },
        service: { industry, configuration },
        scheduled_at: scheduledAt,
        estimated_duration: quote.body.estimated_duration,
        address: { id: customer.addressId, zip: '10001', city: 'New York' },
        coupon_code: 'WELCOME10',
        notes: 'Ring twice',
        subscription_id: null,
        cancellation: null,
        invoices: [],
      });
      expect(booking.pricing).toEqual(quote.body);
      expect(await timesRedeemed('WELCOME10')).toBe(before + 1);
      expect(booking.assigned_crew).toHaveLength(1);
      expect(booking.crew).toEqual([{ id: booking.assigned_crew[0], name: expect.any(String) }]);
      expect(booking.timeline).toEqual([{ status: 'confirmed', at: clock.now().toISOString(), note: 'Booked' }]);
      expect((await scene.acct.api.get(`/v1/bookings/${booking.id}`)).body).toEqual(booking);

      clock.advance(1000); // events are ordered by time
      const started = await scene.acct.api.post(`/v1/bookings/${booking.id}/start`);
      expect(started.status).toBe(200);
      expect(started.body.status).toBe('in_progress');
      clock.advance(1000);
      const completed = await scene.acct.api.post(`/v1/bookings/${booking.id}/complete`, {});
      expect(completed.status).toBe(200);
      expect(completed.body.status).toBe('completed');
      const timeline = completed.body.timeline.map((e: { status: string }) => e.status);
      expect(timeline).toEqual(['confirmed', 'in_progress', 'completed']);
      expect(completed.body.invoices).toEqual([
        {
          id: expect.stringMatching(/^inv_/),
          number: expect.stringMatching(/^INV-/),
          status: 'paid',
          total: quote.body.total,
        },
      ]);
      const invoice = (await scene.acct.api.get(`/v1/invoices/${completed.body.invoices[0].id}`)).body;
      expect(invoice).toMatchObject({
        booking_id: booking.id,
        subtotal: quote.body.subtotal,
        discount: quote.body.discount,
        tax: quote.body.tax,
        total: quote.body.total,
        amount_paid: quote.body.total,
        payment_method: { type: 'card', last4: '4242' },
      });
      expect(invoice.line_items.reduce((sum: number, line: { total: number }) => sum + line.total, 0)).toBe(
        quote.body.subtotal,
      );
      const customerNow = (await scene.acct.api.get(`/v1/customers/${customer.id}`)).body;
      expect(customerNow.stats).toEqual({
        total_bookings: 1,
        total_spent: quote.body.total,
        last_booking_at: booking.created_at,
        active_subscription: false,
      });
      const types = (await eventsOf(scene.t, scene.acct))
        .filter((e) => e.type.startsWith('booking.') && e.payload.data.object.id === booking.id)
        .map((e) => e.type);
      expect(types).toEqual(['booking.created', 'booking.started', 'booking.completed']);
      const [createdEvent] = (await eventsOf(scene.t, scene.acct)).filter(
        (e) => e.type === 'booking.created' && e.payload.data.object.id === booking.id,
      );
      expect(createdEvent?.payload.data.object).toEqual(booking);
    });
  }

  it('an Idempotency-Key replays the booking and the coupon is redeemed once', async () => {
    const customer = await scene.customer();
    const before = await timesRedeemed('SAVE20');
    const body = {
      customer_id: customer.id,
      address_id: customer.addressId,
      industry: 'junk-removal',
      configuration: scene.sofa(),
      scheduled_at: await scene.slotAt('junk-removal', '2026-06-02', '13:00', 20),
      coupon_code: 'SAVE20',
    };
    const first = await scene.book(body, { 'idempotency-key': `bk-${customer.id}` });
    const second = await scene.book(body, { 'idempotency-key': `bk-${customer.id}` });
    expect(first.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    expect(await timesRedeemed('SAVE20')).toBe(before + 1);
  });
});

describe('status rules', () => {
  it('refuses every transition the contract does not allow with 409 invalid_state_transition', async () => {
    const expect409 = async (path: string, body?: unknown, method: 'post' | 'patch' = 'post') => {
      const res = await scene.acct.api[method](path, body ?? {});
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_state_transition' });
    };
    const inProgress = await sofaBooking('2026-06-04', '08:00');
    await scene.acct.api.post(`/v1/bookings/${inProgress.id}/start`);
    await expect409(`/v1/bookings/${inProgress.id}/start`);
    await expect409(`/v1/bookings/${inProgress.id}`, { notes: 'x' }, 'patch');

    const completed = await sofaBooking('2026-06-04', '09:00');
    expect((await scene.acct.api.post(`/v1/bookings/${completed.id}/complete`)).status).toBe(200);
    for (const action of ['start', 'complete', 'cancel']) await expect409(`/v1/bookings/${completed.id}/${action}`);
    await expect409(`/v1/bookings/${completed.id}`, { notes: 'x' }, 'patch');

    const cancelled = await sofaBooking('2026-06-04', '10:00');
    expect((await scene.acct.api.post(`/v1/bookings/${cancelled.id}/cancel`, { reason: 'moved' })).status).toBe(200);
    for (const action of ['start', 'complete', 'cancel']) await expect409(`/v1/bookings/${cancelled.id}/${action}`);
    await expect409(`/v1/bookings/${cancelled.id}`, { notes: 'x' }, 'patch');
  });

  it('PATCH never changes status: a status field is 400 parameter_unknown', async () => {
    const booking = await sofaBooking('2026-06-04', '11:00');
    const res = await scene.acct.api.patch(`/v1/bookings/${booking.id}`, { status: 'completed' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_unknown', param: 'status' });
    const notes = await scene.acct.api.patch(`/v1/bookings/${booking.id}`, { notes: 'Gate code 1234' });
    expect(notes.status).toBe(200);
    expect(notes.body).toMatchObject({
      status: 'confirmed',
      notes: 'Gate code 1234',
      scheduled_at: booking.scheduled_at,
    });
  });

  it('answers 404 for unknown and foreign ids', async () => {
    const booking = await sofaBooking('2026-06-04', '12:00');
    const other = await createTestAccount(scene.t, { demo: true });
    for (const path of [`/v1/bookings/${booking.id}`, '/v1/bookings/bk_nope']) {
      expect((await other.api.get(path)).status).toBe(404);
      expect((await other.api.post(`${path}/cancel`)).status).toBe(404);
    }
    expect((await scene.acct.live.get(`/v1/bookings/${booking.id}`)).status).toBe(404);
  });
});

describe('creation rules', () => {
  it('checks the customer, the address and the slot', async () => {
    const customer = await scene.customer();
    const stranger = await scene.customer();
    const scheduledAt = await scene.slotAt('junk-removal', '2026-06-05', '10:00', 20);
    const base = {
      customer_id: customer.id,
      address_id: customer.addressId,
      industry: 'junk-removal',
      configuration: scene.sofa(),
      scheduled_at: scheduledAt,
    };
    const missing = await scene.book({ ...base, address_id: undefined });
    expect(missing.body.error).toMatchObject({ code: 'missing_required_field', param: 'address_id' });
    const foreignAddress = await scene.book({ ...base, address_id: stranger.addressId });
    expect(foreignAddress.status).toBe(400);
    expect(foreignAddress.body.error).toMatchObject({ code: 'parameter_invalid', param: 'address_id' });
    const noAddress = await scene.book({ ...base, address_id: 'addr_nope' });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.error).toMatchObject({ code: 'resource_not_found', param: 'address_id' });
    const noCustomer = await scene.book({ ...base, customer_id: 'cust_nope' });
    expect(noCustomer.status).toBe(400);
    expect(noCustomer.body.error).toMatchObject({ code: 'resource_not_found', param: 'customer_id' });
    const offSlot = await scene.book({ ...base, scheduled_at: '2026-06-05T14:30:00.000Z' });
    expect(offSlot.status).toBe(409);
    expect(offSlot.body.error).toMatchObject({ code: 'slot_unavailable' });
    const past = await scene.book({ ...base, scheduled_at: '2026-05-29T14:00:00.000Z' });
    expect(past.body.error?.code).toBe('slot_unavailable');
    const badCoupon = await scene.book({ ...base, coupon_code: 'NOPE' });
    expect(badCoupon.body.error).toMatchObject({ code: 'invalid_coupon', param: 'coupon_code' });
    const badConfig = await scene.book({ ...base, configuration: { bedrooms: 2, bathrooms: 1 } });
    expect(badConfig.status).toBe(400);

    await scene.acct.api.post(`/v1/customers/${customer.id}/deactivate`);
    const deactivated = await scene.book(base);
    expect(deactivated.status).toBe(409);
    expect(deactivated.body.error.code).toBe('customer_deactivated');
    const [count] = await query<{ n: number }>(
      scene.t.database.sql,
      sql`select count(*)::int as n from bookings where customer_id = ${customer.id}`,
    );
    expect(count?.n).toBe(0);
  });

  it('keeps the last address of a customer with open bookings', async () => {
    const customer = await scene.customer();
    const booking = await sofaBooking('2026-06-05', '11:00', customer);
    const removal = await scene.acct.api.delete(`/v1/customers/${customer.id}/addresses/${customer.addressId}`);
    expect(removal.status).toBe(409);
    expect(removal.body.error.code).toBe('address_required');
    await scene.acct.api.post(`/v1/bookings/${booking.id}/cancel`);
    expect((await scene.acct.api.delete(`/v1/customers/${customer.id}/addresses/${customer.addressId}`)).status).toBe(
      204,
    );
  });
});

describe('invoices that name a booking', () => {
  it("takes booking_id only for a booking of this environment and of the invoice's customer", async () => {
    const booking = await sofaBooking('2026-06-04', '11:00');
    const lineItems = [{ description: 'Extra haul', quantity: 1, unit_price: 5000 }];
    const created = await scene.acct.api.post('/v1/invoices', {
      customer_id: booking.customer.id,
      booking_id: booking.id,
      line_items: lineItems,
    });
    expect(created.status).toBe(201);
    expect(created.body.booking_id).toBe(booking.id);
    const detail = await scene.acct.api.get(`/v1/bookings/${booking.id}`);
    expect(detail.body.invoices).toEqual([
      { id: created.body.id, number: created.body.number, status: 'pending', total: 5000 },
    ]);

    const stranger = await scene.customer();
    const otherCustomer = await scene.acct.api.post('/v1/invoices', {
      customer_id: stranger.id,
      booking_id: booking.id,
      line_items: lineItems,
    });
    expect(otherCustomer.status).toBe(400);
    expect(otherCustomer.body.error).toMatchObject({ code: 'parameter_invalid', param: 'booking_id' });

    const liveCustomer = await customerWithAddress(scene.acct.live);
    for (const [api, customerId, bookingId] of [
      [scene.acct.api, booking.customer.id, 'bk_000000000000000000000000'],
      [scene.acct.live, liveCustomer.id, booking.id],
    ] as const) {
      const res = await api.post('/v1/invoices', {
        customer_id: customerId,
        booking_id: bookingId,
        line_items: lineItems,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'resource_not_found', param: 'booking_id' });
    }
    const [{ count }] = (await query<{ count: number }>(
      scene.t.database.sql,
      sql`select count(*)::int as count from invoices where account_id = ${scene.acct.accountId} and customer_id = ${stranger.id}`,
    )) as [{ count: number }];
    expect(count).toBe(0);
  });
});

describe('customer stats', () => {
  it('counts bookings not cancelled, the latest booking time and the subscription', async () => {
    const customer = await scene.customer();
    const first = await sofaBooking('2026-06-05', '13:00', customer);
    clock.advance(60_000);
    const second = await sofaBooking('2026-06-05', '14:00', customer);
    let stats = (await scene.acct.api.get(`/v1/customers/${customer.id}`)).body.stats;
    expect(stats).toMatchObject({ total_bookings: 2, last_booking_at: second.created_at, active_subscription: false });
    await scene.acct.api.post(`/v1/bookings/${second.id}/cancel`);
    stats = (await scene.acct.api.get(`/v1/customers/${customer.id}`)).body.stats;
    expect(stats).toMatchObject({ total_bookings: 1, last_booking_at: first.created_at });
    const weekly = await scene.acct.api.patch(`/v1/bookings/${first.id}`, { configuration: scene.sofa('weekly') });
    expect(weekly.status).toBe(200);
    expect(weekly.body.subscription).toMatchObject({ frequency: 'weekly', status: 'active' });
    expect((await scene.acct.api.get(`/v1/customers/${customer.id}`)).body.stats.active_subscription).toBe(true);
    const listed = await scene.acct.api.get('/v1/customers?has_subscription=true&per_page=100');
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(customer.id);
    await scene.acct.api.patch(`/v1/bookings/${first.id}`, { configuration: scene.sofa('one-time') });
    const { stored, counted } = await scene.statsAndRecount(customer.id);
    expect(stored).toEqual(counted);
    expect(stored.active_subscription).toBe(false);
  });
});

describe('lists', () => {
  it("filters by status, customer, zone and scheduled date, sorts, and lists a customer's bookings", async () => {
    const other = await createTestAccount(scene.t, { demo: true });
    const customer = await customerWithAddress(other.api);
    const sf = await customerWithAddress(other.api, '94107');
    const make = async (who: { id: string; addressId: string }, date: string, time: string, zip = '10001') => {
      const booking = await sofaPickup(other.api, date, { time, zip, customer: who });
      clock.advance(1000);
      return booking;
    };
    const a = await make(customer, '2026-06-10', '10:00');
    const b = await make(customer, '2026-06-08', '10:00');
    const c = await make(sf, '2026-06-09', '10:00', '94107');
    await other.api.post(`/v1/bookings/${b.id}/cancel`);
    const ids = async (q: string) =>
      (await other.api.get(`/v1/bookings${q}`)).body.data.map((x: { id: string }) => x.id);

    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?sort=scheduled_at')).toEqual([b.id, c.id, a.id]);
    expect(await ids('?sort=-scheduled_at')).toEqual([a.id, c.id, b.id]);
    expect(await ids('?sort=created_at')).toEqual([a.id, b.id, c.id]);
    expect(await ids('?status=cancelled')).toEqual([b.id]);
    expect(await ids(`?customer_id=${sf.id}`)).toEqual([c.id]);
    expect(await ids(`?zone_id=${c.zone_id}`)).toEqual([c.id]);
    expect(await ids('?date_from=2026-06-09&date_to=2026-06-09')).toEqual([c.id]);
    expect(await ids('?date_from=2026-06-09')).toEqual([c.id, a.id]);
    expect(await ids(`?ids=${a.id},${c.id}`)).toEqual([c.id, a.id]);
    const page = await other.api.get('/v1/bookings?per_page=2&page=2');
    expect(page.body.pagination).toEqual({ page: 2, per_page: 2, total: 3, total_pages: 2 });
    expect(page.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const sparse = await other.api.get('/v1/bookings?fields=id,pricing.total&per_page=1');
    expect(sparse.body.data).toEqual([{ id: c.id, pricing: { total: c.pricing.total } }]);
    expect((await other.api.get('/v1/bookings?status=done')).status).toBe(400);
    expect((await other.api.get('/v1/bookings?per_page=101')).status).toBe(400);

    const mine = await other.api.get(`/v1/customers/${customer.id}/bookings?sort=scheduled_at`);
    expect(mine.body.data.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    expect(mine.body.data[0]).not.toHaveProperty('timeline');
    expect((await other.api.get(`/v1/customers/${customer.id}/bookings?status=confirmed`)).body.pagination.total).toBe(
      1,
    );
    expect((await other.api.get('/v1/customers/cust_nope/bookings')).status).toBe(404);
    expect((await scene.acct.api.get(`/v1/customers/${customer.id}/bookings`)).status).toBe(404);
  });
});
