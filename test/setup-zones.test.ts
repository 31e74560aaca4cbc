// Zones through the API (CONTRACT §11): the object, field rules, the one-active-zone-per-ZIP
// rule, archiving, zones in use, changes read live by availability and pricing, isolation.
import { describe, expect, it } from 'vitest';
import { exportCatalog, importCatalog } from '../src/modules/catalog/index.ts';
import { createTestAccount } from './helpers/app.ts';
import { mondayInNewYork, sofaPickup } from './helpers/bookings.ts';
import { createStaff, createZone, freshZip, MON_SAT, NO_DAYS, zoneBody } from './helpers/setup.ts';

const scene = mondayInNewYork();

const MONDAY = '2026-06-08';

async function slotStarts(zip: string, date = MONDAY) {
  const res = await scene.acct.api.get(
    `/v1/services/availability?zip=${zip}&industry=junk-removal&date=${date}&duration=20`,
  );
  expect(res.status).toBe(200);
  return res.body as { zone: { id: string } | null; available_slots: { start: string; starts_at: string }[] };
}

/** A zone with one crew member and a confirmed booking at 10:00 on MONDAY. */
async function bookedZone(overrides: Record<string, unknown> = {}) {
  const zone = await createZone(scene.acct.api, overrides);
  const member = await createStaff(scene.acct.api, [zone.id]);
  const zip = zone.zips[0] as string;
  const customer = await scene.customer(zip);
  const booking = await sofaPickup(scene.acct.api, MONDAY, { zip, customer });
  return { zone, member, zip, customer, booking };
}

