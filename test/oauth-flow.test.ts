// The whole authorization-code flow as an app and a person go through it: an independent
// client (oauth4webapi) configured by discovery, PKCE, the real sign-in and consent pages
// driven with fetch and a cookie jar, then API calls with the token.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, sql } from '../src/core/db.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { csrfFrom, type FormClient, formClient, type PageResponse } from './helpers/forms.ts';
import { postJson, REDIRECT_URI, registerApp, type TestOAuthApp } from './helpers/oauth.ts';

let t: TestApp;
let acct: TestAccount;
let app: TestOAuthApp;
let as: oauth.AuthorizationServer;
let ipCounter = 0;
const insecure = { [oauth.allowInsecureRequests]: true };
const LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** A browser of its own (cookies and address), so sign-in throttling in one test cannot touch another. */
const browser = () => formClient(t.url, { 'x-forwarded-for': `10.8.0.${++ipCounter}` });

beforeAll(async () => {
  t = await startTestApp();
  // the issuer is this server's real address, as AUTH_URL would say in production
  t.app.deps.config.authUrl = t.url;
  acct = await createTestAccount(t);
  app = await registerApp(t, acct, {
    name: 'Route Planner',
    description: 'Plans crews’ routes.',
    logoUrl: LOGO,
    scopes: ['customers:read', 'customers:write', 'bookings:read'],
  });
  const issuer = new URL(t.url);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
});
afterAll(() => t.close());

function pathOf(url: string | URL): string {
  const parsed = new URL(url, t.url);
  return parsed.pathname + parsed.search;
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The consent form's hidden fields, as a browser would submit them. */
function consentFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[unescapeHtml(match[1] as string)] = unescapeHtml(match[2] as string);
  }
  return fields;
}

function authorizationUrl(params: Record<string, string>): string {
  const url = new URL(as.authorization_endpoint as string);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return pathOf(url);
}

/** An authorization request of the code flow back to REDIRECT_URI, for the route planner unless `params` says. */
function codeRequest(params: Record<string, string>): string {
  return authorizationUrl({ client_id: app.clientId, redirect_uri: REDIRECT_URI, response_type: 'code', ...params });
}

/** Opens the authorization URL, signs in on the way, and returns the consent page. */
async function signInToConsent(client: FormClient, authorizePath: string, user = acct): Promise<PageResponse> {
  const first = await client.get(authorizePath);
  expect(first.status).toBe(303);
  const loginPath = first.location as string;
  expect(loginPath).toMatch(/^\/dashboard\/login\?next=/);
  const login = await client.get(loginPath);
  expect(login.status).toBe(200);
  const next = new URL(loginPath, t.url).searchParams.get('next') as string;
  expect(next).toBe(authorizePath);
  const signedIn = await client.post('/dashboard/login', {
    _csrf: csrfFrom(login.text),
    email: user.adminEmail,
    password: user.adminPassword,
    next,
  });
  expect(signedIn.status).toBe(303);
  expect(signedIn.location).toBe(authorizePath);
  const consent = await client.get(signedIn.location as string);
  expect(consent.status).toBe(200);
  return consent;
}

async function approve(client: FormClient, consent: PageResponse, decision = 'approve'): Promise<URL> {
  const res = await client.post('/oauth/authorize', { ...consentFields(consent.text), decision });
  expect(res.status).toBe(303);
  return new URL(res.location as string);
}

