// Settings > Integrations in a real browser: a webhook endpoint pointed at a local receiver with
// Send Test and its delivery in the detail view; an OAuth app registered with a logo, then the
// authorization-code flow through the consent page and the code exchanged; the grant shown and
// revoked under Connected apps; an invoice. Screenshots go to docs/screenshots.
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/accounts/index.ts';
import { newCustomer, newInvoice } from '../helpers/billing.ts';
import { brightside, expectMainShows, screenshot, startBrowserScene } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { bearerGet, postForm } from '../helpers/oauth.ts';
import { type Receiver, startReceiver } from '../helpers/webhooks.ts';

const INTEGRATIONS = '/dashboard/settings/integrations';
const CALLBACK = 'https://planner.example.com/oauth/callback';
// 16×16 PNG, a green square
const LOGO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAHklEQVR42mMwTPcmCTGMahjVMKphVMOohlENwwYDACKgaXFpwCbIAAAAAElFTkSuQmCC',
  'base64',
);

const owner = { email: 'owner@integrations.example', password: 'correct horse battery staple' };
const scene = startBrowserScene({ app: { workers: false }, user: brightside(owner) });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  return () => receiver.close();
});

describe('Integrations in a browser', { timeout: 120_000 }, () => {
  it('adds a webhook pointing at a local receiver, sends a test, and the detail view shows it succeeded', async () => {
    const page = await scene.signedInPage();
    await page.goto(`${INTEGRATIONS}/webhooks`);
    await page.getByRole('link', { name: 'Add Endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/fieldhand`);
    await page.getByLabel('Description').fill('Office scheduling system');
    await page.getByRole('checkbox', { name: /All booking events/ }).check();
    await page.getByRole('checkbox', { name: 'invoice.paid' }).check();
    await screenshot(page, 'webhooks-add');
    await page.getByRole('button', { name: 'Create' }).click();

    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, 'webhooks-secret');
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Recent deliveries' }).waitFor();

    await page.getByRole('button', { name: 'Send Test' }).click();
    await page.getByText('A test event was queued').waitFor();
    expect(await scene.t.app.workers.deliveries.runOnce()).toBe(1);
    await page.getByRole('link', { name: 'Refresh' }).click();
    const row = page.locator('tbody tr', { hasText: 'Succeeded' }).first();
    await row.waitFor();
    await expect(row.locator('[data-label="Response code"]').innerText()).resolves.toBe('200');
    await expect(row.innerText()).resolves.toContain('booking.created');
    const received = receiver.received.find((request) => request.path === '/fieldhand');
    expect(received?.json.test).toBe(true);
    expect(received?.headers['webhook-signature']).toMatch(/^v1,/);
    await screenshot(page, 'webhooks-detail');
    const phone = await scene.signedInPage('phone');
    await phone.goto(page.url());
    await phone.getByRole('button', { name: 'Send Test' }).waitFor();
    await screenshot(phone, 'webhooks-detail-phone');

    await page.goto(`${INTEGRATIONS}/webhooks`);
    await page.locator('tr', { hasText: `${receiver.url}/fieldhand` }).waitFor();
    await screenshot(page, 'webhooks');
  });

  it('registers an OAuth app, runs the authorization-code flow through the consent page, and exchanges the code', async () => {
    const page = await scene.signedInPage();
    await page.goto(`${INTEGRATIONS}/oauth-apps`);
    await page.getByRole('link', { name: 'Register app' }).click();
    await page.getByLabel('Name').fill('Route Planner');
    await page.getByLabel('Description').fill('Plans the best route for each crew, every morning.');
    await page.getByLabel('Redirect URIs').fill(CALLBACK);
    await page.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO });
    await page.getByRole('radio', { name: /^Confidential/ }).check();
    await screenshot(page, 'oauth-apps-register');
    await page.getByRole('button', { name: 'Register app' }).click();

    const clientId = await page.getByLabel('Client ID').inputValue();
    const clientSecret = await page.getByLabel('Client secret').inputValue();
    expect(clientId).toMatch(/^app_/);
    expect(clientSecret).toMatch(/^svc_cs_/);
    await screenshot(page, 'oauth-apps-secret');
    await page.getByRole('link', { name: 'Done' }).click();
    await page.getByRole('heading', { name: 'Edit app' }).waitFor();
    expect(await page.content()).not.toContain(clientSecret);
    await page.goto(`${INTEGRATIONS}/oauth-apps`);
    await page.locator('tr', { hasText: 'Route Planner' }).locator('img.app-logo').waitFor();
    await screenshot(page, 'oauth-apps');

    // The app sends the user to the authorization endpoint (PKCE as well as the secret).
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL('/oauth/authorize', scene.t.url);
    for (const [name, value] of Object.entries({
      client_id: clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'customers:read bookings:read',
      state: 'xyz-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })) {
      authorize.searchParams.set(name, value);
    }
    // The app's callback is not reachable from here: answer it in the browser and keep the URL.
    let callbackUrl: URL | undefined;
    await page.context().route(`${CALLBACK}**`, async (route) => {
      callbackUrl = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Connected' });
    });
    await page.goto(authorize.toString());
    await page.getByRole('heading', { name: 'Route Planner wants to access your Fieldhand account' }).waitFor();
    await expect(page.locator('#consent-scopes').innerText()).resolves.toContain('See your customers');
    await page.locator('main img.app-logo').waitFor();
    await screenshot(page, 'oauth-consent');
    await page.getByRole('button', { name: 'Allow access' }).click();
    await page.getByText('Connected').waitFor();
    expect(callbackUrl?.searchParams.get('state')).toBe('xyz-state');
    expect(callbackUrl?.searchParams.get('iss')).toBeTruthy();
    const code = callbackUrl?.searchParams.get('code') as string;
    expect(code).toBeTruthy();

    // The app's server exchanges the code, then calls the API.
    const tokens = await postForm(
      scene.t,
      '/oauth/token',
      { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
      { id: clientId, secret: clientSecret },
    );
    expect(tokens.status).toBe(200);
    expect(tokens.body.access_token).toMatch(/^svc_at_/);
    expect(tokens.body.scope).toBe('bookings:read customers:read');
    expect((await bearerGet(scene.t, tokens.body.access_token, '/v1/customers')).status).toBe(200);

    // The user sees the app under Connected apps and revokes it; its token stops working.
    await page.goto(`${INTEGRATIONS}/connected-apps`);
    const card = page.locator('li.grant', { hasText: 'Route Planner' });
    await card.waitFor();
    await screenshot(page, 'connected-apps');
    await card.getByRole('link', { name: /Revoke access/ }).click();
    await page.getByRole('button', { name: 'Revoke access' }).click();
    await page.getByText('Access was revoked.').waitFor();
    expect((await bearerGet(scene.t, tokens.body.access_token, '/v1/customers')).status).toBe(401);
  });

  it('shows an invoice with its line items and payments', async () => {
    const key = (
      await createApiKey(scene.t.app.deps, { accountId: scene.user.accountId, environment: 'test' }, 'Seeder')
    ).key;
    const api = apiClient(scene.t.url, key);
    const customer = await newCustomer(api, { first_name: 'Maria', last_name: 'Lopez' });
    const invoice = await newInvoice(api, customer.id, { tax_rate: 8.875 });
    expect((await api.post(`/v1/invoices/${invoice.id}/pay`, { method: 'check', amount: 5000 })).status).toBe(200);
    await newInvoice(api, customer.id, { draft: true });

    const page = await scene.signedInPage();
    await page.getByRole('link', { name: 'Invoices' }).click();
    await page.getByRole('link', { name: invoice.number }).waitFor();
    await screenshot(page, 'invoices');
    await page.getByLabel('Status').selectOption('draft');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: 'Draft' }).waitFor();
    expect(await page.getByRole('link', { name: invoice.number }).count()).toBe(0);

    await page.goto(`/dashboard/invoices/${invoice.id}`);
    await expectMainShows(page, 'Line items', ['Standard clean', 'Check', '$50.00']);
    await screenshot(page, 'invoice');
  });
});
