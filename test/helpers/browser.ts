// Headless Chromium (Debian's package) driven by playwright-core, for the dashboard's
// browser tests. CI installs chromium in .ci/run; locally: apt-get install -y chromium.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAccount, createApiKey } from '../../src/modules/accounts/index.ts';
import { seedDemoEnvironment } from '../../src/modules/demo/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './app.ts';
import { screenshotsDir } from './env.ts';
import { type Api, apiClient } from './http.ts';

export const CHROMIUM = '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: run apt-get install -y chromium (see .ci/run).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

let addressCounter = 0;

/**
 * A fresh browser profile (no cookies) at a laptop or phone size. Each context signs in from
 * its own X-Forwarded-For address, so the login throttle of one test cannot lock another.
 */
export async function newBrowserContext(
  browser: Browser,
  baseURL: string,
  size: 'laptop' | 'phone' = 'laptop',
): Promise<BrowserContext> {
  addressCounter += 1;
  const context = await browser.newContext({
    baseURL,
    viewport: size === 'laptop' ? { width: 1280, height: 800 } : { width: 390, height: 844 },
    deviceScaleFactor: size === 'phone' ? 2 : 1,
    isMobile: size === 'phone',
    hasTouch: size === 'phone',
    extraHTTPHeaders: { 'x-forwarded-for': `10.200.0.${addressCounter % 250}` },
  });
  context.setDefaultTimeout(15_000);
  return context;
}

export async function signInThroughPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/dashboard/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/dashboard/login'));
}

/** A new page in a context of its own (its own client address), signed in as `user`. */
export async function signedInPage(
  browser: Browser,
  baseURL: string,
  user: { email: string; password: string },
  size: 'laptop' | 'phone' = 'laptop',
): Promise<Page> {
  const context = await newBrowserContext(browser, baseURL, size);
  const page = await context.newPage();
  await signInThroughPage(page, user.email, user.password);
  return page;
}

/** Fills each field found by its label text with its value, in order. */
export async function fillByLabel(page: Page, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label).fill(value);
}

/** On a crew member's page: adds time off from `from` to `until` ([date, time] in the zone's time). */
export async function addTimeOff(page: Page, from: [string, string], until: [string, string], reason: string) {
  await fillByLabel(page, {
    'From date': from[0],
    'From time': from[1],
    'Until date': until[0],
    'Until time': until[1],
    'Reason (optional)': reason,
  });
  await page.getByRole('button', { name: 'Add time off' }).click();
  await page.getByText('Time off added.').waitFor();
}

/** Waits for the page's `heading`, then expects its main region to show each of `texts`. */
export async function expectMainShows(page: Page, heading: string, texts: string[]): Promise<void> {
  await page.getByRole('heading', { name: heading }).waitFor();
  const main = await page.locator('main').innerText();
  for (const text of texts) expect(main).toContain(text);
}

/** Nothing scrolls sideways: the page is no wider than the window (390 px on a phone). */
export async function expectFitsWidth(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  expect(scrollWidth).toBeLessThanOrEqual(page.viewportSize()?.width ?? innerWidth);
}

/** Saves a screenshot as <name>.png (in docs/screenshots for the README with `npm run screenshots`). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = screenshotsDir();
  fs.mkdirSync(dir, { recursive: true });
  // Chromium now and then answers "Unable to capture screenshot" on a busy machine (a compositor
  // frame not ready): the page is fine, so the capture is tried again
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true, animations: 'disabled' });
      return;
    } catch (error) {
      if (attempt >= 3 || !/Unable to capture screenshot/.test(String(error))) throw error;
      await page.waitForTimeout(250);
    }
  }
}

/**
 * The business the screenshots show, with `owner` as its admin (and, with `demo`, the demo
 * catalog in its test environment); returns the account id.
 */
export async function createBrightside(
  t: TestApp,
  owner: { email: string; password: string },
  options: { demo?: boolean } = {},
): Promise<string> {
  const account = await createAccount(
    t.app.deps,
    {
      name: 'Brightside Cleaning Co.',
      adminEmail: owner.email,
      adminPassword: owner.password,
      adminName: 'Dana Owner',
    },
    options.demo ? seedDemoEnvironment : undefined,
  );
  return account.account_id;
}

export type PageSize = 'laptop' | 'phone';

/** Who the scene's pages sign in as. */
export interface SceneUser {
  accountId: string;
  email: string;
  password: string;
}

export interface BrowserScene<U extends SceneUser = SceneUser> {
  t: TestApp;
  browser: Browser;
  user: U;
  /** A new page in a context of its own, signed in as the scene's user. */
  signedInPage(size?: PageSize): Promise<Page>;
  /** An API client on a new key (named `name`) of the user's account, test environment. */
  testApi(name?: string): Promise<Api>;
}

/** For `startBrowserScene`: the Brightside business with `owner` as its admin (`demo`: with the demo catalog). */
export function brightside(owner: { email: string; password: string }, options: { demo?: boolean } = {}) {
  return async (t: TestApp): Promise<SceneUser> => ({ accountId: await createBrightside(t, owner, options), ...owner });
}

/** For `startBrowserScene`: a fresh test account with the demo catalog (`user.account`), its admin signing in. */
export async function demoAccount(t: TestApp): Promise<SceneUser & { account: TestAccount }> {
  const account = await createTestAccount(t, { demo: true });
  return { accountId: account.accountId, email: account.adminEmail, password: account.adminPassword, account };
}

/**
 * A browser test file's setup: registers the `beforeAll` that starts a server (`app` options),
 * Chromium and the account `user(t)` makes, and the `afterAll` that closes them. Read the
 * scene's fields inside tests and hooks, not at the top of the file.
 */
export function startBrowserScene<U extends SceneUser>(options: {
  app?: Parameters<typeof startTestApp>[0];
  user: (t: TestApp) => Promise<U>;
}): BrowserScene<U> {
  const scene: BrowserScene<U> = {
    t: undefined as unknown as TestApp,
    browser: undefined as unknown as Browser,
    user: undefined as unknown as U,
    signedInPage: (size) => signedInPage(scene.browser, scene.t.url, scene.user, size),
    testApi: async (name) => {
      const key = await createApiKey(scene.t.app.deps, { accountId: scene.user.accountId, environment: 'test' }, name);
      return apiClient(scene.t.url, key.key);
    },
  };
  beforeAll(async () => {
    scene.t = await startTestApp(options.app);
    scene.browser = await launchBrowser();
    scene.user = await options.user(scene.t);
  });
  afterAll(async () => {
    await scene.browser?.close();
    await scene.t?.close();
  });
  return scene;
}
