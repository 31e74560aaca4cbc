// A tiny browser stand-in for page tests: keeps cookies, submits forms, reads CSRF tokens.
import { expect } from 'vitest';
import { startWithAccount, type TestAccount, type TestApp } from './app.ts';

export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Location header of a redirect. */
  location: string | null;
}

export interface FormClient {
  cookies: Map<string, string>;
  get(path: string): Promise<PageResponse>;
  post(path: string, fields: Record<string, string | string[]>): Promise<PageResponse>;
  /** Posts multipart/form-data, as a form with a file input does. */
  postMultipart(path: string, form: FormData): Promise<PageResponse>;
  /** Loads the login page and signs in; returns the sign-in response. */
  signIn(email: string, password: string, next?: string): Promise<PageResponse>;
}

/** The value of the first hidden `_csrf` field in a page. */
export function csrfFrom(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match?.[1]) throw new Error('no _csrf field in the page');
  return match[1];
}

export function formClient(baseUrl: string, headers: Record<string, string> = {}): FormClient {
  const cookies = new Map<string, string>();
  const request = async (path: string, init: RequestInit): Promise<PageResponse> => {
    const requestHeaders = new Headers({ ...headers, ...(init.headers as Record<string, string> | undefined) });
    if (cookies.size > 0) {
      requestHeaders.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    }
    const response = await fetch(baseUrl + path, { ...init, headers: requestHeaders, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get('location'),
    };
  };
  const client: FormClient = {
    cookies,
    get: (path) => request(path, { method: 'GET' }),
    post: (path, fields) => {
      const body = new URLSearchParams();
      for (const [name, value] of Object.entries(fields)) {
        for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
      }
      return request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
    },
    postMultipart: (path, form) => request(path, { method: 'POST', body: form }),
    async signIn(email, password, next) {
      const page = await client.get(`/dashboard/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
      return client.post('/dashboard/login', {
        _csrf: csrfFrom(page.text),
        email,
        password,
        ...(next ? { next } : {}),
      });
    },
  };
  return client;
}

let signInAddress = 0;

/**
 * A form client signed in as the account's admin. Each comes from an X-Forwarded-For address of
 * its own, so the sign-ins of one test never add up to another's login throttle.
 */
export async function signedInClient(
  baseUrl: string,
  admin: { adminEmail: string; adminPassword: string },
): Promise<FormClient> {
  signInAddress += 1;
  const address = `10.20.${Math.floor(signInAddress / 250)}.${(signInAddress % 250) + 1}`;
  const client = formClient(baseUrl, { 'x-forwarded-for': address });
  const res = await client.signIn(admin.adminEmail, admin.adminPassword);
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}, not 303`);
  return client;
}

/** The CSRF token of the client's session, from the dashboard's home page. */
export async function csrfOf(client: FormClient): Promise<string> {
  return csrfFrom((await client.get('/dashboard')).text);
}

/**
 * A server and a demo account whose admin is signed in to the dashboard, with the session's CSRF
 * token, for the page tests of one file: `({ t, acct, browser, csrf } = await startSignedIn())`.
 */
export async function startSignedIn(
  options: Parameters<typeof startWithAccount>[0] = {},
): Promise<{ t: TestApp; acct: TestAccount; browser: FormClient; csrf: string }> {
  const { t, acct } = await startWithAccount(options, { demo: true });
  const browser = await signedInClient(t.url, acct);
  return { t, acct, browser, csrf: await csrfOf(browser) };
}

/** The text of the field error a dashboard page shows under the field named `name`, if any. */
export function errorNextTo(page: string, name: string): string | undefined {
  return new RegExp(
    `<span class="field-error" id="${name.replace(/\./g, '\\.')}-error" role="alert">([^<]*)</span>`,
  ).exec(page)?.[1];
}

/** Markup a user could type into a name or description, and how a page must show it. */
export const HOSTILE = '<img src=x onerror=alert(1)>';
export const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';

/** Each page at `paths` shows HOSTILE escaped, never as markup. */
export async function expectEscaped(browser: FormClient, paths: string[]): Promise<void> {
  for (const path of paths) {
    const page = await browser.get(path);
    expect(page.text).not.toContain(HOSTILE);
    expect(page.text).toContain(ESCAPED);
  }
}
