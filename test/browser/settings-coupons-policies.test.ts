// Settings > Coupons, Policies, Business and Catalog file in a real browser, at laptop and phone
// (390 px) widths: a coupon added and a duplicate code refused next to its field, archived after
// its confirmation step; policies and business details saved; a catalog file with a mistake
// uploaded and its problem listed by line. Screenshots: settings-*.png.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { brightside, expectFitsWidth, fillByLabel, screenshot, startBrowserScene } from '../helpers/browser.ts';
import type { Api } from '../helpers/http.ts';

const owner = { email: 'owner@settings.example', password: 'correct horse battery staple' };
const scene = startBrowserScene({ app: { workers: false }, user: brightside(owner, { demo: true }) });
let api: Api;
beforeAll(async () => {
  api = await scene.testApi();
});

/** Chooses `text` as the catalog file, ticks the confirmation and submits it. */
async function uploadCatalog(page: Page, text: string) {
  await page.getByLabel(/Catalog file \(JSON/).setInputFiles({
    name: 'catalog.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await page.getByRole('checkbox', { name: /Replace the whole test catalog/ }).check();
  await page.getByRole('button', { name: 'Replace test catalog' }).click();
}

describe('Settings pages in a browser', { timeout: 120_000 }, () => {
  it('adds a coupon, refuses a duplicate code next to the field, and archives after confirming', async () => {
    const page = await scene.signedInPage();
    await page.goto('/dashboard');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Coupons' }).click();
    await page.getByRole('heading', { name: 'Coupons', level: 1 }).waitFor();
    await fillByLabel(page, {
      Code: 'SPRING25',
      Description: 'Spring cleaning week',
      'Percent off': '25',
      'Valid until (UTC day, inclusive)': '2030-04-30',
      'Maximum redemptions': '100',
    });
    await page.getByRole('checkbox', { name: 'Residential Cleaning' }).check();
    await page.getByRole('button', { name: 'Add coupon' }).click();
    await page.getByText('Coupon added.').waitFor();
    const row = page.locator('tr', { hasText: 'SPRING25' });
    await expect(row.innerText()).resolves.toContain('25% off');
    await screenshot(page, 'settings-coupons');

    await page.getByLabel('Code').fill('spring25');
    await page.getByLabel('Amount off (USD)').fill('5');
    await page.getByRole('button', { name: 'Add coupon' }).click();
    const error = page.locator('#code-error');
    await expect(error.innerText()).resolves.toMatch(/already exists/);
    await expect(page.getByLabel('Code').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'settings-coupons-duplicate');

    await page.getByRole('link', { name: 'Edit SPRING25' }).click();
    await page.getByRole('link', { name: 'Archive…' }).click();
    await page.getByRole('heading', { name: 'Archive SPRING25?' }).waitFor();
    await screenshot(page, 'settings-coupons-archive');
    await page.getByRole('button', { name: 'Archive coupon' }).click();
    await page.getByText('Coupon archived.').waitFor();
    await expect(page.locator('tr', { hasText: 'SPRING25' }).count()).resolves.toBe(0);

    const phone = await scene.signedInPage('phone');
    await phone.goto('/dashboard/settings/coupons');
    await phone.getByRole('heading', { name: 'Coupons', level: 1 }).waitFor();
    await expectFitsWidth(phone);
    await screenshot(phone, 'settings-coupons-phone');
  });

  it('saves the policies and the business details', async () => {
    const page = await scene.signedInPage();
    await page.goto('/dashboard/settings/policies');
    await page.getByLabel('Weekly').fill('22.5');
    await page.getByLabel('Free cancellation up to (hours before)').fill('36');
    await page.getByRole('button', { name: 'Save policies' }).click();
    await page.getByText('Policies saved.').waitFor();
    expect((await api.get('/v1/settings')).body.frequency_discounts.weekly).toBe(22.5);
    await screenshot(page, 'settings-policies');
    await page.getByLabel('Monthly').fill('150');
    await page.getByRole('button', { name: 'Save policies' }).click();
    await page.locator('[id="frequency_discounts.monthly-error"]').waitFor();
    await screenshot(page, 'settings-policies-error');

    await page.goto('/dashboard/settings/business');
    await fillByLabel(page, {
      'Business name': 'Brightside Cleaning',
      'E-mail': 'hello@brightside.example',
      Phone: '+1 212 555 0142',
    });
    await page.getByLabel('Currency').selectOption('usd');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Business details saved.').waitFor();
    expect((await api.get('/v1/settings')).body.business).toEqual({
      name: 'Brightside Cleaning',
      email: 'hello@brightside.example',
      phone: '+1 212 555 0142',
    });
    await screenshot(page, 'settings-business');

    const phone = await scene.signedInPage('phone');
    for (const [path, name] of [
      ['/dashboard/settings/policies', 'settings-policies-phone'],
      ['/dashboard/settings/business', 'settings-business-phone'],
    ] as const) {
      await phone.goto(path);
      await phone.getByRole('heading', { level: 1 }).waitFor();
      await expectFitsWidth(phone);
      await screenshot(phone, name);
    }
  });

  it('downloads the catalog file, and lists the problem of an upload with a mistake by line', async () => {
    const page = await scene.signedInPage();
    await page.goto('/dashboard/settings/catalog-file');
    await screenshot(page, 'settings-catalog-file');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download test catalog' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^fieldhand-catalog-test-\d{4}-\d{2}-\d{2}\.json$/);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const exported = Buffer.concat(chunks).toString('utf8');
    expect(JSON.parse(exported).format).toBe('fieldhand-catalog/1');

    const broken = exported.replace('"timezone": "America/New_York"', '"timezone": "America/Gotham"');
    const line = broken.split('\n').findIndex((text) => text.includes('America/Gotham')) + 1;
    await uploadCatalog(page, broken);
    const problems = page.locator('#import-problems');
    await problems.waitFor();
    await expect(problems.innerText()).resolves.toContain('unknown timezone America/Gotham');
    await expect(problems.locator('tbody tr').first().locator('td').first().innerText()).resolves.toBe(String(line));
    await screenshot(page, 'settings-catalog-file-problems');

    const phone = await scene.signedInPage('phone');
    await phone.goto('/dashboard/settings/catalog-file');
    await uploadCatalog(phone, broken);
    await phone.locator('#import-problems').waitFor();
    await expectFitsWidth(phone);
    await screenshot(phone, 'settings-catalog-file-problems-phone');

    await uploadCatalog(page, exported);
    await page.locator('#import-summary').waitFor();
    await screenshot(page, 'settings-catalog-file-imported');
  });
});
