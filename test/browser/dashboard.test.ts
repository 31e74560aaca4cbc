// The dashboard in a real browser: sign-in, API keys end to end, the test/live switch, CSRF
// and login throttling. Screenshots of the Integrations pages go to docs/screenshots.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { query, sql } from '../../src/core/db.ts';
import { createAccount, createApiKey } from '../../src/modules/accounts/index.ts';
import { DEVICE_COOKIE, SIGN_IN_LIMITS } from '../../src/modules/sessions/index.ts';
import { brightside, newBrowserContext, screenshot, signInThroughPage, startBrowserScene } from '../helpers/browser.ts';
import { formClient } from '../helpers/forms.ts';
import { apiClient } from '../helpers/http.ts';

const KEYS_PAGE = '/dashboard/settings/integrations/api-keys';

const owner = { email: 'owner@brightside.example', password: 'correct horse battery staple' };
const scene = startBrowserScene({ user: brightside(owner) });

async function generateKey(page: Page, name: string, environment: 'Test' | 'Live', shot?: string): Promise<string> {
  await page.goto(KEYS_PAGE);
  await page.getByRole('link', { name: 'Generate New Key' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('radio', { name: new RegExp(`^${environment}`) }).check();
  if (shot) await screenshot(page, `${shot}-form`);
  await page.getByRole('button', { name: 'Generate key' }).click();
  const field = page.getByLabel('Secret key');
  await field.waitFor();
  const key = await field.inputValue();
  if (shot) await screenshot(page, `${shot}-shown-once`);
  return key;
}

// A browser on a busy machine is slow: these tests get more time than the default.
describe('dashboard in a browser', { timeout: 90_000 }, () => {
  it('signs in, generates a test key that works on the API, revokes it, and the API answers 401', async () => {
    const page = await scene.signedInPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: scene.t.url });
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Brightside Cleaning Co.' }).waitFor();
    await screenshot(page, 'overview');

    const key = await generateKey(page, 'Website booking form', 'Test', 'api-keys-generate');
    expect(key).toMatch(/^svc_test_sk_[0-9A-Za-z]{32}$/);

    // The copy button puts the key on the clipboard.
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const api = apiClient(scene.t.url, key);
    const before = await api.get('/v1/customers');
    expect(before.status).toBe(200);

    // The key is shown once: the list shows only its last four characters.
    await page.getByRole('link', { name: 'Done' }).click();
    const row = page.locator('tr', { hasText: 'Website booking form' });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain(key.slice(-4));
    expect(await page.content()).not.toContain(key);
    await screenshot(page, 'api-keys');

    await row.getByRole('link', { name: /Revoke/ }).click();
    await page.getByRole('button', { name: 'Revoke key' }).waitFor();
    await screenshot(page, 'api-keys-revoke');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('The key was revoked.').waitFor();
    await expect(page.locator('tr', { hasText: 'Website booking form' }).innerText()).resolves.toContain('Revoked');

    const after = await api.get('/v1/customers');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_credentials');
  });

  it('the live/test switch hides the other environment’s keys and data', async () => {
    const page = await scene.signedInPage();
    await createApiKey(scene.t.app.deps, { accountId: scene.user.accountId, environment: 'live' }, 'Production server');
    await createApiKey(scene.t.app.deps, { accountId: scene.user.accountId, environment: 'test' }, 'Staging server');
    const testKey = (
      await createApiKey(scene.t.app.deps, { accountId: scene.user.accountId, environment: 'test' }, 'Seeder')
    ).key;
    const customer = await apiClient(scene.t.url, testKey).post('/v1/customers', {
      first_name: 'Tessa',
      last_name: 'Testmode',
      email: 'tessa@example.com',
      address: { street: '1 Test Way', city: 'New York', state: 'NY', zip: '10001' },
    });
    expect(customer.status).toBe(201);

    await page.goto(KEYS_PAGE);
    await page.getByText('Test mode: you are viewing test data').waitFor();
    const table = page.locator('table');
    await expect(table.innerText()).resolves.toContain('Staging server');
    await expect(table.innerText()).resolves.not.toContain('Production server');

    await page.getByRole('button', { name: 'Live', exact: true }).click();
    await page.waitForSelector('button[value="live"][aria-pressed="true"]');
    expect(new URL(page.url()).pathname).toBe(KEYS_PAGE);
    await expect(page.locator('table').innerText()).resolves.toContain('Production server');
    await expect(page.locator('table').innerText()).resolves.not.toContain('Staging server');
    expect(await page.getByText('Test mode: you are viewing test data').count()).toBe(0);
    await screenshot(page, 'api-keys-live');

    // Data too: the test customer is not in live, and its page is not found there.
    await page.goto('/dashboard/customers');
    await page.getByText('No customers found').waitFor();
    const detail = await page.goto(`/dashboard/customers/${customer.body.id}`);
    expect(detail?.status()).toBe(404);

    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.waitForSelector('button[value="test"][aria-pressed="true"]');
    expect(new URL(page.url()).pathname).toBe('/dashboard/customers');
    await page.getByRole('link', { name: 'Tessa Testmode' }).click();
    await page.getByRole('heading', { name: 'Addresses' }).waitFor();
    await expect(page.locator('main').innerText()).resolves.toContain('1 Test Way');
    await screenshot(page, 'customer');

    await page.goto('/dashboard/customers?search=tessa');
    await page.getByRole('link', { name: 'Tessa Testmode' }).waitFor();
    await page.goto('/dashboard/customers?search=nobody-like-this');
    await page.getByText('No customers found').waitFor();

    // The e-mail outbox shows the invitation that customer was sent (kept: no SMTP here).
    await page.getByRole('link', { name: 'E-mail outbox' }).click();
    await page.locator('tr', { hasText: 'tessa@example.com' }).waitFor();
    await expect(page.locator('tr', { hasText: 'tessa@example.com' }).innerText()).resolves.toContain('kept');
  });

  it('refuses a form posted without the CSRF token', async () => {
    const page = await scene.signedInPage();
    await page.goto(`${KEYS_PAGE}/new`);
    await page.getByLabel('Name').fill('Forged key');
    await page.locator('#new-key-form input[name="_csrf"]').evaluate((input) => input.remove());
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.request().method() === 'POST'),
      page.getByRole('button', { name: 'Generate key' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await page.getByRole('heading', { name: 'Request refused' }).waitFor();
    const keys = await query(
      scene.t.database.sql,
      sql`select 1 from api_keys where account_id = ${scene.user.accountId} and name = 'Forged key'`,
    );
    expect(keys).toEqual([]);
  });

  it('pauses sign-in after five wrong passwords', async () => {
    const context = await newBrowserContext(scene.browser, scene.t.url);
    const page = await context.newPage();
    const victim = await createAccount(scene.t.app.deps, {
      name: 'Throttled Co',
      adminEmail: 'throttled@example.com',
      adminPassword: 'the right password',
    });
    expect(victim.account_id).toMatch(/^acct_/);
    await page.goto('/dashboard/login');
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel('E-mail').fill('throttled@example.com');
      await page.getByLabel('Password').fill(`wrong password ${attempt}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      if (attempt < 5) await expect(page.getByRole('alert').innerText()).resolves.toContain('do not match');
    }
    await expect(page.getByRole('alert').innerText()).resolves.toContain('Too many failed sign-in attempts');
    await page.getByLabel('Password').fill('the right password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('Too many failed sign-in attempts');
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    await screenshot(page, 'login-throttled');
  });

  it('still signs in the browser that signed in before while its e-mail is attacked from elsewhere', async () => {
    const admin = { email: 'attacked@brightside.example', password: 'the admin password' };
    await createAccount(scene.t.app.deps, {
      name: 'Attacked Co',
      adminEmail: admin.email,
      adminPassword: admin.password,
    });
    const context = await newBrowserContext(scene.browser, scene.t.url);
    const page = await context.newPage();
    await signInThroughPage(page, admin.email, admin.password);
    const device = (await context.cookies()).find((cookie) => cookie.name === DEVICE_COOKIE);
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard/login' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.searchParams.has('signed_out'));

    // Guesses from many addresses, until new browsers are paused for this e-mail everywhere.
    const perAddress = SIGN_IN_LIMITS.emailAtAddress;
    for (let n = 1; n <= Math.ceil(SIGN_IN_LIMITS.emailFromNewBrowsers / perAddress); n++) {
      const attacker = formClient(scene.t.url, { 'x-forwarded-for': `10.199.1.${n}` });
      for (let attempt = 1; attempt <= perAddress; attempt++) await attacker.signIn(admin.email, `guess ${attempt}`);
    }
    const stranger = await (await newBrowserContext(scene.browser, scene.t.url)).newPage();
    await stranger.goto('/dashboard/login');
    await stranger.getByLabel('E-mail').fill(admin.email);
    await stranger.getByLabel('Password').fill(admin.password);
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await expect(stranger.getByRole('alert').innerText()).resolves.toContain('Too many failed sign-in attempts');

    // The admin's own browser is not paused.
    await signInThroughPage(page, admin.email, admin.password);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Attacked Co' }).waitFor();
  });

  // OAuth Apps, Webhooks and Connected apps are photographed with data in integrations.test.ts.
  it('takes screenshots of the phone layout and the login page', async () => {
    const phone = await scene.signedInPage('phone');
    await phone.goto(KEYS_PAGE);
    await phone.getByRole('link', { name: 'Generate New Key' }).waitFor();
    await screenshot(phone, 'api-keys-phone');
    const login = await (await newBrowserContext(scene.browser, scene.t.url)).newPage();
    await login.goto('/dashboard/login');
    await screenshot(login, 'login');
  });
});
