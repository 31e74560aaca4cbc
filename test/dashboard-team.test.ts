// Settings > Team over HTTP: add a crew member with zones, industries and hours; a day off
// (time off typed in the member's zone time, shown there with the zone named); a change that
// would strand a booking shown next to its field; removal of time off and of the member, each
// after a confirmation step.
import { beforeAll, describe, expect, it } from 'vitest';
import { mondayInNewYork, sofaPickup } from './helpers/bookings.ts';
import { csrfFrom, errorNextTo, type FormClient, signedInClient } from './helpers/forms.ts';
import { createZone } from './helpers/setup.ts';

const TEAM = '/dashboard/settings/team';
const scene = mondayInNewYork();
let browser: FormClient;
beforeAll(async () => {
  browser = await signedInClient(scene.t.url, scene.acct);
});

const WEEKDAY_HOURS = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].flatMap((day) => [
    [`${day}_open`, '08:00'],
    [`${day}_close`, '18:00'],
  ]),
);

async function addMember(zoneId: string, name: string) {
  const form = await browser.get(`${TEAM}/new`);
  expect(form.status).toBe(200);
  const res = await browser.post(TEAM, {
    _csrf: csrfFrom(form.text),
    name,
    email: `${name.split(' ')[0]?.toLowerCase()}@example.com`,
    phone: '',
    zones: [zoneId],
    industries: ['junk-removal'],
    status: 'active',
    ...WEEKDAY_HOURS,
  });
  expect(res.status, res.text.slice(0, 2000)).toBe(303);
  return res.location?.split('?')[0]?.split('/').at(-1) as string;
}

