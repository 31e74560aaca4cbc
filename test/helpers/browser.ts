// Headless Chromium (Debian's package) driven by playwright-core, for the dashboard's
// browser tests. CI installs chromium in .ci/run; locally: apt-get install -y chromium.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { createAccount } from '../../src/modules/accounts/index.ts';
import type { TestApp } from './app.ts';
import { screenshotsDir } from './env.ts';

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

/** Saves a screenshot as <name>.png (in docs/screenshots for the README with `npm run screenshots`). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = screenshotsDir();
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** The business the screenshots show, with `owner` as its admin; returns the account id. */
export async function createBrightside(t: TestApp, owner: { email: string; password: string }): Promise<string> {
  const account = await createAccount(t.app.deps, {
    name: 'Brightside Cleaning Co.',
    adminEmail: owner.email,
    adminPassword: owner.password,
    adminName: 'Dana Owner',
  });
  return account.account_id;
}
