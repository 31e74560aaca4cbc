import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { constraintViolated, query, sql } from '../src/core/db.ts';
import { inTransaction } from '../src/core/deps.ts';
import { findOfferedSlot, freeStaffForSlot } from '../src/modules/availability/index.ts';
import {
  blockCrewTime,
  type CatalogFile,
  exportCatalog,
  importCatalog,
  loadSchedulingContext,
  redeemCoupon,
  STAFF_OVERLAP_CONSTRAINT,
} from '../src/modules/catalog/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';

const clock = new ManualClock('2026-03-01T12:00:00Z');
let t: TestApp;
let demo: TestAccount;
let custom: TestAccount;

const DAY = { open: '08:00', close: '18:00' };
const EVERY_DAY = { monday: DAY, tuesday: DAY, wednesday: DAY, thursday: DAY, friday: DAY, saturday: DAY, sunday: DAY };
const NIGHT = { open: '00:00', close: '06:00' };

// A catalog open every day (DST changes happen on Sundays) and a night zone spanning the change.
const CUSTOM: CatalogFile = {
  format: 'fieldhand-catalog/1',
  settings: {
    frequency_discounts: {},
    cancellation_policy: {
      free_cancellation_hours: 24,
      late_cancellation_fee_percent: 50,
      in_progress_fee_percent: 100,
    },
  },
  industries: [
    {
      slug: 'junk-removal',
      name: 'Junk Removal',
      configuration_type: 'item_based',
      categories: [
        { slug: 'items', name: 'Items', products: [{ slug: 'sofa', name: 'Sofa', base_price: 8900, minutes: 20 }] },
      ],
      extras: [],
    },
  ],
  zones: [
    {
      name: 'Queens',
      timezone: 'America/New_York',
      zips: ['11101'],
      industries: ['junk-removal'],
      hours: EVERY_DAY,
      slot_interval_minutes: 60,
      travel_buffer_minutes: 30,
      lead_time_minutes: 120,
      price_adjustment_percent: 0,
      tax_rate: 0,
    },
    {
      name: 'Night shift',
      timezone: 'America/New_York',
      zips: ['11102'],
      industries: ['junk-removal'],
      hours: { sunday: NIGHT },
      slot_interval_minutes: 60,
      travel_buffer_minutes: 0,
      lead_time_minutes: 0,
      price_adjustment_percent: 0,
      tax_rate: 0,
    },
  ],
  staff: [
    {
      name: 'Day crew',
      zones: ['Queens'],
      industries: ['junk-removal'],
      hours: { ...EVERY_DAY, monday: { open: '08:00', close: '15:00' } },
    },
    { name: 'Night crew', zones: ['Night shift'], industries: ['junk-removal'], hours: { sunday: NIGHT } },
  ],
  coupons: [{ code: 'TWICE', amount_off: 500, max_redemptions: 2 }],
};

beforeAll(async () => {
  t = await startTestApp({ clock });
  demo = await createTestAccount(t, { demo: true });
  custom = await createTestAccount(t);
  await importCatalog(t.app.deps, custom.tenant(), JSON.stringify(CUSTOM));
});
afterAll(() => t.close());

const availability = (acct: TestAccount, zip: string, date: string, extra = '') =>
  acct.api.get(`/v1/services/availability?zip=${zip}&industry=junk-removal&date=${date}${extra}`);

async function staffOf(acct: TestAccount, zoneName: string, industry = 'junk-removal') {
  const rows = await query<{ id: string; name: string }>(
    t.database.sql,
    sql`select s.id, s.name from staff s join staff_zones sz on sz.staff_id = s.id join zones z on z.id = sz.zone_id
        where s.account_id = ${acct.accountId} and s.environment = 'test' and z.name = ${zoneName}
          and ${industry} = any(s.industries) order by s.position`,
  );
  return rows;
}

async function block(acct: TestAccount, staffId: string, start: string, end: string, bookingId: string | null = null) {
  await blockCrewTime(t.app.deps, acct.tenant(), {
    staffId,
    bookingId,
    start: new Date(start),
    end: new Date(end),
  });
}

describe('availability across DST changes', () => {
  it('keeps local opening hours when the UTC offset changes', async () => {
    const first = async (date: string) => (await availability(custom, '11101', date)).body.available_slots[0];
    expect(await first('2026-03-07')).toMatchObject({ start: '08:00', starts_at: '2026-03-07T13:00:00.000Z' });
    expect(await first('2026-03-08')).toMatchObject({ start: '08:00', starts_at: '2026-03-08T12:00:00.000Z' });
    expect(await first('2026-10-31')).toMatchObject({ start: '08:00', starts_at: '2026-10-31T12:00:00.000Z' });
    expect(await first('2026-11-01')).toMatchObject({ start: '08:00', starts_at: '2026-11-01T13:00:00.000Z' });
  });

  it('skips the hour the clock jumps over, and offers the repeated hour once', async () => {
    const spring = await availability(custom, '11102', '2026-03-08', '&duration=60');
    expect(spring.body.available_slots.map((s: { label: string }) => s.label)).toEqual([
      '12:00 AM - 1:00 AM',
      '1:00 AM - 3:00 AM',
      '3:00 AM - 4:00 AM',
      '4:00 AM - 5:00 AM',
      '5:00 AM - 6:00 AM',
    ]);
    const fall = await availability(custom, '11102', '2026-11-01', '&duration=60');
    const starts = fall.body.available_slots.map((s: { start: string }) => s.start);
    expect(starts).toEqual(['00:00', '01:00', '02:00', '03:00', '04:00', '05:00']);
    expect(fall.body.available_slots[1]).toMatchObject({
      starts_at: '2026-11-01T05:00:00.000Z',
      label: '1:00 AM - 1:00 AM',
    });
  });
});

