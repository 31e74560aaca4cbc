// The Bookings read views in a real browser: the list filtered with its labelled controls, a
// booking's detail with timeline, crew and pricing, and the detail on a phone. Screenshots go
// to docs/screenshots.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { createTestAccount, type TestAccount } from '../helpers/app.ts';
import { addCard } from '../helpers/billing.ts';
import {
  book,
  type Catalog,
  configurations,
  demoCatalog,
  MONDAY_8AM_NEW_YORK,
  slotAt,
  sofa,
} from '../helpers/bookings.ts';
import { expectMainShows, screenshot, startBrowserScene } from '../helpers/browser.ts';

let acct: TestAccount;
let catalog: Catalog;
const clock = new ManualClock(MONDAY_8AM_NEW_YORK);
const scene = startBrowserScene({
  app: { clock, workers: false },
  user: async (t) => {
    acct = await createTestAccount(t, { demo: true });
    catalog = await demoCatalog(acct.api);
    return { accountId: acct.accountId, email: acct.adminEmail, password: acct.adminPassword };
  },
});

async function customer(first: string, last: string, street: string) {
  const res = await acct.api.post('/v1/customers', {
    first_name: first,
    last_name: last,
    email: `${first.toLowerCase()}.${last.toLowerCase()}.${Date.now()}@example.com`,
    address: { street, city: 'New York', state: 'NY', zip: '10001' },
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, addressId: res.body.addresses[0].id as string };
}

async function booking(
  who: { id: string; addressId: string },
  industry: keyof ReturnType<typeof configurations>,
  configuration: object,
  date: string,
  time: string,
  extra: Record<string, unknown> = {},
) {
  const quote = await acct.api.post('/v1/services/pricing', { industry, zip: '10001', configuration });
  const res = await book(acct.api, {
    customer_id: who.id,
    address_id: who.addressId,
    industry,
    configuration,
    scheduled_at: await slotAt(acct.api, industry, date, time, quote.body.estimated_duration),
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

describe('Bookings in a browser', { timeout: 120_000 }, () => {
  it('filters the list with its labelled controls and opens a booking with its timeline and pricing', async () => {
    const config = configurations(catalog);
    const maya = await customer('Maya', 'Lindqvist', '214 W 29th St');
    await addCard(acct.api, maya.id);
    const done = await booking(
      maya,
      'residential-cleaning',
      { ...config['residential-cleaning'], frequency: 'bi-weekly' },
      '2026-06-02',
      '09:00',
      { coupon_code: 'WELCOME10', notes: 'Dog-friendly products, please. Key under the mat.' },
    );
    const omar = await customer('Omar', 'Haddad', '5 Penn Plaza');
    const cancelled = await booking(omar, 'carpet-cleaning', config['carpet-cleaning'], '2026-06-03', '13:00');
    const jun = await customer('Jun', 'Park', '350 5th Ave');
    await booking(jun, 'junk-removal', sofa(catalog), '2026-06-04', '10:00');
    await booking(maya, 'junk-removal', sofa(catalog), '2026-06-05', '11:00');
    clock.advance(60_000);
    expect((await acct.api.post(`/v1/bookings/${done}/start`)).status).toBe(200);
    clock.advance(90 * 60_000);
    expect((await acct.api.post(`/v1/bookings/${done}/complete`, {})).status).toBe(200);
    expect((await acct.api.post(`/v1/bookings/${cancelled}/cancel`, { reason: 'Rescheduling later' })).status).toBe(
      200,
    );

    const page = await scene.signedInPage();
    await page.getByRole('link', { name: 'Bookings' }).click();
    await page.getByRole('heading', { name: 'Bookings', exact: true }).waitFor();
    // four booked, and the bi-weekly one's next visit, made when it was completed
    expect(await page.locator('tbody tr').count()).toBe(5);
    await screenshot(page, 'bookings');

    await page.getByLabel('Status').selectOption('confirmed');
    await page.getByLabel('Scheduled from').fill('2026-06-04');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=confirmed/);
    expect(await page.locator('tbody tr').count()).toBe(3);

    await page.goto('/dashboard/bookings');
    await page.locator(`a[href="/dashboard/bookings/${done}"]`).click();
    await expectMainShows(page, 'Timeline', ['Maya Lindqvist', 'Booked', 'Key under the mat']);
    await screenshot(page, 'booking');

    const phone = await scene.signedInPage('phone');
    await phone.goto(`/dashboard/bookings/${done}`);
    await phone.getByRole('heading', { name: 'Pricing' }).waitFor();
    // nothing wider than the screen
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, 'booking-phone');
  });
});
