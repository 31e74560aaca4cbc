// Settings > Zones over HTTP: add a zone with pasted ZIPs, errors next to their field (a bad
// time zone, a ZIP another zone serves), edit, archive with confirmation (refused while a
// booking holds the zone), and isolation between environments.
import { beforeAll, describe, expect, it } from 'vitest';
import { mondayInNewYork, sofaPickup } from './helpers/bookings.ts';
import { csrfFrom, errorNextTo, type FormClient, signedInClient } from './helpers/forms.ts';
import { createStaff, createZone, freshZip } from './helpers/setup.ts';

const ZONES = '/dashboard/settings/zones';
const scene = mondayInNewYork();
let browser: FormClient;
beforeAll(async () => {
  browser = await signedInClient(scene.t.url, scene.acct);
});

function zoneForm(csrf: string, overrides: Record<string, string | string[]> = {}) {
  return {
    _csrf: csrf,
    name: 'Brooklyn',
    timezone: 'America/New_York',
    zips: '',
    industries: ['junk-removal', 'carpet-cleaning'],
    monday_open: '08:00',
    monday_close: '18:00',
    tuesday_open: '09:00',
    tuesday_close: '17:00',
    slot_interval_minutes: '60',
    travel_buffer_minutes: '30',
    lead_time_minutes: '0',
    price_adjustment_percent: '2.5',
    tax_rate: '8.875',
    is_active: 'true',
    ...overrides,
  };
}

describe('Settings > Zones', () => {
  it('adds a zone with pasted ZIPs and shows it in the list and the API', async () => {
    const form = await browser.get(`${ZONES}/new`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Settings');
    const [a, b, c] = [freshZip(), freshZip(), freshZip()];
    const res = await browser.post(ZONES, zoneForm(csrfFrom(form.text), { zips: `${a}, ${b}\n${c} ${a}` }));
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${ZONES}?done=created`);
    const list = await browser.get(res.location ?? '');
    expect(list.text).toContain('Zone added.');
    expect(list.text).toContain('Brooklyn');
    const zones = (await scene.acct.api.get('/v1/zones?per_page=100')).body.data;
    const brooklyn = zones.find((zone: { name: string }) => zone.name === 'Brooklyn');
    expect(brooklyn).toMatchObject({
      zips: [a, b, c].sort(),
      industries: ['junk-removal', 'carpet-cleaning'],
      hours: { monday: { open: '08:00', close: '18:00' }, tuesday: { open: '09:00', close: '17:00' }, sunday: null },
      price_adjustment_percent: 2.5,
      tax_rate: 8.875,
      is_active: true,
    });
  });

  it('shows a bad time zone, a taken ZIP and bad hours next to their field, keeping what was typed', async () => {
    const csrf = csrfFrom((await browser.get(`${ZONES}/new`)).text);
    const badZone = await browser.post(
      ZONES,
      zoneForm(csrf, { name: 'Bronx', timezone: 'Mars/Olympus', zips: freshZip() }),
    );
    expect(badZone.status).toBe(400);
    expect(errorNextTo(badZone.text, 'timezone')).toContain('Unknown time zone Mars/Olympus');
    expect(badZone.text).toContain('value="Bronx"');
    const taken = await browser.post(ZONES, zoneForm(csrf, { name: 'Bronx', zips: '10001 60000' }));
    expect(taken.status).toBe(400);
    expect(errorNextTo(taken.text, 'zips')).toContain('Manhattan');
    expect(taken.text).toContain('10001 60000</textarea>');
    const hours = await browser.post(ZONES, zoneForm(csrf, { name: 'Bronx', zips: freshZip(), monday_close: '07:00' }));
    expect(errorNextTo(hours.text, 'hours.monday')).toBe('open must be before close');
    const tax = await browser.post(ZONES, zoneForm(csrf, { name: 'Bronx', zips: freshZip(), tax_rate: 'lots' }));
    expect(errorNextTo(tax.text, 'tax_rate')).toBeDefined();
    const zones = (await scene.acct.api.get('/v1/zones?per_page=100')).body.data;
    expect(zones.map((zone: { name: string }) => zone.name)).not.toContain('Bronx');
  });

  it('edits a zone', async () => {
    const zone = await createZone(scene.acct.api, { name: 'Harlem', industries: [], hours: {} });
    const page = await browser.get(`${ZONES}/${zone.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="Harlem"');
    const res = await browser.post(
      `${ZONES}/${zone.id}`,
      zoneForm(csrfFrom(page.text), { name: 'East Harlem', zips: zone.zips[0] as string, is_active: [] }),
    );
    expect(res.status).toBe(303);
    expect((await scene.acct.api.get(`/v1/zones/${zone.id}`)).body).toMatchObject({
      name: 'East Harlem',
      is_active: false,
    });
  });

  it('archives a zone after confirmation, and refuses while a booking holds it', async () => {
    const zip = freshZip();
    const zone = await createZone(scene.acct.api, {
      name: 'Astoria',
      zips: [zip],
      hours: { monday: { open: '08:00', close: '18:00' } },
    });
    await createStaff(scene.acct.api, [zone.id]);
    const booking = await sofaPickup(scene.acct.api, '2026-06-08', { zip });
    expect(booking.scheduled_at).toBe('2026-06-08T14:00:00.000Z');
    const confirm = await browser.get(`${ZONES}/${zone.id}/archive`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Archive the zone Astoria?');
    const refused = await browser.post(`${ZONES}/${zone.id}/archive`, { _csrf: csrfFrom(confirm.text) });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(booking.id);
    await scene.acct.api.post(`/v1/bookings/${booking.id}/cancel`, {});
    const done = await browser.post(`${ZONES}/${zone.id}/archive`, { _csrf: csrfFrom(confirm.text) });
    expect(done.status).toBe(303);
    expect((await scene.acct.api.get(`/v1/zones/${zone.id}`)).status).toBe(404);
    expect((await browser.get(`${ZONES}/${zone.id}`)).status).toBe(404);
  });

  it('shows only the environment’s zones; the other environment’s zone is a 404', async () => {
    const live = await createZone(scene.acct.live, { name: 'Live only', timezone: 'UTC', industries: [], hours: {} });
    const list = await browser.get(ZONES);
    expect(list.text).not.toContain('Live only');
    expect((await browser.get(`${ZONES}/${live.id}`)).status).toBe(404);
    const csrf = csrfFrom(list.text);
    expect((await browser.post(`${ZONES}/${live.id}/archive`, { _csrf: csrf })).status).toBe(404);
    expect((await browser.post(ZONES, { ...zoneForm(csrf), _csrf: 'x'.repeat(43) })).status).toBe(403);
  });
});
