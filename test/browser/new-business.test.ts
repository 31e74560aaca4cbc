// A new business sets itself up in the dashboard alone (CONTRACT §11): a service with a product,
// a zone, a crew member with working hours and a day off, and a coupon. Then an integrator's API
// key sees it on the very next requests: availability offers the crew member's hours on a working
// day and nothing on the day off, and pricing charges the product with the coupon.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { addTimeOff, brightside, fillByLabel, screenshot, startBrowserScene } from '../helpers/browser.ts';
import type { Api } from '../helpers/http.ts';

const ZONE_TIME = 'America/New_York';
const owner = { email: 'owner@new-business.example', password: 'correct horse battery staple' };

const scene = startBrowserScene({ app: { workers: false }, user: brightside(owner) });
let api: Api;
beforeAll(async () => {
  api = await scene.testApi('Scheduling tool');
});

/** The Monday at least a week from now in the zone, and the Tuesday after it (YYYY-MM-DD). */
function comingWorkWeek(): { monday: string; tuesday: string } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE_TIME }).format(new Date());
  const day = new Date(`${today}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 7);
  while (day.getUTCDay() !== 1) day.setUTCDate(day.getUTCDate() + 1);
  const monday = day.toISOString().slice(0, 10);
  day.setUTCDate(day.getUTCDate() + 1);
  return { monday, tuesday: day.toISOString().slice(0, 10) };
}

async function weekdayHours(page: Page, open: string, close: string) {
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
    await page.getByLabel(`${day} opens`).fill(open);
    await page.getByLabel(`${day} closes`).fill(close);
  }
}

describe('a new business sets up in the dashboard', { timeout: 180_000 }, () => {
  it('adds a service, a zone, a crew member with hours and a day off, and a coupon; the API reflects them', async () => {
    const { monday, tuesday } = comingWorkWeek();
    const page = await scene.signedInPage();

    // Services: an item-based industry, a category, a product at $8.00
    await page.goto('/dashboard/settings/services');
    await page.getByLabel('Name', { exact: true }).fill('Window Washing');
    await page.getByLabel('Priced by').selectOption('item_based');
    await page.getByRole('button', { name: 'Add industry' }).click();
    await page.getByRole('heading', { name: 'Window Washing', level: 1 }).waitFor();
    const categoryForm = page.locator('form', { has: page.getByRole('button', { name: 'Add category' }) });
    await categoryForm.getByLabel('Name', { exact: true }).fill('Windows');
    await categoryForm.getByRole('button', { name: 'Add category' }).click();
    await page.getByText('Added.').waitFor();
    const productForm = page.locator('form', { has: page.getByRole('button', { name: 'Add product' }) });
    await productForm.getByLabel('Category').selectOption({ label: 'Windows' });
    await productForm.getByLabel('Name', { exact: true }).fill('Window pane');
    await productForm.getByLabel('Price').fill('8.00');
    await productForm.getByLabel('Minutes').fill('10');
    await productForm.getByRole('button', { name: 'Add product' }).click();
    await page.getByRole('cell', { name: 'Window pane' }).first().waitFor();

    // Zones: Brooklyn, two ZIPs pasted, weekdays 09:00-17:00
    await page.goto('/dashboard/settings/zones');
    await page.getByRole('link', { name: 'Add zone' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Brooklyn');
    await page.getByLabel('Time zone').fill(ZONE_TIME);
    await page.getByLabel('ZIP codes').fill('11201\n11205');
    await page.getByRole('checkbox', { name: 'Window Washing' }).check();
    await weekdayHours(page, '09:00', '17:00');
    await fillByLabel(page, {
      'Slot interval (min)': '60',
      'Travel buffer (min)': '30',
      'Lead time (min)': '120',
      'Price adjustment (%)': '0',
      'Tax rate (%)': '0',
    });
    await page.getByRole('button', { name: 'Add zone' }).click();
    await page.getByText('Zone added.').waitFor();

    // Team: Sam works weekdays 09:00-17:00 in Brooklyn, and takes the Tuesday off
    await page.goto('/dashboard/settings/team');
    await page.getByRole('link', { name: 'Add crew member' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Sam Rivera');
    await page.getByRole('checkbox', { name: 'Brooklyn' }).check();
    await page.getByRole('checkbox', { name: 'Window Washing' }).check();
    await weekdayHours(page, '09:00', '17:00');
    await page.getByRole('button', { name: 'Add crew member' }).click();
    await page.getByText('Crew member added.').waitFor();
    await page.getByText(`Brooklyn time (${ZONE_TIME})`).waitFor();
    await addTimeOff(page, [tuesday, '00:00'], [tuesday, '23:59'], 'Day off');
    await screenshot(page, 'new-business-team-member');

    // Coupons: FIRST15, 15 % off
    await page.goto('/dashboard/settings/coupons');
    await page.getByLabel('Code').fill('FIRST15');
    await page.getByLabel('Percent off').fill('15');
    await page.getByRole('button', { name: 'Add coupon' }).click();
    await page.getByText('Coupon added.').waitFor();

    // The API sees all of it on the next request.
    const working = await api.get(
      `/v1/services/availability?zip=11201&industry=window-washing&date=${monday}&duration=60`,
    );
    expect(working.status, JSON.stringify(working.body)).toBe(200);
    expect(working.body.zone).toMatchObject({ name: 'Brooklyn', timezone: ZONE_TIME });
    // 60-minute jobs every hour from 09:00, the last ending at 17:00
    expect(working.body.available_slots.map((slot: { start: string }) => slot.start)).toEqual([
      '09:00',
      '10:00',
      '11:00',
      '12:00',
      '13:00',
      '14:00',
      '15:00',
      '16:00',
    ]);
    const dayOff = await api.get(
      `/v1/services/availability?zip=11205&industry=window-washing&date=${tuesday}&duration=60`,
    );
    expect(dayOff.status).toBe(200);
    expect(dayOff.body.available_slots).toEqual([]);
    expect(dayOff.body.fully_booked).toBe(true);

    const menu = await api.get('/v1/services/industries/window-washing/products');
    const pane = menu.body.categories[0].products[0];
    expect(pane).toMatchObject({ name: 'Window pane', base_price: 800, minutes: 10 });
    const price = await api.post('/v1/services/pricing', {
      industry: 'window-washing',
      zip: '11201',
      coupon_code: 'first15',
      configuration: { items: [{ product_id: pane.id, quantity: 3 }], frequency: 'one-time' },
    });
    expect(price.status, JSON.stringify(price.body)).toBe(200);
    expect(price.body).toMatchObject({
      zone: { name: 'Brooklyn' },
      base_price: 2400,
      subtotal: 2400,
      discount: 360,
      tax: 0,
      total: 2040,
      estimated_duration: 30,
    });
    expect(price.body.discounts).toEqual([expect.objectContaining({ type: 'coupon', code: 'FIRST15', amount: 360 })]);
  });
});
