// Settings > Zones and Settings > Team in a real browser, at laptop and phone (390 px) width:
// add a zone with pasted ZIPs (and see a bad time zone refused next to its field), add time off
// to a crew member in their zone's time and remove it after confirmation.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addTimeOff, demoAccount, expectFitsWidth, screenshot, startBrowserScene } from '../helpers/browser.ts';

const scene = startBrowserScene({ app: { workers: false }, user: demoAccount });

/** On the phone: the list at `path`, then the item `name` links to, each fitting the width. */
async function phoneListThenItem(phone: Page, path: string, name: string, shots: [string, string]) {
  await phone.goto(path);
  await expectFitsWidth(phone);
  await screenshot(phone, shots[0]);
  await phone.getByRole('link', { name }).click();
  await expectFitsWidth(phone);
  await screenshot(phone, shots[1]);
}

describe('Settings > Zones and Team in a browser', { timeout: 120_000 }, () => {
  it('adds a zone with pasted ZIPs; a bad time zone is shown next to its field', async () => {
    const page = await scene.signedInPage();
    await page.getByRole('link', { name: 'Zones', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Zones', level: 1 })).toBeTruthy();
    await page.getByRole('cell', { name: /Manhattan/ }).waitFor();
    await screenshot(page, 'settings-zones');
    await page.getByRole('link', { name: 'Add zone' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Brooklyn');
    await page.getByLabel('Time zone').fill('America/New_Yrok');
    await page.getByLabel('ZIP codes').fill('11201, 11205\n11211 11215');
    await page.getByRole('checkbox', { name: 'Junk Removal' }).check();
    await page.getByLabel('Monday opens').fill('08:00');
    await page.getByLabel('Monday closes').fill('18:00');
    await page.getByRole('button', { name: 'Add zone' }).click();
    const error = page.locator('#timezone-error');
    await expect(await error.textContent()).toContain('Unknown time zone');
    expect(await page.getByLabel('Time zone').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'settings-zones-error');
    await page.getByLabel('Time zone').fill('America/New_York');
    await page.getByRole('button', { name: 'Add zone' }).click();
    await page.getByText('Zone added.').waitFor();
    await page.getByRole('link', { name: 'Brooklyn' }).click();
    expect(await page.getByLabel('ZIP codes').inputValue()).toBe('11201\n11205\n11211\n11215');
    await screenshot(page, 'settings-zones-edit');

    const phone = await scene.signedInPage('phone');
    await phoneListThenItem(phone, '/dashboard/settings/zones', 'Brooklyn', [
      'settings-zones-phone',
      'settings-zones-edit-phone',
    ]);
    await phone.getByRole('link', { name: 'Archive zone' }).click();
    await phone.getByRole('button', { name: 'Archive zone' }).click();
    await phone.getByText('Zone archived.').waitFor();
    expect(await phone.getByRole('link', { name: 'Brooklyn' }).count()).toBe(0);
  });

  it('adds time off in the zone’s time and removes it after confirmation', async () => {
    const page = await scene.signedInPage();
    await page.goto('/dashboard/settings/team');
    await screenshot(page, 'settings-team');
    await page.getByRole('link', { name: 'Maria Lopez' }).click();
    await page.getByText('Manhattan time (America/New_York)').waitFor();
    await addTimeOff(page, ['2027-03-02', '09:00'], ['2027-03-02', '13:00'], 'Dentist');
    const entry = page.locator('.time-off-list li').first();
    expect(await entry.textContent()).toContain('Mar 2, 2027');
    expect(await entry.textContent()).toContain('09:00 EST');
    await screenshot(page, 'settings-team-member');

    const phone = await scene.signedInPage('phone');
    await phoneListThenItem(phone, '/dashboard/settings/team', 'Maria Lopez', [
      'settings-team-phone',
      'settings-team-member-phone',
    ]);
    await phone
      .getByRole('link', { name: /Remove time off/ })
      .first()
      .click();
    await phone.getByRole('heading', { name: /Remove Maria Lopez's time off/ }).waitFor();
    await screenshot(phone, 'settings-team-remove-phone');
    await phone.getByRole('button', { name: 'Remove time off' }).click();
    await phone.getByText('Time off removed.').waitFor();
    expect(await phone.locator('.time-off-list li').count()).toBe(0);
  });
});