describe('Settings > Team', () => {
  it('adds a crew member with zones, industries and hours', async () => {
    const zone = await createZone(scene.acct.api, { name: 'Greenpoint' });
    const id = await addMember(zone.id, 'Rosa Diaz');
    const member = (await scene.acct.api.get(`/v1/staff/${id}`)).body;
    expect(member).toMatchObject({
      name: 'Rosa Diaz',
      email: 'rosa@example.com',
      phone: null,
      zones: [zone.id],
      industries: ['junk-removal'],
      status: 'active',
      hours: { monday: { open: '08:00', close: '18:00' }, saturday: null, sunday: null },
    });
    const list = await browser.get(TEAM);
    expect(list.text).toContain('Rosa Diaz');
    expect(list.text).toContain('Greenpoint');
  });

  it('shows field errors next to the field and keeps what was typed', async () => {
    const csrf = csrfFrom((await browser.get(`${TEAM}/new`)).text);
    const res = await browser.post(TEAM, {
      _csrf: csrf,
      name: 'Al',
      email: 'not-mail',
      status: 'active',
      ...WEEKDAY_HOURS,
    });
    expect(res.status).toBe(400);
    expect(errorNextTo(res.text, 'email')).toBeDefined();
    expect(res.text).toContain('value="not-mail"');
    const hours = await browser.post(TEAM, {
      _csrf: csrf,
      name: 'Al',
      status: 'active',
      friday_open: '18:00',
      friday_close: '09:00',
    });
    expect(errorNextTo(hours.text, 'hours.friday')).toBe('open must be before close');
  });

  it('adds a day off in the zone’s time, refuses time off over a booking, and removes it after confirmation', async () => {
    const zone = await createZone(scene.acct.api, { name: 'Red Hook' });
    const id = await addMember(zone.id, 'Sam Reyes');
    const page = await browser.get(`${TEAM}/${id}`);
    expect(page.text).toContain('Red Hook time (America/New_York)');
    const csrf = csrfFrom(page.text);
    const dayOff = {
      _csrf: csrf,
      start_date: '2026-06-09',
      start_time: '00:00',
      end_date: '2026-06-10',
      end_time: '00:00',
      reason: 'Day off',
    };
    const res = await browser.post(`${TEAM}/${id}/time-off`, dayOff);
    expect(res.status).toBe(303);
    const entries = (await scene.acct.api.get(`/v1/staff/${id}/time_off`)).body.data;
    expect(entries).toMatchObject([
      { starts_at: '2026-06-09T04:00:00.000Z', ends_at: '2026-06-10T04:00:00.000Z', reason: 'Day off' },
    ]);
    const shown = await browser.get(`${TEAM}/${id}`);
    expect(shown.text).toContain('Jun 9, 2026');
    expect(shown.text).toContain('EDT');
    // a booking on Monday: time off over it is refused next to the start date
    const booking = await sofaPickup(scene.acct.api, '2026-06-08', { zip: zone.zips[0] });
    expect(booking.scheduled_at).toBe('2026-06-08T14:00:00.000Z');
    const over = await browser.post(`${TEAM}/${id}/time-off`, {
      ...dayOff,
      start_date: '2026-06-08',
      end_date: '2026-06-08',
      start_time: '09:00',
      end_time: '12:00',
    });
    expect(over.status).toBe(400);
    expect(errorNextTo(over.text, 'start_date')).toContain(booking.id);
    const missing = await browser.post(`${TEAM}/${id}/time-off`, { ...dayOff, start_date: '' });
    expect(errorNextTo(missing.text, 'start_date')).toBe('Enter a date.');
    // a change of hours that strands the booking is refused next to the hours
    const edit = await browser.post(`${TEAM}/${id}`, {
      _csrf: csrf,
      name: 'Sam Reyes',
      zones: [zone.id],
      industries: ['junk-removal'],
      status: 'active',
      ...WEEKDAY_HOURS,
      monday_open: '',
      monday_close: '',
    });
    expect(edit.status).toBe(400);
    expect(errorNextTo(edit.text, 'hours')).toContain(booking.id);
    // removal asks first
    const confirm = await browser.get(`${TEAM}/${id}/time-off/${entries[0].id}/remove`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Remove Sam Reyes');
    expect((await scene.acct.api.get(`/v1/staff/${id}/time_off`)).body.data).toHaveLength(1);
    const removed = await browser.post(`${TEAM}/${id}/time-off/${entries[0].id}/remove`, { _csrf: csrf });
    expect(removed.status).toBe(303);
    expect((await scene.acct.api.get(`/v1/staff/${id}/time_off`)).body.data).toEqual([]);
  });

  it('removes a crew member after confirmation, refusing while they hold a booking', async () => {
    const zone = await createZone(scene.acct.api, { name: 'Dumbo' });
    const id = await addMember(zone.id, 'Kim Park');
    const booking = await sofaPickup(scene.acct.api, '2026-06-08', { zip: zone.zips[0] });
    const confirm = await browser.get(`${TEAM}/${id}/archive`);
    expect(confirm.text).toContain('Remove Kim Park from the team?');
    const refused = await browser.post(`${TEAM}/${id}/archive`, { _csrf: csrfFrom(confirm.text) });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(booking.id);
    await scene.acct.api.post(`/v1/bookings/${booking.id}/cancel`, {});
    const done = await browser.post(`${TEAM}/${id}/archive`, { _csrf: csrfFrom(confirm.text) });
    expect(done.status).toBe(303);
    expect((await scene.acct.api.get(`/v1/staff/${id}`)).status).toBe(404);
    expect((await browser.get(`${TEAM}/${id}`)).status).toBe(404);
  });

  it('the other environment’s crew member is a 404', async () => {
    const zone = (
      await scene.acct.live.post('/v1/zones', {
        name: 'Live Z',
        timezone: 'UTC',
        zips: ['99001'],
        industries: [],
        hours: {},
      })
    ).body;
    const live = (
      await scene.acct.live.post('/v1/staff', { name: 'Live crew', zones: [zone.id], industries: [], hours: {} })
    ).body;
    expect((await browser.get(TEAM)).text).not.toContain('Live crew');
    expect((await browser.get(`${TEAM}/${live.id}`)).status).toBe(404);
  });
});