describe('availability rules', () => {
  it('ends the last job by closing time, zone hours and crew hours alike', async () => {
    const starts = async (date: string, extra: string) =>
      (await availability(custom, '11101', date, extra)).body.available_slots.map((s: { start: string }) => s.start);
    expect((await starts('2026-03-10', '')).at(-1)).toBe('16:00');
    expect((await starts('2026-03-10', '&duration=121')).at(-1)).toBe('15:00');
    expect(await starts('2026-03-10', '&duration=600')).toEqual(['08:00']);
    const none = await availability(custom, '11101', '2026-03-10', '&duration=601');
    expect(none.body).toMatchObject({ available_slots: [], fully_booked: true });
    // the only crew member stops at 15:00 on Mondays
    expect((await starts('2026-03-09', '')).at(-1)).toBe('13:00');
  });

  it('works around a crew member busy for part of the day, travel buffer included', async () => {
    const crew = await staffOf(demo, 'Manhattan');
    expect(crew.map((c) => c.name)).toEqual(['Maria Lopez', 'James Carter', 'Dmitri Petrov']);
    // 2026-06-02 is a Tuesday (EDT): a job 10:00-12:00 local for everyone, + 30 min buffer
    for (const member of crew)
      await block(demo, member.id, '2026-06-02T14:00:00Z', '2026-06-02T16:30:00Z', `bk_${member.name}`);
    const res = await availability(demo, '10001', '2026-06-02');
    // 08:00 would end at 10:00 and its buffer overlap; 12:00 starts inside the other job's buffer
    expect(res.body.available_slots.map((s: { start: string }) => s.start)).toEqual([
      '13:00',
      '14:00',
      '15:00',
      '16:00',
    ]);
    const shorter = await availability(demo, '10001', '2026-06-02', '&duration=90');
    expect(shorter.body.available_slots.map((s: { start: string }) => s.start)[0]).toBe('08:00'); // 08:00-09:30 +30 = 10:00
    // other industries in the zone are served by other crews
    const cleaning = await demo.api.get(
      '/v1/services/availability?zip=10001&industry=residential-cleaning&date=2026-06-02',
    );
    expect(cleaning.body.available_slots).toHaveLength(9);
  });

  it('is fully booked when every crew member is busy all day', async () => {
    const crew = await staffOf(demo, 'San Francisco');
    for (const member of crew) await block(demo, member.id, '2026-06-03T14:00:00Z', '2026-06-04T02:00:00Z');
    const res = await availability(demo, '94107', '2026-06-03');
    expect(res.body).toMatchObject({ zone: { name: 'San Francisco' }, available_slots: [], fully_booked: true });
  });
});

describe('what bookings reuse', () => {
  it('loads the context for an instant, finds the offered slot and the free crew', async () => {
    const tenant = demo.tenant();
    const startsAt = new Date('2026-06-02T17:00:00Z'); // 13:00 in New York
    const crew = await staffOf(demo, 'Manhattan');
    await inTransaction(t.app.deps, async (deps) => {
      const context = await loadSchedulingContext(deps, tenant, {
        zip: '10003',
        industry: 'junk-removal',
        at: startsAt,
      });
      expect(context.date).toBe('2026-06-02');
      expect(context.zone?.name).toBe('Manhattan');
      const input = {
        date: context.date!,
        zone: context.zone!,
        staff: context.staff,
        booked: context.booked,
        durationMinutes: 120,
      };
      expect(findOfferedSlot({ ...input, now: clock.now(), startsAt })).toMatchObject({ start: '13:00', end: '15:00' });
      expect(
        findOfferedSlot({ ...input, now: clock.now(), startsAt: new Date('2026-06-02T17:30:00Z') }),
      ).toBeUndefined();
      expect(freeStaffForSlot({ ...input, startsAt })).toEqual(crew.map((c) => c.id));
      // every member is booked at 10:00 (the test's blocks), and a rescheduled booking frees its
      // own time before the hold weighs the rest (bookings-scheduling.test.ts)
      const busy = { ...input, startsAt: new Date('2026-06-02T14:00:00Z') };
      expect(freeStaffForSlot(busy)).toEqual([]);
    });
  });

  it('refuses overlapping time for one crew member in the database', async () => {
    const [member] = await staffOf(custom, 'Queens');
    await block(custom, member!.id, '2026-03-10T13:00:00Z', '2026-03-10T15:30:00Z');
    const overlap = await block(custom, member!.id, '2026-03-10T15:00:00Z', '2026-03-10T17:00:00Z').catch((e) => e);
    expect(constraintViolated(overlap, STAFF_OVERLAP_CONSTRAINT)).toBe(true);
    await block(custom, member!.id, '2026-03-10T15:30:00Z', '2026-03-10T17:00:00Z'); // back to back is fine
  });

  it('counts coupon redemptions without passing max_redemptions, even concurrently', async () => {
    const tenant = custom.tenant();
    const [coupon] = await query<{ id: string }>(
      t.database.sql,
      sql`select id from coupons where account_id = ${tenant.accountId} and environment = 'test' and code = 'TWICE'`,
    );
    const results = await Promise.all(
      Array.from({ length: 5 }, () => inTransaction(t.app.deps, (deps) => redeemCoupon(deps, tenant, coupon!.id))),
    );
    expect(results.filter(Boolean)).toHaveLength(2);
    const priced = await custom.api.post('/v1/services/pricing', {
      industry: 'junk-removal',
      configuration: {
        items: [
          { product_id: (await exportCatalog(t.app.deps, tenant)).industries[0]!.categories[0]!.products[0]!.id },
        ],
      },
      coupon_code: 'TWICE',
    });
    expect(priced.body.error).toMatchObject({ code: 'invalid_coupon', param: 'coupon_code' });
  });
});
