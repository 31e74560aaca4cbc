// Settings > Integrations (OAuth Apps, Webhooks, Connected apps) and the invoice read views over
// HTTP: forms, CSRF refusal, validation kept on the form, shown-once secrets, isolation between
// accounts and environments, escaping. test/browser/integrations.test.ts drives the same pages
// in Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createWebhook } from '../src/modules/webhooks/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { newCustomer, newInvoice } from './helpers/billing.ts';
import { csrfFrom, csrfOf, ESCAPED, expectEscaped, formClient, HOSTILE, signedInClient } from './helpers/forms.ts';
import { bearerGet, exchangeCode, issueCode, postForm, refresh, registerApp } from './helpers/oauth.ts';
import { type Receiver, startReceiver } from './helpers/webhooks.ts';

const APPS = '/dashboard/settings/integrations/oauth-apps';
const HOOKS = '/dashboard/settings/integrations/webhooks';
const CONNECTED = '/dashboard/settings/integrations/connected-apps';
// 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let t: TestApp;
let acct: TestAccount;
let other: TestAccount;
let receiver: Receiver;
let ip = 0;

beforeAll(async () => {
  t = await startTestApp({ workers: false });
  acct = await createTestAccount(t);
  other = await createTestAccount(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const signedIn = (account: TestAccount) => signedInClient(t.url, account);

function appForm(
  csrf: string | null,
  fields: Record<string, string | string[]>,
  logo?: { bytes: Buffer; name: string },
) {
  const form = new FormData();
  if (csrf) form.append('_csrf', csrf);
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, item);
  }
  form.append('logo', new Blob(logo ? [new Uint8Array(logo.bytes)] : []), logo?.name ?? '');
  return form;
}

const basicAuth = (id: string, secret: string) => ({ id, secret });

describe('OAuth Apps pages', () => {
  it('registers a confidential app with a logo, shows the secret once, and the secret works', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    expect((await browser.get(`${APPS}/new`)).status).toBe(200);
    const created = await browser.postMultipart(
      APPS,
      appForm(
        csrf,
        {
          name: 'Route Planner',
          description: 'Plans routes',
          redirect_uris: 'https://planner.example.com/callback\r\nhttp://localhost:8080/cb',
          environment: 'test',
          client_type: 'confidential',
          scopes: ['customers:read', 'bookings:read'],
        },
        { bytes: PNG, name: 'logo.png' },
      ),
    );
    expect(created.status).toBe(201);
    const clientId = /value="(app_[0-9A-Za-z]{24})"/.exec(created.text)?.[1] as string;
    const secret = /value="(svc_cs_[0-9A-Za-z]{40})"/.exec(created.text)?.[1] as string;
    expect(clientId).toBeDefined();
    expect(secret).toBeDefined();

    const [row] = await query<{
      logo_url: string;
      redirect_uris: string[];
      allowed_scopes: string[];
      environment: string;
    }>(
      t.database.sql,
      sql`select logo_url, redirect_uris, allowed_scopes, environment from oauth_apps where id = ${clientId}`,
    );
    expect(row?.logo_url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(row?.redirect_uris).toEqual(['https://planner.example.com/callback', 'http://localhost:8080/cb']);
    expect(row?.allowed_scopes).toEqual(['bookings:read', 'customers:read']);
    expect(row?.environment).toBe('test');

    // The secret authenticates the app (RFC 7009 revocation needs client authentication).
    expect((await postForm(t, '/oauth/revoke', { token: 'svc_at_x' }, basicAuth(clientId, secret))).status).toBe(200);

    // Never shown again: not in the list, not on the app's page.
    const list = await browser.get(APPS);
    expect(list.text).toContain('Route Planner');
    expect(list.text).toContain(clientId);
    expect(list.text).not.toContain(secret);
    const detail = await browser.get(`${APPS}/${clientId}`);
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain(secret);
    expect(detail.text).toContain(secret.slice(-4));
  });

  it('registers a public app without a secret', async () => {
    const browser = await signedIn(acct);
    const created = await browser.postMultipart(
      APPS,
      appForm(await csrfOf(browser), {
        name: 'Mobile',
        redirect_uris: 'com.example.mobile:/callback',
        environment: 'test',
        client_type: 'public',
        scopes: ['bookings:read'],
      }),
    );
    expect(created.status).toBe(201);
    expect(created.text).not.toContain('svc_cs_');
    expect(created.text).toContain('PKCE');
  });

  it('shows validation errors on the form and keeps what was typed', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    const fields = {
      name: 'Keep "me"',
      description: 'Typed text',
      redirect_uris: 'http://evil.example.com/cb',
      environment: 'live',
      client_type: 'confidential',
      scopes: ['customers:read'],
    };
    const badUri = await browser.postMultipart(APPS, appForm(csrf, fields));
    expect(badUri.status).toBe(400);
    expect(badUri.text).toContain('must use https (http is allowed only for localhost)');
    expect(badUri.text).toContain('value="Keep &quot;me&quot;"');
    expect(badUri.text).toContain('>Typed text</textarea>');
    expect(badUri.text).toContain('http://evil.example.com/cb</textarea>');
    expect(badUri.text).toMatch(/value="live" checked/);

    const good = { ...fields, redirect_uris: 'https://ok.example.com/cb' };
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const svgLogo = await browser.postMultipart(APPS, appForm(csrf, good, { bytes: svg, name: 'logo.png' }));
    expect(svgLogo.status).toBe(400);
    expect(svgLogo.text).toContain('The logo must be a PNG, JPEG, GIF or WebP image.');

    const huge = Buffer.concat([PNG, Buffer.alloc(200 * 1024)]);
    const hugeLogo = await browser.postMultipart(APPS, appForm(csrf, good, { bytes: huge, name: 'big.png' }));
    expect(hugeLogo.status).toBe(400);
    expect(hugeLogo.text).toContain('The logo must be at most 180 KB.');

    const noScopes = await browser.postMultipart(APPS, appForm(csrf, { ...good, scopes: [] }));
    expect(noScopes.status).toBe(400);
    expect(noScopes.text).toContain('Allow at least one scope.');

    const apps = await query(t.database.sql, sql`select 1 from oauth_apps where name = 'Keep "me"'`);
    expect(apps).toEqual([]);
  });

  it('refuses a form without the CSRF token', async () => {
    const browser = await signedIn(acct);
    const fields = { name: 'Forged', redirect_uris: 'https://x.example.com/cb', environment: 'test' };
    expect((await browser.postMultipart(APPS, appForm(null, fields))).status).toBe(403);
    expect((await browser.postMultipart(APPS, appForm('wrong', fields))).status).toBe(403);
    expect(await query(t.database.sql, sql`select 1 from oauth_apps where name = 'Forged'`)).toEqual([]);
  });

  it('edits, rotates the secret (shown once; the old one stops working) and deletes with confirmation', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    const app = await registerApp(t, acct, { name: 'Editable' });
    const page = `${APPS}/${app.clientId}`;

    const saved = await browser.postMultipart(
      page,
      appForm(csrf, {
        name: 'Edited',
        description: '',
        redirect_uris: 'https://new.example.com/cb',
        scopes: ['invoices:read'],
      }),
    );
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`${page}?saved=1`);
    const [row] = await query<{ name: string; redirect_uris: string[] }>(
      t.database.sql,
      sql`select name, redirect_uris from oauth_apps where id = ${app.clientId}`,
    );
    expect(row).toEqual({ name: 'Edited', redirect_uris: ['https://new.example.com/cb'] });
    const invalid = await browser.postMultipart(page, appForm(csrf, { name: 'Edited', redirect_uris: '' }));
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('Register at least one redirect URI.');

    expect((await browser.get(`${page}/rotate-secret`)).text).toContain('Rotate the client secret');
    const rotated = await browser.post(`${page}/rotate-secret`, { _csrf: csrf });
    expect(rotated.status).toBe(200);
    const secret = /value="(svc_cs_[0-9A-Za-z]{40})"/.exec(rotated.text)?.[1] as string;
    expect(secret).toBeDefined();
    expect(secret).not.toBe(app.clientSecret);
    const revoke = (s: string) => postForm(t, '/oauth/revoke', { token: 'svc_at_x' }, basicAuth(app.clientId, s));
    expect((await revoke(app.clientSecret as string)).status).toBe(401);
    expect((await revoke(secret)).status).toBe(200);

    expect((await browser.get(`${page}/delete`)).text).toContain('Delete “Edited”?');
    const deleted = await browser.post(`${page}/delete`, { _csrf: csrf });
    expect(deleted.location).toBe(`${APPS}?deleted=1`);
    expect((await browser.get(page)).status).toBe(404);
    expect((await revoke(secret)).status).toBe(401);
  });

  it('answers 404 for apps of another account or of the environment not on screen', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    const foreign = await registerApp(t, other, { name: 'Foreign' });
    const live = await registerApp(t, acct, { name: 'Live one', environment: 'live' });
    for (const app of [foreign, live]) {
      const page = `${APPS}/${app.clientId}`;
      expect((await browser.get(page)).status).toBe(404);
      expect((await browser.get(`${page}/rotate-secret`)).status).toBe(404);
      expect((await browser.post(`${page}/rotate-secret`, { _csrf: csrf })).status).toBe(404);
      expect((await browser.post(`${page}/delete`, { _csrf: csrf })).status).toBe(404);
      expect(
        (await browser.postMultipart(page, appForm(csrf, { name: 'Taken', redirect_uris: 'https://a.example.com/cb' })))
          .status,
      ).toBe(404);
    }
    expect((await browser.get(APPS)).text).not.toContain('Live one');
    const rows = await query<{ name: string; deleted_at: string | null }>(
      t.database.sql,
      sql`select name, deleted_at from oauth_apps where id in (${foreign.clientId}, ${live.clientId}) order by name`,
    );
    expect(rows).toEqual([
      { name: 'Foreign', deleted_at: null },
      { name: 'Live one', deleted_at: null },
    ]);
    // after the switch the live app is there
    await browser.post('/dashboard/environment', { _csrf: csrf, environment: 'live', next: APPS });
    expect((await browser.get(APPS)).text).toContain('Live one');
    expect((await browser.get(`${APPS}/${live.clientId}`)).status).toBe(200);
    // switching back from a page about one record lands on its list
    const back = await browser.post('/dashboard/environment', {
      _csrf: csrf,
      environment: 'test',
      next: `${APPS}/${live.clientId}/rotate-secret`,
    });
    expect(back.location).toBe(APPS);
  });

  it('escapes app names and descriptions', async () => {
    const browser = await signedIn(acct);
    const app = await registerApp(t, acct, { name: HOSTILE, description: HOSTILE });
    await expectEscaped(browser, [APPS, `${APPS}/${app.clientId}`]);
  });
});

