// Dashboard pages over HTTP (the browser tests in test/browser cover the same flows in Chromium).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createApiKey } from '../src/modules/accounts/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { newCustomer } from './helpers/billing.ts';
import { csrfFrom, formClient, signedInClient } from './helpers/forms.ts';

const KEYS = '/dashboard/settings/integrations/api-keys';
let t: TestApp;
let acct: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  acct = await createTestAccount(t);
  other = await createTestAccount(t);
});
afterAll(() => t.close());

const signedIn = (account: TestAccount) => signedInClient(t.url, account);

describe('dashboard pages', () => {
  it('sends visitors without a session to the login page, and back after signing in', async () => {
    const browser = formClient(t.url, { 'x-forwarded-for': '10.5.1.1' });
    for (const path of ['/dashboard', KEYS, '/dashboard/customers?search=a', '/dashboard/emails', '/dashboard/nope']) {
      const res = await browser.get(path);
      expect(res.status).toBe(303);
      expect(res.location).toBe(`/dashboard/login?next=${encodeURIComponent(path)}`);
    }
    const res = await browser.signIn(acct.adminEmail, acct.adminPassword, '/dashboard/customers?search=a');
    expect(res.location).toBe('/dashboard/customers?search=a');
    expect((await browser.get('/dashboard/customers?search=a')).status).toBe(200);
    expect((await browser.get('/dashboard/nope')).status).toBe(404);
    // signed in, the login page goes straight on
    expect((await browser.get('/dashboard/login?next=/dashboard/emails')).location).toBe('/dashboard/emails');
  });

  it('generates a key once through the accounts service, and lists only its last four characters', async () => {
    const browser = await signedIn(acct);
    const form = await browser.get(`${KEYS}/new`);
    const created = await browser.post(KEYS, { _csrf: csrfFrom(form.text), name: 'Reporting', environment: 'live' });
    expect(created.status).toBe(201);
    const key = /value="(svc_live_sk_[0-9A-Za-z]{32})"/.exec(created.text)?.[1];
    expect(key).toBeDefined();
    const rows = await query<{ name: string; environment: string; last4: string }>(
      t.database.sql,
      sql`select name, environment, last4 from api_keys where account_id = ${acct.accountId} and name = 'Reporting'`,
    );
    expect(rows).toEqual([{ name: 'Reporting', environment: 'live', last4: key!.slice(-4) }]);
    expect(
      (await t.app.server.inject({ url: '/v1/customers', headers: { authorization: `Bearer ${key}` } })).statusCode,
    ).toBe(200);

    // The session still shows test; the live key appears once the switch says live.
    expect((await browser.get(KEYS)).text).not.toContain('Reporting');
    await browser.post('/dashboard/environment', { _csrf: csrfFrom(form.text), environment: 'live', next: KEYS });
    const list = await browser.get(KEYS);
    expect(list.text).toContain('Reporting');
    expect(list.text).toContain(key!.slice(-4));
    expect(list.text).not.toContain(key!);
  });

  it('validates the new key form and keeps what was typed', async () => {
    const browser = await signedIn(acct);
    const csrf = csrfFrom((await browser.get(`${KEYS}/new`)).text);
    const noName = await browser.post(KEYS, { _csrf: csrf, name: '  ', environment: 'test' });
    expect(noName.status).toBe(400);
    expect(noName.text).toContain('Give the key a name.');
    const badEnvironment = await browser.post(KEYS, { _csrf: csrf, name: 'Keep me', environment: 'staging' });
    expect(badEnvironment.status).toBe(400);
    expect(badEnvironment.text).toContain('value="Keep me"');
  });

  it('revokes only keys of its own account and of the environment on screen', async () => {
    const browser = await signedIn(acct);
    const csrf = csrfFrom((await browser.get(KEYS)).text);
    const foreign = await createApiKey(t.app.deps, other.tenant('test'), 'Not yours');
    const live = await createApiKey(t.app.deps, acct.tenant('live'), 'Live, not on screen');
    for (const id of [foreign.id, live.id, 'key_000000000000000000000000']) {
      expect((await browser.get(`${KEYS}/${id}/revoke`)).status).toBe(404);
      expect((await browser.post(`${KEYS}/${id}/revoke`, { _csrf: csrf })).status).toBe(404);
    }
    const revoked = await query(
      t.database.sql,
      sql`select id from api_keys where id in (${foreign.id}, ${live.id}) and revoked_at is not null`,
    );
    expect(revoked).toEqual([]);

    const mine = await createApiKey(t.app.deps, acct.tenant('test'), 'Mine');
    expect((await browser.post(`${KEYS}/${mine.id}/revoke`, {})).status).toBe(403);
    const confirm = await browser.get(`${KEYS}/${mine.id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Revoke “Mine”?');
    const done = await browser.post(`${KEYS}/${mine.id}/revoke`, { _csrf: csrfFrom(confirm.text) });
    expect(done.status).toBe(303);
    expect(
      (await t.app.server.inject({ url: '/v1/customers', headers: { authorization: `Bearer ${mine.key}` } }))
        .statusCode,
    ).toBe(401);
  });

  it('escapes what customers and key names contain', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const customer = await acct.api.post('/v1/customers', {
      first_name: hostile,
      last_name: '"Quote\'',
      email: 'hostile@example.com',
      address: {
        street: '<b>1</b> Main',
        city: 'NYC',
        state: 'NY',
        zip: '10001',
        access_notes: '</p><script>x</script>',
      },
    });
    expect(customer.status).toBe(201);
    await createApiKey(t.app.deps, acct.tenant('test'), '<script>alert(1)</script>');
    const browser = await signedIn(acct);
    for (const path of [
      '/dashboard/customers',
      `/dashboard/customers/${customer.body.id}`,
      KEYS,
      '/dashboard/emails',
    ]) {
      const page = await browser.get(path);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).not.toContain('<script>alert');
      expect(page.text).not.toContain('<script>x');
    }
    const detail = await browser.get(`/dashboard/customers/${customer.body.id}`);
    expect(detail.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(detail.text).toContain('&lt;b&gt;1&lt;/b&gt; Main');
  });

  it('shows customers of its own account and environment only', async () => {
    const mine = await newCustomer(acct.api, { first_name: 'Mia', last_name: 'Mine', email: 'mia@example.com' });
    const theirs = await newCustomer(other.api, { first_name: 'Theo', last_name: 'Theirs', email: 'theo@example.com' });
    const browser = await signedIn(acct);
    const list = await browser.get('/dashboard/customers?search=example.com');
    expect(list.text).toContain('Mia Mine');
    expect(list.text).not.toContain('Theo Theirs');
    expect((await browser.get(`/dashboard/customers/${theirs.id}`)).status).toBe(404);
    const detail = await browser.get(`/dashboard/customers/${mine.id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('mia@example.com');
    const filtered = await browser.get('/dashboard/customers?status=deactivated');
    expect(filtered.text).not.toContain('Mia Mine');
  });
});

describe('a database outage', () => {
  it('is an HTML 503 page with Retry-After on the sign-in and dashboard pages, and JSON on the API', async () => {
    // the app's database handle refuses every query while `down`, as a database out of reach does
    let down = false;
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    // (on PostgreSQL `query` talks to pg through the handle's session: without one it goes
    // through `execute`, refused here like every other statement)
    const db = new Proxy(t.database.sql, {
      get: (target, name, receiver) => {
        if (down && name === 'execute') return () => Promise.reject(refused);
        if (down && name === 'session') return undefined;
        return Reflect.get(target, name, receiver);
      },
    });
    const outage = await startTestApp({ database: { ...t.database, sql: db }, workers: false });
    try {
      const admin = formClient(outage.url, { 'x-forwarded-for': '10.5.9.1' });
      expect((await admin.signIn(acct.adminEmail, acct.adminPassword)).status).toBe(303);
      const visitor = formClient(outage.url, { 'x-forwarded-for': '10.5.9.2' });
      const loginForm = await visitor.get('/dashboard/login');
      down = true;
      const pages = {
        'the dashboard': await admin.get('/dashboard'),
        'a form post': await admin.post(KEYS, { _csrf: 'x', name: 'Key', environment: 'test' }),
        'the login page of a signed-in admin': await admin.get('/dashboard/login'),
        'signing in': await visitor.post('/dashboard/login', {
          _csrf: csrfFrom(loginForm.text),
          email: acct.adminEmail,
          password: acct.adminPassword,
        }),
      };
      for (const [what, page] of Object.entries(pages)) {
        expect(page.status, what).toBe(503);
        expect(page.headers.get('content-type'), what).toMatch(/^text\/html/);
        expect(page.headers.get('retry-after'), what).toBe('1');
        expect(page.text, what).toContain('temporarily unavailable');
      }
      const api = await fetch(`${outage.url}/v1/customers`, { headers: { authorization: `Bearer ${acct.testKey}` } });
      expect(api.status).toBe(503);
      expect((await api.json()).error).toMatchObject({ code: 'service_unavailable' });
    } finally {
      down = false;
      await outage.close();
    }
  });
});
