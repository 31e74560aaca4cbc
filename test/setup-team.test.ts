// Crew and time off through the API (CONTRACT §11): the objects, filters, members in use, time
// off sharing one exclusion constraint with bookings, availability reading it live, isolation.
import { describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount } from './helpers/app.ts';
import { mondayInNewYork, sofaPickup } from './helpers/bookings.ts';
import { createStaff, createZone, MON_SAT, NO_DAYS } from './helpers/setup.ts';

const scene = mondayInNewYork();

const MONDAY = '2026-06-08';
// 10:00 to 10:20 in New York on MONDAY
const TEN = '2026-06-08T14:00:00.000Z';

async function slotStarts(zip: string, date = MONDAY) {
  const res = await scene.acct.api.get(
    `/v1/services/availability?zip=${zip}&industry=junk-removal&date=${date}&duration=20`,
  );
  expect(res.status).toBe(200);
  return (res.body.available_slots as { start: string }[]).map((slot) => slot.start);
}

/** A zone with one crew member, and `bookAt` to book that zone's customer a sofa pickup. */
async function crewedZone() {
  const zone = await createZone(scene.acct.api);
  const member = await createStaff(scene.acct.api, [zone.id]);
  const zip = zone.zips[0] as string;
  const customer = await scene.customer(zip);
  const bookAt = (scheduledAt: string) =>
    scene.book({
      customer_id: customer.id,
      address_id: customer.addressId,
      industry: 'junk-removal',
      configuration: scene.sofa(),
      scheduled_at: scheduledAt,
    });
  return { zone, member, zip, customer, bookAt };
}

/** A crewed zone with a confirmed booking at 10:00 on MONDAY. */
async function bookedZone() {
  const crewed = await crewedZone();
  return {
    ...crewed,
    booking: await sofaPickup(scene.acct.api, MONDAY, { zip: crewed.zip, customer: crewed.customer }),
  };
}