describe('Webhooks pages', () => {
  it('adds an endpoint (secret shown once), sends a test event and shows the delivery', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    expect((await browser.get(`${HOOKS}/new`)).text).toContain('value="booking.*"');
    const created = await browser.post(HOOKS, {
      _csrf: csrf,
      url: `${receiver.url}/hooks`,
      description: 'Orders system',
      events: ['booking.*', 'invoice.paid'],
    });
    expect(created.status).toBe(201);
    const secret = /value="(whsec_[A-Za-z0-9+/=]+)"/.exec(created.text)?.[1] as string;
    const id = /data-id="(wh_[0-9A-Za-z]{24})"/.exec(created.text)?.[1] as string;
    expect(secret).toBeDefined();
    expect(id).toBeDefined();

    const list = await browser.get(HOOKS);
    expect(list.text).toContain(`${receiver.url}/hooks`);
    expect(list.text).toContain('Active');
    expect(list.text).not.toContain(secret);
    expect((await browser.get(`${HOOKS}/${id}`)).text).not.toContain(secret);

    const sent = await browser.post(`${HOOKS}/${id}/test`, { _csrf: csrf });
    expect(sent.status).toBe(303);
    expect(sent.location).toBe(`${HOOKS}/${id}?done=tested`);
    expect(await t.app.workers.deliveries.runOnce()).toBe(1);
    const received = receiver.received.find((r) => r.path === '/hooks');
    if (!received) throw new Error('no test event');
    expect(received.json.test).toBe(true);
    expect(received.json.type).toBe('booking.created');
    const detail = (await browser.get(`${HOOKS}/${id}`)).text;
    expect(detail).toContain('Succeeded');
    expect(detail).toMatch(/data-label="Response code">200</);
    expect(detail).toContain('booking.created');

    // Send Test can simulate any event the endpoint subscribes to; an unknown one is refused.
    expect(detail).toContain('<option value="invoice.paid">');
    expect(detail).not.toContain('<option value="customer.created">');
    await browser.post(`${HOOKS}/${id}/test`, { _csrf: csrf, event_type: 'invoice.paid' });
    await t.app.workers.deliveries.runOnce();
    expect(receiver.received.some((r) => r.path === '/hooks' && r.json.type === 'invoice.paid')).toBe(true);
    const unknown = await browser.post(`${HOOKS}/${id}/test`, { _csrf: csrf, event_type: 'nonsense.happened' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('Unknown event type');

    // Redeliver queues a new attempt of the same event.
    const deliveryId = /data-delivery-id="(whd_[0-9A-Za-z]{24})"/.exec(detail)?.[1] as string;
    const again = await browser.post(`${HOOKS}/${id}/deliveries/${deliveryId}/retry`, { _csrf: csrf });
    expect(again.location).toBe(`${HOOKS}/${id}?done=redelivered`);
    await t.app.workers.deliveries.runOnce();
    expect(receiver.received.filter((r) => r.json.id === received.json.id)).toHaveLength(2);
  });

  it('shows the service’s URL and event errors on the form, keeping what was typed', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    const noEvents = await browser.post(HOOKS, {
      _csrf: csrf,
      url: 'https://hooks.example.com/x',
      description: 'Kept',
    });
    expect(noEvents.status).toBe(400);
    expect(noEvents.text).toContain('Choose at least one event.');
    expect(noEvents.text).toContain('value="https://hooks.example.com/x"');
    expect(noEvents.text).toContain('value="Kept"');
    const badEvent = await browser.post(HOOKS, {
      _csrf: csrf,
      url: 'https://hooks.example.com/x',
      events: ['invoice.paid', 'nonsense.*'],
    });
    expect(badEvent.status).toBe(400);
    expect(badEvent.text).toContain('Unknown event');
    expect(badEvent.text).toMatch(/value="invoice.paid" checked/);
    const notAUrl = await browser.post(HOOKS, { _csrf: csrf, url: 'ftp://files.example.com', events: '*' });
    expect(notAUrl.status).toBe(400);

    // With the SSRF guard on (production), private addresses are refused with the guard's words.
    const guarded = await startTestApp({
      database: t.database,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' },
      workers: false,
    });
    try {
      const strict = formClient(guarded.url, { 'x-forwarded-for': `10.6.1.${++ip}` });
      await strict.signIn(acct.adminEmail, acct.adminPassword);
      const page = await strict.get(`${HOOKS}/new`);
      for (const url of ['https://127.0.0.1/hook', 'https://169.254.169.254/latest', 'http://hooks.example.com/x']) {
        const refused = await strict.post(HOOKS, { _csrf: csrfFrom(page.text), url, events: '*' });
        expect(refused.status).toBe(400);
        expect(refused.text).toContain('role="alert"');
        expect(refused.text).toContain(`value="${url}"`);
      }
    } finally {
      await guarded.close();
    }
    const rows = await query(
      t.database.sql,
      sql`select 1 from webhook_endpoints where account_id = ${acct.accountId} and url like 'https://127.0.0.1%'`,
    );
    expect(rows).toEqual([]);
  });

  it('edits, disables and enables, rotates the secret and deletes', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    const deps = t.app.deps;
    const webhook = await createWebhook(deps, acct.tenant(), { url: `${receiver.url}/edit`, events: ['*'] });
    const page = `${HOOKS}/${webhook.id}`;

    expect((await browser.get(`${page}/edit`)).text).toContain('value="*" checked');
    const saved = await browser.post(page, {
      _csrf: csrf,
      url: `${receiver.url}/edited`,
      description: 'Now described',
      events: ['customer.created'],
    });
    expect(saved.location).toBe(`${page}?done=saved`);
    const detail = await browser.get(page);
    expect(detail.text).toContain(`${receiver.url}/edited`);
    expect(detail.text).toContain('Now described');

    expect((await browser.post(`${page}/status`, { _csrf: csrf, status: 'disabled' })).location).toBe(
      `${page}?done=disabled`,
    );
    expect((await browser.get(page)).text).toContain('>Enable</button>');
    expect((await acct.api.get(`/v1/webhooks/${webhook.id}`)).body.status).toBe('disabled');
    await browser.post(`${page}/status`, { _csrf: csrf, status: 'active' });
    expect((await acct.api.get(`/v1/webhooks/${webhook.id}`)).body.status).toBe('active');

    const rotated = await browser.post(`${page}/rotate-secret`, { _csrf: csrf });
    expect(rotated.status).toBe(200);
    const secret = /value="(whsec_[A-Za-z0-9+/=]+)"/.exec(rotated.text)?.[1];
    expect(secret).toBeDefined();
    expect(secret).not.toBe(webhook.secret);
    const [stored] = await query<{ secret: string; previous_secret: string }>(
      t.database.sql,
      sql`select secret, previous_secret from webhook_endpoints where id = ${webhook.id}`,
    );
    expect(stored).toEqual({ secret, previous_secret: webhook.secret });

    expect((await browser.get(`${page}/delete`)).status).toBe(200);
    expect((await browser.post(`${page}/delete`, { _csrf: csrf })).location).toBe(`${HOOKS}?deleted=1`);
    expect((await acct.api.get(`/v1/webhooks/${webhook.id}`)).status).toBe(404);
  });

  it('keeps accounts and environments apart, refuses forms without the token, and escapes', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    const deps = t.app.deps;
    const foreign = await createWebhook(deps, other.tenant(), { url: `${receiver.url}/foreign`, events: ['*'] });
    const live = await createWebhook(deps, acct.tenant('live'), { url: `${receiver.url}/live`, events: ['*'] });
    for (const id of [foreign.id, live.id, 'wh_000000000000000000000000']) {
      const page = `${HOOKS}/${id}`;
      expect((await browser.get(page)).status).toBe(404);
      expect((await browser.get(`${page}/edit`)).status).toBe(404);
      for (const action of ['/test', '/status', '/rotate-secret', '/delete', '']) {
        const res = await browser.post(`${page}${action}`, { _csrf: csrf, url: 'https://x.example.com', events: '*' });
        expect(res.status).toBe(404);
      }
    }
    expect((await browser.get(HOOKS)).text).not.toContain(`${receiver.url}/live`);
    expect((await other.api.get(`/v1/webhooks/${foreign.id}`)).body.url).toBe(`${receiver.url}/foreign`);
    expect((await acct.live.get(`/v1/webhooks/${live.id}`)).body.status).toBe('active');

    const mine = await createWebhook(deps, acct.tenant(), {
      url: `${receiver.url}/mine`,
      events: ['*'],
      description: HOSTILE,
    });
    expect((await browser.post(`${HOOKS}/${mine.id}/delete`, {})).status).toBe(403);
    expect((await browser.post(`${HOOKS}/${mine.id}/test`, { _csrf: 'forged' })).status).toBe(403);
    expect((await acct.api.get(`/v1/webhooks/${mine.id}`)).status).toBe(200);
    await expectEscaped(browser, [HOOKS, `${HOOKS}/${mine.id}`]);
  });
});