describe('the authorization code flow', () => {
  it('runs end to end with oauth4webapi, discovery and PKCE', async () => {
    const client: oauth.Client = { client_id: app.clientId };
    const clientAuth = oauth.ClientSecretBasic(app.clientSecret as string);
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizePath = codeRequest({
      scope: 'customers:read bookings:read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });

    const person = browser();
    const consent = await signInToConsent(person, authorizePath);
    expect(consent.text).toContain('Route Planner');
    expect(consent.text).toContain('Plans crews’ routes.');
    expect(consent.text).toContain(`src="${LOGO}"`);
    expect(consent.text).toContain('Test data');
    expect(consent.text).toContain('See your customers and their addresses');
    expect(consent.text).toContain('See your bookings');
    expect(consent.text).not.toContain('Add and change customers');
    expect(consent.headers.get('x-frame-options')).toBe('DENY');
    expect(consent.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(consent.headers.get('cache-control')).toBe('no-store');

    const callback = await approve(person, consent);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(t.url);

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      params,
      REDIRECT_URI,
      codeVerifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.access_token).toMatch(/^svc_at_/);
    expect(tokens.refresh_token).toMatch(/^svc_rt_/);
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('bookings:read customers:read');

    const created = await acct.api.post('/v1/customers', {
      first_name: 'Ada',
      last_name: 'L',
      email: 'ada@example.com',
    });
    const list = await fetch(`${t.url}/v1/customers`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(list.status).toBe(200);
    expect((await list.json()).data.map((customer: { id: string }) => customer.id)).toContain(created.body.id);
    // granted read only: writing is refused with the scope it lacks
    const write = await fetch(`${t.url}/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'No', last_name: 'Pe', email: 'nope@example.com' }),
    });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="customers:write"');

    // the grant records who approved what, for the app's account and environment
    const grants = await query<{ user_id: string; account_id: string; environment: string; scopes: string[] }>(
      t.database.sql,
      sql`select user_id, account_id, environment, scopes from oauth_grants where app_id = ${app.clientId}`,
    );
    expect(grants).toEqual([
      {
        user_id: acct.userId,
        account_id: acct.accountId,
        environment: 'test',
        scopes: ['bookings:read', 'customers:read'],
      },
    ]);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token as string, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token as string, insecure),
    );
    const after = await fetch(`${t.url}/v1/customers`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    expect(after.status).toBe(401);
  });

  it('works with the JSON token body the spec shows (client_secret in the body, no PKCE)', async () => {
    const person = browser();
    const consent = await signInToConsent(person, codeRequest({ scope: 'customers:read', state: 'xyz' }));
    const callback = await approve(person, consent);
    const code = callback.searchParams.get('code') as string;
    expect(callback.searchParams.get('state')).toBe('xyz');

    const token = await postJson(t, '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'customers:read' });
    const refreshed = await postJson(t, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: token.body.refresh_token,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toMatch(/^svc_rt_/);
    const api = await fetch(`${t.url}/v1/customers`, {
      headers: { authorization: `Bearer ${refreshed.body.access_token}` },
    });
    expect(api.status).toBe(200);
  });

  it('a public app goes through with PKCE and no secret', async () => {
    const spa = await registerApp(t, acct, { public: true, name: 'Crew Phone' });
    const client: oauth.Client = { client_id: spa.clientId, token_endpoint_auth_method: 'none' };
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const person = browser();
    const consent = await signInToConsent(
      person,
      codeRequest({
        client_id: spa.clientId,
        scope: 'bookings:read',
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      }),
    );
    const params = oauth.validateAuthResponse(as, client, await approve(person, consent), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, codeVerifier, insecure),
    );
    expect(tokens.scope).toBe('bookings:read');
  });

  it('denial redirects with access_denied, state and iss, and issues nothing', async () => {
    const person = browser();
    const consent = await signInToConsent(person, codeRequest({ scope: 'customers:read', state: 'deny-me' }));
    const before = await codeCount();
    const callback = await approve(person, consent, 'deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('deny-me');
    expect(callback.searchParams.get('iss')).toBe(t.url);
    expect(callback.searchParams.get('code')).toBeNull();
    expect(await codeCount()).toBe(before);
  });
});

async function codeCount(): Promise<number> {
  const rows = await query<{ count: number }>(
    t.database.sql,
    sql`select count(*) as count from oauth_authorization_codes where app_id = ${app.clientId}`,
  );
  return rows[0]?.count ?? 0;
}

describe('authorization errors', () => {
  const valid = () => ({
    client_id: app.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'customers:read',
    state: 's1',
  });

  it('never redirects for an unknown client or an unregistered redirect_uri', async () => {
    const person = browser();
    for (const params of [
      { ...valid(), client_id: 'app_doesnotexist000000000000' },
      { ...valid(), redirect_uri: 'https://evil.example.com/callback' },
      { ...valid(), redirect_uri: `${REDIRECT_URI}/` },
      { ...valid(), redirect_uri: '' },
    ]) {
      const res = await person.get(authorizationUrl(params));
      expect(res.status).toBe(400);
      expect(res.location).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toContain('This app cannot be connected');
    }
  });

  it('sends other errors back to the app with state and iss (RFC 6749 §4.1.2.1, RFC 9207)', async () => {
    const spa = await registerApp(t, acct, { public: true });
    const cases: [Record<string, string>, string][] = [
      [{ ...valid(), response_type: 'token' }, 'unsupported_response_type'],
      [{ ...valid(), response_type: '' }, 'invalid_request'],
      [{ ...valid(), scope: 'customers:read everything:write' }, 'invalid_scope'],
      [{ ...valid(), scope: 'invoices:read' }, 'invalid_scope'],
      [{ ...valid(), scope: '' }, 'invalid_scope'],
      [{ ...valid(), code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
      [{ ...valid(), code_challenge: 'a'.repeat(43) }, 'invalid_request'],
      [{ ...valid(), client_id: spa.clientId }, 'invalid_request'],
    ];
    const person = browser();
    for (const [params, error] of cases) {
      const res = await person.get(authorizationUrl(params));
      expect(res.status, JSON.stringify(params)).toBe(302);
      const location = new URL(res.location as string);
      expect(location.origin + location.pathname).toBe(REDIRECT_URI);
      expect(location.searchParams.get('error'), JSON.stringify(params)).toBe(error);
      expect(location.searchParams.get('state')).toBe('s1');
      expect(location.searchParams.get('iss')).toBe(t.url);
    }
  });

  it('refuses a consent POST without the CSRF token, or with another session’s', async () => {
    const person = browser();
    const consent = await signInToConsent(person, authorizationUrl(valid()));
    const fields = consentFields(consent.text);
    const before = await codeCount();

    const { _csrf, ...withoutToken } = fields;
    const missing = await person.post('/oauth/authorize', { ...withoutToken, decision: 'approve' });
    expect(missing.status).toBe(403);
    expect(missing.location).toBeNull();

    const other = browser();
    const otherConsent = await signInToConsent(other, authorizationUrl(valid()));
    const foreign = await person.post('/oauth/authorize', {
      ...fields,
      _csrf: consentFields(otherConsent.text)._csrf as string,
      decision: 'approve',
    });
    expect(foreign.status).toBe(403);

    // and a forged POST from a browser without a session is refused too
    const anonymous = await browser().post('/oauth/authorize', { ...fields, decision: 'approve' });
    expect(anonymous.status).toBe(403);
    expect(await codeCount()).toBe(before);
    // the real form still works
    expect((await approve(person, consent)).searchParams.get('code')).toBeTruthy();
  });

  it('re-checks the request on submit: a tampered redirect_uri or scope is not honoured', async () => {
    const person = browser();
    const consent = await signInToConsent(person, authorizationUrl(valid()));
    const fields = consentFields(consent.text);
    const evil = await person.post('/oauth/authorize', {
      ...fields,
      redirect_uri: 'https://evil.example.com/cb',
      decision: 'approve',
    });
    expect(evil.status).toBe(400);
    expect(evil.location).toBeNull();
    const wider = await person.post('/oauth/authorize', { ...fields, scope: 'invoices:write', decision: 'approve' });
    expect(new URL(wider.location as string).searchParams.get('error')).toBe('invalid_scope');
  });

  it('only users of the app’s account can approve it', async () => {
    const stranger = await createTestAccount(t);
    const person = browser();
    const first = await person.get(authorizationUrl(valid()));
    const login = await person.get(first.location as string);
    const signedIn = await person.post('/dashboard/login', {
      _csrf: csrfFrom(login.text),
      email: stranger.adminEmail,
      password: stranger.adminPassword,
      next: new URL(first.location as string, t.url).searchParams.get('next') as string,
    });
    const page = await person.get(signedIn.location as string);
    expect(page.status).toBe(403);
    expect(page.text).toContain('Wrong account');
    expect(page.text).not.toContain('name="decision"');
  });

  it('throttles sign-in on the way to consent', async () => {
    const person = browser();
    const first = await person.get(authorizationUrl(valid()));
    const next = new URL(first.location as string, t.url).searchParams.get('next') as string;
    const statuses: number[] = [];
    // one e-mail from one address: five failures pause it (sessions.test.ts has the other rules)
    for (let attempt = 1; attempt <= 6; attempt++) {
      const login = await person.get(first.location as string);
      const res = await person.post('/dashboard/login', {
        _csrf: csrfFrom(login.text),
        email: 'nobody-on-the-way@example.com',
        password: 'wrong password',
        next,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });
});
