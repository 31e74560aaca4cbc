// /docs in a real browser: the API reference loads from this server alone (every request the
// page makes is recorded, and any to another host fails the test), and "Try it out" with a
// test key under Authorize lists the account's customers ("Try it out" is on from the start).
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/accounts/index.ts';
import { brightside, newBrowserContext, screenshot, startBrowserScene } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';

const owner = { email: 'owner@docs.example', password: 'correct horse battery staple' };
const scene = startBrowserScene({ app: { workers: false }, user: brightside(owner) });

describe('API reference at /docs', { timeout: 120_000 }, () => {
  it('works offline and its "Try it out" calls the API with a test key', async () => {
    const { key } = await createApiKey(
      scene.t.app.deps,
      { accountId: scene.user.accountId, environment: 'test' },
      'Docs',
    );
    const customer = await apiClient(scene.t.url, key).post('/v1/customers', {
      first_name: 'Dana',
      last_name: 'Docs',
      email: 'dana@docs.example',
    });
    expect(customer.status).toBe(201);

    const context = await newBrowserContext(scene.browser, scene.t.url);
    const page = await context.newPage();
    const elsewhere: string[] = [];
    const origin = new URL(scene.t.url).origin;
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto('/docs');
    await page.getByRole('heading', { name: /Fieldhand API/ }).waitFor();
    await page.getByRole('button', { name: 'Authorize' }).first().click();
    // the dialog offers the API key (bearer) and OAuth 2.0; a test key goes in the first
    const bearer = page
      .locator('.auth-container')
      .filter({ has: page.getByRole('button', { name: 'Apply credentials' }) });
    await bearer.locator('input').fill(key);
    await bearer.getByRole('button', { name: 'Apply credentials' }).click();
    await page.locator('.auth-btn-wrapper .btn-done').first().click();

    const list = page.locator('.opblock-get:has(.opblock-summary-path[data-path="/v1/customers"])').first();
    await list.locator('.opblock-summary').click();
    await list.getByRole('button', { name: 'Execute' }).click();
    const responses = list.locator('.live-responses-table');
    await responses.waitFor();
    expect(await responses.locator('.response .response-col_status').first().innerText()).toBe('200');
    expect(await responses.innerText()).toContain(customer.body.id);
    await screenshot(page, 'api-docs-try-it');

    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