describe('Connected apps page', () => {
  it('lists the signed-in user’s grants and revokes one with its tokens', async () => {
    const browser = await signedIn(acct);
    const csrf = await csrfOf(browser);
    const app = await registerApp(t, acct, { name: 'Crew Scheduler' });
    const tokens = (await exchangeCode(t, app, await issueCode(t, app, acct.userId))).body;
    expect((await bearerGet(t, tokens.access_token, '/v1/customers')).status).toBe(200);

    const list = await browser.get(CONNECTED);
    expect(list.text).toContain('Crew Scheduler');
    expect(list.text).toContain('See your customers and their addresses');
    const grantId = /data-grant-id="([a-z]+_[0-9A-Za-z]{24})"/.exec(list.text)?.[1] as string;
    expect(grantId).toBeDefined();

    // another account's admin cannot see or revoke it
    const stranger = await signedIn(other);
    expect((await stranger.get(CONNECTED)).text).not.toContain('Crew Scheduler');
    expect((await stranger.get(`${CONNECTED}/${grantId}/revoke`)).status).toBe(404);
    expect((await stranger.post(`${CONNECTED}/${grantId}/revoke`, { _csrf: await csrfOf(stranger) })).status).toBe(404);
    expect((await browser.post(`${CONNECTED}/${grantId}/revoke`, {})).status).toBe(403);
    expect((await bearerGet(t, tokens.access_token, '/v1/customers')).status).toBe(200);

    expect((await browser.get(`${CONNECTED}/${grantId}/revoke`)).text).toContain('Revoke access for “Crew Scheduler”?');
    const revoked = await browser.post(`${CONNECTED}/${grantId}/revoke`, { _csrf: csrf });
    expect(revoked.location).toBe(`${CONNECTED}?revoked=1`);
    expect((await bearerGet(t, tokens.access_token, '/v1/customers')).status).toBe(401);
    const refreshed = await refresh(t, app, tokens.refresh_token);
    expect(refreshed.body.error).toBe('invalid_grant');
    expect((await browser.get(CONNECTED)).text).not.toContain('Crew Scheduler');
  });
});

