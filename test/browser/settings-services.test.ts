// Settings > Services in a real browser, at laptop and phone width: the industries list, then
// one industry's page with a product added through its form and archived after confirmation.
// Screenshots: settings-services*.png.
import { beforeAll, describe, expect, it } from 'vitest';
import { demoAccount, expectFitsWidth, screenshot, startBrowserScene } from '../helpers/browser.ts';

const SERVICES = '/dashboard/settings/services';
const scene = startBrowserScene({ app: { workers: false }, user: demoAccount });
beforeAll(async () => {
  await scene.user.account.api.patch('/v1/services/industries/carpet-cleaning', { is_active: false });
});

describe('Settings > Services in a browser', { timeout: 120_000 }, () => {
  for (const size of ['laptop', 'phone'] as const) {
    it(`lists the industries at ${size} width, inactive ones marked`, async () => {
      const page = await scene.signedInPage(size);
      await page.goto(SERVICES);
      await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
      const carpet = page.locator('tr[data-industry="carpet-cleaning"]');
      await expect(carpet.getByText('Inactive').isVisible()).resolves.toBe(true);
      await expectFitsWidth(page);
      await screenshot(page, size === 'laptop' ? 'settings-services' : 'settings-services-phone');
      await page.context().close();
    });
  }

  it('adds a product to a category and archives it after confirmation', async () => {
    const page = await scene.signedInPage('laptop');
    await page.goto(SERVICES);
    await page.getByRole('link', { name: 'Junk Removal' }).click();
    await page.getByRole('heading', { name: 'Add a product' }).waitFor();
    await page.getByLabel('Name', { exact: true }).first().fill('Hot tub');
    await page.getByLabel('Price').first().fill('abc');
    await page.getByLabel('Minutes').first().fill('60');
    await page.getByRole('button', { name: 'Add product' }).click();
    await page.getByText('Enter an amount in dollars').waitFor();
    await page.getByLabel('Price').first().fill('180');
    await page.getByRole('button', { name: 'Add product' }).click();
    await page.getByText('Added.').waitFor();
    const row = page.locator('tr', { hasText: 'Hot tub' });
    await expect(row.getByText('$180.00').isVisible()).resolves.toBe(true);
    await screenshot(page, 'settings-services-industry');

    await row.getByRole('link', { name: 'Archive Hot tub' }).click();
    await page.getByRole('button', { name: 'Archive product' }).click();
    await page.getByText('Archived.').waitFor();
    await expect(page.locator('tr', { hasText: 'Hot tub' }).count()).resolves.toBe(0);
    await page.context().close();
  });
});