describe('zones', () => {
  it('creates, reads, lists and updates a zone', async () => {
    const body = zoneBody({ zips: [freshZip(), freshZip()], tax_rate: 8.875, price_adjustment_percent: -5.5 });
    const res = await scene.acct.api.post('/v1/zones', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^zone_[0-9A-Za-z]{24}$/),
      object: 'zone',
      name: body.name,
      timezone: 'America/New_York',
      zips: [...body.zips].sort(),
      industries: ['junk-removal'],
      hours: MON_SAT,
      slot_interval_minutes: 60,
      travel_buffer_minutes: 0,
      lead_time_minutes: 0,
      price_adjustment_percent: -5.5,
      tax_rate: 8.875,
      is_active: true,
      created_at: '2026-06-01T12:00:00.000Z',
      updated_at: '2026-06-01T12:00:00.000Z',
    });
    expect((await scene.acct.api.get(`/v1/zones/${res.body.id}`)).body).toEqual(res.body);

    const patched = await scene.acct.api.patch(`/v1/zones/${res.body.id}`, { name: 'Queens', hours: { monday: WORK } });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('Queens');
    expect(patched.body.hours).toEqual({ ...NO_DAYS, monday: WORK });
    expect(patched.body.zips).toEqual(res.body.zips);

    const list = await scene.acct.api.get(`/v1/zones?ids=${res.body.id}`);
    expect(list.body.data.map((z: { id: string }) => z.id)).toEqual([res.body.id]);
  });

  it('lists zones newest first with pagination, fields and ids', async () => {
    const a = await createZone(scene.acct.api);
    const b = await createZone(scene.acct.api);
    const all = await scene.acct.api.get('/v1/zones?per_page=100');
    expect(all.status).toBe(200);
    const names = all.body.data.map((z: { name: string }) => z.name);
    expect(names).toEqual(expect.arrayContaining(['Manhattan', 'San Francisco', a.name, b.name]));
    const page = await scene.acct.api.get('/v1/zones?per_page=1&page=2&fields=id,name');
    expect(page.body.pagination).toEqual({
      page: 2,
      per_page: 1,
      total: all.body.pagination.total,
      total_pages: all.body.pagination.total,
    });
    expect(Object.keys(page.body.data[0])).toEqual(['id', 'name']);
    const both = await scene.acct.api.get(`/v1/zones?ids=${a.id},${b.id}`);
    expect(both.body.data.map((z: { id: string }) => z.id).sort()).toEqual([a.id, b.id].sort());
    expect((await scene.acct.api.get('/v1/zones?per_page=101')).status).toBe(400);
  });

  it('applies the catalog file field rules', async () => {
    const refused = async (overrides: Record<string, unknown>, param: string) => {
      const res = await scene.acct.api.post('/v1/zones', zoneBody(overrides));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.param).toBe(param);
      return res.body.error;
    };
    expect((await refused({ timezone: 'Mars/Olympus' }, 'timezone')).code).toBe('parameter_invalid');
    await refused({ hours: { monday: { open: '18:00', close: '08:00' } } }, 'hours.monday');
    await refused({ hours: { monday: { open: '8:00', close: '18:00' } } }, 'hours.monday.open');
    await refused({ tax_rate: 8.8751 }, 'tax_rate');
    await refused({ tax_rate: 101 }, 'tax_rate');
    await refused({ price_adjustment_percent: 1.0001 }, 'price_adjustment_percent');
    await refused({ zips: [] }, 'zips');
    await refused({ zips: ['1'] }, 'zips.0');
    await refused({ zips: ['    '] }, 'zips');
    await refused({ zips: ['10101', ' 10101'] }, 'zips');
    await refused({ industries: ['window-washing'] }, 'industries');
    await refused({ slot_interval_minutes: 0 }, 'slot_interval_minutes');
    expect((await refused({ colour: 'red' }, 'colour')).code).toBe('parameter_unknown');
    const taken = await scene.acct.api.post('/v1/zones', zoneBody({ name: 'manhattan' }));
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'resource_already_exists', param: 'name' });
  });

  it('serves a ZIP for an industry from one active zone only', async () => {
    const zip = freshZip();
    const first = await createZone(scene.acct.api, { zips: [zip], industries: ['junk-removal'] });
    // another industry on the same ZIP is fine
    const carpets = await createZone(scene.acct.api, { zips: [zip], industries: ['carpet-cleaning'] });
    const second = await scene.acct.api.post('/v1/zones', zoneBody({ zips: [zip], industries: ['junk-removal'] }));
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'resource_already_exists', param: 'zips' });
    expect(second.body.error.message).toContain(first.name);
    const demo = await scene.acct.api.post('/v1/zones', zoneBody({ zips: ['10002'] }));
    expect(demo.body.error.message).toContain('Manhattan');
    // PATCH claims are judged alike; an inactive zone claims nothing until it is activated
    const patch = await scene.acct.api.patch(`/v1/zones/${carpets.id}`, {
      industries: ['carpet-cleaning', 'junk-removal'],
    });
    expect(patch.status).toBe(409);
    const dormant = await createZone(scene.acct.api, { zips: [zip], is_active: false });
    const wake = await scene.acct.api.patch(`/v1/zones/${dormant.id}`, { is_active: true });
    expect(wake.status).toBe(409);
    expect(wake.body.error.message).toContain(first.name);
    // archiving frees the ZIP
    expect((await scene.acct.api.delete(`/v1/zones/${first.id}`)).status).toBe(204);
    expect((await scene.acct.api.patch(`/v1/zones/${dormant.id}`, { is_active: true })).status).toBe(200);
    // nothing was half-written by the refusals
    expect((await scene.acct.api.get(`/v1/zones/${carpets.id}`)).body.industries).toEqual(['carpet-cleaning']);
  });

  it('refuses to delete a zone with bookings still to do; archived zones leave every read', async () => {
    const { zone, zip, booking } = await bookedZone();
    const refused = await scene.acct.api.delete(`/v1/zones/${zone.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('resource_in_use');
    expect(refused.body.error.message).toContain(booking.id);
    expect((await scene.acct.api.post(`/v1/bookings/${booking.id}/cancel`, {})).status).toBe(200);
    expect((await scene.acct.api.delete(`/v1/zones/${zone.id}`)).status).toBe(204);
    expect((await scene.acct.api.get(`/v1/zones/${zone.id}`)).status).toBe(404);
    expect((await scene.acct.api.patch(`/v1/zones/${zone.id}`, { name: 'Back' })).status).toBe(404);
    expect((await scene.acct.api.delete(`/v1/zones/${zone.id}`)).status).toBe(404);
    const list = await scene.acct.api.get('/v1/zones?per_page=100');
    expect(list.body.data.map((z: { id: string }) => z.id)).not.toContain(zone.id);
    expect((await slotStarts(zip)).zone).toBeNull();
    const price = await scene.acct.api.post('/v1/services/pricing', {
      industry: 'junk-removal',
      zip,
      configuration: scene.sofa(),
    });
    expect(price.status).toBe(400);
    const old = await scene.acct.api.get(`/v1/bookings/${booking.id}`);
    expect(old.status).toBe(200);
    expect(old.body.zone_id).toBe(zone.id);
  });

  it('changes to hours, adjustment and tax show on the next request; a booking keeps its price and crew', async () => {
    const { zone, zip, booking, member } = await bookedZone();
    const quote = () =>
      scene.acct.api.post('/v1/services/pricing', { industry: 'junk-removal', zip, configuration: scene.sofa() });
    const before = (await quote()).body;
    expect((await slotStarts(zip)).available_slots.map((s) => s.start)).toContain('08:00');
    const patched = await scene.acct.api.patch(`/v1/zones/${zone.id}`, {
      hours: { ...MON_SAT, monday: { open: '12:00', close: '16:00' } },
      price_adjustment_percent: 10,
      tax_rate: 5,
    });
    expect(patched.status).toBe(200);
    const starts = (await slotStarts(zip)).available_slots.map((s) => s.start);
    expect(starts[0]).toBe('12:00');
    expect(starts.at(-1)).toBe('15:00');
    const after = (await quote()).body;
    expect(after.zone_adjustment).toBe(Math.round((before.base_price * 10) / 100));
    expect(after.tax_rate).toBe(5);
    expect(after.total).not.toBe(before.total);
    const kept = await scene.acct.api.get(`/v1/bookings/${booking.id}`);
    expect(kept.body.total).toBe(booking.total);
    expect(kept.body.scheduled_at).toBe(booking.scheduled_at);
    expect(kept.body.assigned_crew).toEqual([member.id]);
  });

  it('the catalog file refuses two active zones serving one ZIP for an industry, by line', async () => {
    const file = await exportCatalog(scene.t.app.deps, scene.acct.tenant());
    const copy = { ...file.zones[0], id: undefined, name: 'Manhattan again', zips: ['10001'] };
    const text = JSON.stringify({ ...file, zones: [...file.zones, copy] }, null, 2);
    const error = await importCatalog(scene.t.app.deps, scene.acct.tenant(), text).catch((e) => e);
    const problem = error.problems.find((p: { path: string }) => p.path.endsWith('.zips'));
    expect(problem.message).toContain('Manhattan');
    expect(problem.line).toBeGreaterThan(1);
    // an inactive copy is fine, and an import writes coverage the API then enforces
    const other = await createTestAccount(scene.t, { demo: true });
    const inactive = JSON.stringify({ ...file, zones: [...file.zones, { ...copy, is_active: false }] });
    await importCatalog(scene.t.app.deps, other.tenant(), inactive.replaceAll(/"id":"[a-z]+_[0-9A-Za-z]+",?/g, ''));
    const res = await other.api.post('/v1/zones', zoneBody({ zips: ['10003'] }));
    expect(res.status).toBe(409);
  });

  it('another account or environment cannot see or change a zone', async () => {
    const zone = await createZone(scene.acct.api);
    const other = await createTestAccount(scene.t);
    for (const api of [other.api, scene.acct.live]) {
      expect((await api.get(`/v1/zones/${zone.id}`)).status).toBe(404);
      expect((await api.patch(`/v1/zones/${zone.id}`, { name: 'Mine' })).status).toBe(404);
      expect((await api.delete(`/v1/zones/${zone.id}`)).status).toBe(404);
      const list = await api.get(`/v1/zones?ids=${zone.id}`);
      expect(list.body.data).toEqual([]);
    }
    // the same ZIP is free in the other environment
    expect((await scene.acct.live.post('/v1/zones', zoneBody({ zips: zone.zips, industries: [] }))).status).toBe(201);
    expect((await scene.acct.api.get(`/v1/zones/${zone.id}`)).body.name).toBe(zone.name);
  });
});

const WORK = { open: '09:00', close: '17:00' };