describe('Invoices pages', () => {
  it('lists invoices by status and date, and shows one with line items, payments and refunds', async () => {
    const browser = await signedIn(acct);
    const customer = await newCustomer(acct.api, { first_name: HOSTILE });
    const paid = await newInvoice(acct.api, customer.id, { tax_rate: 10 });
    expect((await acct.api.post(`/v1/invoices/${paid.id}/pay`, { method: 'cash' })).status).toBe(200);
    const refund = await acct.api.post(`/v1/invoices/${paid.id}/refund`, {
      amount: 1000,
      reason: 'Missed a window',
      refund_to: 'account_credit',
    });
    expect(refund.status).toBe(201);
    const draft = await newInvoice(acct.api, customer.id, { draft: true });
    const liveCustomer = await newCustomer(acct.live);
    const liveInvoice = await newInvoice(acct.live, liveCustomer.id);

    const all = await browser.get('/dashboard/invoices');
    expect(all.status).toBe(200);
    expect(all.text).toContain(paid.number);
    expect(all.text).not.toContain(liveInvoice.id);
    expect(all.text).not.toContain(HOSTILE);
    expect(all.text).toContain(ESCAPED);
    const onlyPaid = await browser.get('/dashboard/invoices?status=paid');
    expect(onlyPaid.text).toContain(`/dashboard/invoices/${paid.id}`);
    expect(onlyPaid.text).not.toContain(`/dashboard/invoices/${draft.id}`);
    const onlyDrafts = await browser.get('/dashboard/invoices?status=draft');
    expect(onlyDrafts.text).toContain(`/dashboard/invoices/${draft.id}`);
    expect(onlyDrafts.text).not.toContain(`/dashboard/invoices/${paid.id}`);
    const future = await browser.get('/dashboard/invoices?from=2999-01-01');
    expect(future.text).toContain('No invoices found');
    const today = new Date().toISOString().slice(0, 10);
    expect((await browser.get(`/dashboard/invoices?from=${today}&to=${today}`)).text).toContain(paid.number);
    expect((await browser.get('/dashboard/invoices?from=not-a-date&status=bogus')).status).toBe(200);

    const detail = await browser.get(`/dashboard/invoices/${paid.id}`);
    expect(detail.status).toBe(200);
    for (const text of ['Standard clean', 'Inside fridge', '$120.00', 'Cash', 'Missed a window', 'Account credit']) {
      expect(detail.text).toContain(text);
    }
    expect(detail.text).toContain('$10.00');
    expect(detail.text).not.toContain(HOSTILE);

    // another environment's or account's invoice is not found
    expect((await browser.get(`/dashboard/invoices/${liveInvoice.id}`)).status).toBe(404);
    const stranger = await signedIn(other);
    expect((await stranger.get(`/dashboard/invoices/${paid.id}`)).status).toBe(404);
    expect((await stranger.get('/dashboard/invoices')).text).not.toContain(paid.id);
  });

  it('no longer marks Invoices as coming soon', async () => {
    const browser = await signedIn(acct);
    const page = await browser.get('/dashboard');
    expect(page.text).toMatch(/href="\/dashboard\/invoices"[^>]*>Invoices<\/a>/);
  });
});