describe('staff', () => {
  it('creates, reads and updates a crew member', async () => {
    const zone = await createZone(scene.acct.api);
    const res = await scene.acct.api.post('/v1/staff', {
      name: 'Nia Okafor',
      email: 'nia@example.com',
      phone: '+12125550100',
      zones: [zone.id],
      industries: ['junk-removal', 'carpet-cleaning'],
      hours: { monday: { open: '09:00', close: '17:00' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^staff_[0-9A-Za-z]{24}$/),
      object: 'staff',
      name: 'Nia Okafor',
      email: 'nia@example.com',
      phone: '+12125550100',
      zones: [zone.id],
      industries: ['junk-removal', 'carpet-cleaning'],
      hours: { ...NO_DAYS, monday: { open: '09:00', close: '17:00' } },
      status: 'active',
      created_at: '2026-06-01T12:00:00.000Z',
      updated_at: '2026-06-01T12:00:00.000Z',
    });
    expect((await scene.acct.api.get(`/v1/staff/${res.body.id}`)).body).toEqual(res.body);
    const patched = await scene.acct.api.patch(`/v1/staff/${res.body.id}`, { phone: null, status: 'inactive' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ phone: null, status: 'inactive', name: 'Nia Okafor' });
  });

  it('refuses bad input with the field named', async () => {
    const zone = await createZone(scene.acct.api);
    const refused = async (body: Record<string, unknown>, status: number, param: string) => {
      const res = await scene.acct.api.post('/v1/staff', {
        name: 'X',
        zones: [zone.id],
        industries: ['junk-removal'],
        hours: MON_SAT,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.param).toBe(param);
    };
    await refused({ zones: ['zone_nope'] }, 400, 'zones');
    await refused({ industries: ['window-washing'] }, 400, 'industries');
    await refused({ hours: { friday: { open: '17:00', close: '09:00' } } }, 400, 'hours.friday');
    await refused({ email: 'not-an-email' }, 400, 'email');
    await refused({ status: 'away' }, 400, 'status');
    await refused({ name: '' }, 400, 'name');
  });

  it('lists crew with filters, pagination, fields and ids', async () => {
    const zone = await createZone(scene.acct.api);
    const a = await createStaff(scene.acct.api, [zone.id]);
    scene.clock.set('2026-06-01T12:00:01Z');
    const b = await createStaff(scene.acct.api, [zone.id], { industries: ['carpet-cleaning'], status: 'inactive' });
    scene.clock.set('2026-06-01T12:00:00Z');
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((s) => s.id);
    expect(ids(await scene.acct.api.get(`/v1/staff?zone_id=${zone.id}`))).toEqual([b.id, a.id]);
    expect(ids(await scene.acct.api.get(`/v1/staff?zone_id=${zone.id}&industry=junk-removal`))).toEqual([a.id]);
    expect(ids(await scene.acct.api.get(`/v1/staff?zone_id=${zone.id}&status=inactive`))).toEqual([b.id]);
    const page = await scene.acct.api.get(`/v1/staff?zone_id=${zone.id}&per_page=1&page=2&fields=id,status`);
    expect(page.body).toEqual({
      data: [{ id: a.id, status: 'active' }],
      pagination: { page: 2, per_page: 1, total: 2, total_pages: 2 },
    });
    expect(ids(await scene.acct.api.get(`/v1/staff?ids=${b.id}`))).toEqual([b.id]);
    const demo = await scene.acct.api.get('/v1/staff?per_page=100');
    expect(demo.body.data.map((s: { name: string }) => s.name)).toContain('Maria Lopez');
    expect((await scene.acct.api.get('/v1/staff?status=away')).status).toBe(400);
  });

  it('refuses to delete, deactivate or change a member away from a booking still to do', async () => {
    const { member, booking, zone } = await bookedZone();
    expect(booking.assigned_crew).toEqual([member.id]);
    const inUse = async (res: { status: number; body: any }, param?: string) => {
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.code).toBe('resource_in_use');
      expect(res.body.error.message).toContain(booking.id);
      if (param) expect(res.body.error.param).toBe(param);
    };
    await inUse(await scene.acct.api.delete(`/v1/staff/${member.id}`));
    await inUse(await scene.acct.api.patch(`/v1/staff/${member.id}`, { status: 'inactive' }), 'status');
    await inUse(await scene.acct.api.patch(`/v1/staff/${member.id}`, { hours: { ...MON_SAT, monday: null } }), 'hours');
    const afternoon = { ...MON_SAT, monday: { open: '12:00', close: '18:00' } };
    await inUse(await scene.acct.api.patch(`/v1/staff/${member.id}`, { hours: afternoon }), 'hours');
    await inUse(await scene.acct.api.patch(`/v1/staff/${member.id}`, { zones: [] }), 'zones');
    await inUse(
      await scene.acct.api.patch(`/v1/staff/${member.id}`, { industries: ['carpet-cleaning'] }),
      'industries',
    );
    // changes that keep the booking inside their work are fine
    const morning = { ...MON_SAT, monday: { open: '10:00', close: '10:20' } };
    expect((await scene.acct.api.patch(`/v1/staff/${member.id}`, { hours: morning })).status).toBe(200);
    const wider = { zones: [zone.id], industries: ['junk-removal', 'carpet-cleaning'], phone: '+12125550111' };
    expect((await scene.acct.api.patch(`/v1/staff/${member.id}`, wider)).status).toBe(200);
    // once the booking is cancelled the member can go; bookings keep the id
    expect((await scene.acct.api.post(`/v1/bookings/${booking.id}/cancel`, {})).status).toBe(200);
    expect((await scene.acct.api.delete(`/v1/staff/${member.id}`)).status).toBe(204);
    expect((await scene.acct.api.get(`/v1/staff/${member.id}`)).status).toBe(404);
    expect((await scene.acct.api.patch(`/v1/staff/${member.id}`, { name: 'Back' })).status).toBe(404);
    expect((await scene.acct.api.get(`/v1/staff/${member.id}/time_off`)).status).toBe(404);
    expect((await scene.acct.api.get(`/v1/bookings/${booking.id}`)).body.assigned_crew).toEqual([member.id]);
    const list = await scene.acct.api.get(`/v1/staff?zone_id=${zone.id}`);
    expect(list.body.data).toEqual([]);
  });
});

describe('time off', () => {
  it('is refused over a booking, naming it, and allowed around it', async () => {
    const { member, booking } = await bookedZone();
    const over = await scene.acct.api.post(`/v1/staff/${member.id}/time_off`, {
      starts_at: '2026-06-08T13:00:00Z',
      ends_at: '2026-06-08T15:00:00Z',
      reason: 'Dentist',
    });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'resource_in_use', param: 'starts_at' });
    expect(over.body.error.message).toContain(booking.id);
    const after = await scene.acct.api.post(`/v1/staff/${member.id}/time_off`, {
      starts_at: '2026-06-08T15:00:00Z',
      ends_at: '2026-06-08T22:00:00Z',
      reason: 'Dentist',
    });
    expect(after.status).toBe(201);
    expect(after.body).toEqual({
      id: expect.stringMatching(/^toff_[0-9A-Za-z]{24}$/),
      object: 'time_off',
      staff_id: member.id,
      starts_at: '2026-06-08T15:00:00.000Z',
      ends_at: '2026-06-08T22:00:00.000Z',
      reason: 'Dentist',
      created_at: '2026-06-01T12:00:00.000Z',
    });
    const twice = await scene.acct.api.post(`/v1/staff/${member.id}/time_off`, {
      starts_at: '2026-06-08T16:00:00Z',
      ends_at: '2026-06-08T17:00:00Z',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('resource_already_exists');
    expect(twice.body.error.message).toContain(after.body.id);
    // cancelling the booking frees its time, never the time off
    expect((await scene.acct.api.post(`/v1/bookings/${booking.id}/cancel`, {})).status).toBe(200);
    expect((await scene.acct.api.get(`/v1/staff/${member.id}/time_off`)).body.data.map((x: any) => x.id)).toEqual([
      after.body.id,
    ]);
    const now = await scene.acct.api.post(`/v1/staff/${member.id}/time_off`, {
      starts_at: '2026-06-08T13:00:00Z',
      ends_at: '2026-06-08T15:00:00Z',
    });
    expect(now.status).toBe(201);
    expect(now.body.reason).toBeNull();
  });

  it('takes slots away on the next request, refuses bookings inside it, and gives them back when removed', async () => {
    const { member, zip, bookAt } = await crewedZone();
    expect(await slotStarts(zip)).toContain('10:00');
    const off = await scene.acct.api.post(`/v1/staff/${member.id}/time_off`, {
      starts_at: '2026-06-08T13:30:00Z',
      ends_at: '2026-06-08T16:00:00Z',
    });
    expect(off.status).toBe(201);
    const starts = await slotStarts(zip);
    expect(starts).toEqual(expect.arrayContaining(['08:00', '12:00']));
    expect(starts).not.toContain('10:00');
    expect(starts).not.toContain('11:00');
    const refused = await bookAt(TEN);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('slot_unavailable');
    expect((await scene.acct.api.delete(`/v1/staff/${member.id}/time_off/${off.body.id}`)).status).toBe(204);
    expect((await scene.acct.api.delete(`/v1/staff/${member.id}/time_off/${off.body.id}`)).status).toBe(404);
    expect(await slotStarts(zip)).toContain('10:00');
    expect((await bookAt(TEN)).status).toBe(201);
  });

  it('checks its times and lists newest first with pagination', async () => {
    const { member } = await crewedZone();
    const post = (body: Record<string, unknown>) => scene.acct.api.post(`/v1/staff/${member.id}/time_off`, body);
    const bad = await post({ starts_at: '2026-06-10T10:00:00Z', ends_at: '2026-06-10T09:00:00Z' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('ends_at');
    expect((await post({ starts_at: '2026-06-10', ends_at: '2026-06-11' })).body.error.param).toBe('starts_at');
    expect((await post({ starts_at: '2026-06-10T10:00:00Z', ends_at: '2028-06-10T10:00:00Z' })).status).toBe(400);
    const first = await post({ starts_at: '2026-06-10T10:00:00Z', ends_at: '2026-06-10T11:00:00Z' });
    scene.clock.set('2026-06-01T12:00:01Z');
    const second = await post({ starts_at: '2026-06-11T10:00:00Z', ends_at: '2026-06-11T11:00:00Z' });
    scene.clock.set('2026-06-01T12:00:00Z');
    const list = await scene.acct.api.get(`/v1/staff/${member.id}/time_off?per_page=1`);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([second.body.id]);
    expect(list.body.pagination).toEqual({ page: 1, per_page: 1, total: 2, total_pages: 2 });
    const one = await scene.acct.api.get(`/v1/staff/${member.id}/time_off?ids=${first.body.id}&fields=id,starts_at`);
    expect(one.body.data).toEqual([{ id: first.body.id, starts_at: '2026-06-10T10:00:00.000Z' }]);
  });

  it('no booking overlaps time off in the database', async () => {
    const rows = await query<{ id: string }>(
      scene.t.database.sql,
      sql`select a.booking_id as id from staff_time_blocks a join staff_time_blocks b
            on a.staff_id = b.staff_id and a.id <> b.id and a.during && b.during
          where a.account_id = ${scene.acct.accountId}`,
    );
    expect(rows).toEqual([]);
  });
});

describe('isolation', () => {
  it('another account or environment cannot see or change crew or their time off', async () => {
    const zone = await createZone(scene.acct.api);
    const member = await createStaff(scene.acct.api, [zone.id]);
    const off = await scene.acct.api.post(`/v1/staff/${member.id}/time_off`, {
      starts_at: '2026-06-20T10:00:00Z',
      ends_at: '2026-06-20T11:00:00Z',
    });
    const other = await createTestAccount(scene.t);
    for (const api of [other.api, scene.acct.live]) {
      expect((await api.get(`/v1/staff/${member.id}`)).status).toBe(404);
      expect((await api.patch(`/v1/staff/${member.id}`, { name: 'Mine' })).status).toBe(404);
      expect((await api.delete(`/v1/staff/${member.id}`)).status).toBe(404);
      expect((await api.get(`/v1/staff/${member.id}/time_off`)).status).toBe(404);
      const body = { starts_at: '2026-06-21T10:00:00Z', ends_at: '2026-06-21T11:00:00Z' };
      expect((await api.post(`/v1/staff/${member.id}/time_off`, body)).status).toBe(404);
      expect((await api.delete(`/v1/staff/${member.id}/time_off/${off.body.id}`)).status).toBe(404);
      expect((await api.get(`/v1/staff?ids=${member.id}`)).body.data).toEqual([]);
      // a zone of this environment is unknown there
      const res = await api.post('/v1/staff', { name: 'X', zones: [zone.id], industries: [], hours: {} });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'resource_not_found', param: 'zones' });
    }
    expect((await scene.acct.api.get(`/v1/staff/${member.id}/time_off`)).body.data).toHaveLength(1);
  });
});
