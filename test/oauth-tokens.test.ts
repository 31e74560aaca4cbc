// The token and revocation endpoints, access-token authentication on /v1, and the metadata.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { query, sql } from '../src/core/db.ts';
import { deleteOAuthApp, SCOPES } from '../src/modules/oauth/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { newCustomer } from './helpers/billing.ts';
import {
  bearerGet,
  exchangeCode,
  issueCode,
  postForm,
  postJson,
  REDIRECT_URI,
  refresh,
  registerApp,
  type TestOAuthApp,
} from './helpers/oauth.ts';

let t: TestApp;
let acct: TestAccount;
let app: TestOAuthApp;
const clock = new ManualClock();

beforeAll(async () => {
  t = await startTestApp({ clock });
  acct = await createTestAccount(t);
  app = await registerApp(t, acct);
});
afterAll(() => t.close());

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function tokensFor(scopes: Parameters<typeof issueCode>[3] = {}) {
  const code = await issueCode(t, app, acct.userId, scopes);
  const res = await exchangeCode(t, app, code);
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string; scope: string; expires_in: number };
}

/** A revocation request by `by`, with its client_secret in the body. */
function revokeAs(by: TestOAuthApp, token: string) {
  return postForm(t, '/oauth/revoke', { token, client_id: by.clientId, client_secret: by.clientSecret as string });
}

/** A token endpoint request by the route planner, with its client_secret in the body. */
function tokenRequest(params: Record<string, string>) {
  return postForm(t, '/oauth/token', { ...params, client_id: app.clientId, client_secret: app.clientSecret as string });
}

describe('metadata', () => {
  it('publishes RFC 8414 metadata at both well-known paths', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const res = await fetch(t.url + path);
      expect(res.status).toBe(200);
      const body = await res.json();
      const issuer = t.app.deps.config.authUrl;
      expect(body).toMatchObject({
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        authorization_response_iss_parameter_supported: true,
      });
      expect(body.scopes_supported).toContain('customers:read');
      expect(body.scopes_supported).toEqual([...SCOPES]);
      expect(body.scopes_supported).toContain('catalog:write');
    }
  });
});

describe('authorization_code grant', () => {
  it('issues svc_at_/svc_rt_ tokens (no-store) that are kept only as hashes, and the token reads /v1', async () => {
    const code = await issueCode(t, app, acct.userId, { scopes: ['customers:read', 'bookings:read'] });
    const res = await exchangeCode(t, app, code);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^svc_at_[0-9A-Za-z]{40}$/),
      refresh_token: expect.stringMatching(/^svc_rt_[0-9A-Za-z]{40}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'bookings:read customers:read',
    });
    const rows = await query<{ token_hash: string; kind: string; expires_at: string; environment: string }>(
      t.database.sql,
      sql`select token_hash, kind, expires_at, environment from oauth_tokens where app_id = ${app.clientId}`,
    );
    const hashes = rows.map((row) => row.token_hash);
    expect(hashes).toContain(sha256(res.body.access_token));
    expect(hashes).toContain(sha256(res.body.refresh_token));
    const dump = JSON.stringify(
      await query(t.database.sql, sql`select * from oauth_tokens where app_id = ${app.clientId}`),
    );
    expect(dump).not.toContain(res.body.access_token);
    expect(dump).not.toContain(res.body.refresh_token);
    expect(rows.every((row) => row.environment === 'test')).toBe(true);

    const api = await bearerGet(t, res.body.access_token, '/v1/customers');
    expect(api.status).toBe(200);
  });

  it('takes the spec JSON body with client_secret_post', async () => {
    const code = await issueCode(t, app, acct.userId);
    const res = await postJson(t, '/oauth/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
  });

  it('refuses a replayed code and revokes what the first redemption issued', async () => {
    const code = await issueCode(t, app, acct.userId);
    const first = await exchangeCode(t, app, code);
    expect(first.status).toBe(200);
    expect((await bearerGet(t, first.body.access_token, '/v1/customers')).status).toBe(200);

    const replay = await exchangeCode(t, app, code);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    expect(replay.headers.get('cache-control')).toBe('no-store');

    const api = await bearerGet(t, first.body.access_token, '/v1/customers');
    expect(api.status).toBe(401);
    expect((await api.json()).error.code).toBe('invalid_credentials');
    expect((await refresh(t, app, first.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('refuses an expired code, a wrong redirect_uri, and a code of another app', async () => {
    const late = await issueCode(t, app, acct.userId);
    clock.advance(600_000 + 1000);
    expect((await exchangeCode(t, app, late)).body.error).toBe('invalid_grant');

    const code = await issueCode(t, app, acct.userId);
    const wrong = await exchangeCode(t, app, code, { redirect_uri: 'https://app.example.com/other' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');

    const other = await registerApp(t, acct, { redirectUris: [REDIRECT_URI] });
    expect((await exchangeCode(t, other, code)).body.error).toBe('invalid_grant');
    // the failed attempts did not use the code up
    expect((await exchangeCode(t, app, code)).status).toBe(200);
  });

  it('authenticates clients: a wrong secret is 401 invalid_client with WWW-Authenticate', async () => {
    const code = await issueCode(t, app, acct.userId);
    const params = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI };
    const basic = await postForm(t, '/oauth/token', params, { id: app.clientId, secret: 'svc_cs_wrong' });
    expect(basic.status).toBe(401);
    expect(basic.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(basic.headers.get('www-authenticate')).toMatch(/^Basic realm=/);

    const post = await postForm(t, '/oauth/token', { ...params, client_id: app.clientId, client_secret: 'nope' });
    expect(post.status).toBe(401);
    expect(post.body.error).toBe('invalid_client');

    const none = await postForm(t, '/oauth/token', { ...params, client_id: app.clientId });
    expect(none.body.error).toBe('invalid_client');
    const unknown = await postForm(t, '/oauth/token', { ...params, client_id: 'app_unknown', client_secret: 'x' });
    expect(unknown.body.error).toBe('invalid_client');

    const both = await postForm(
      t,
      '/oauth/token',
      { ...params, client_secret: app.clientSecret as string },
      { id: app.clientId, secret: app.clientSecret as string },
    );
    expect(both.body.error).toBe('invalid_request');
    // none of these used the code up
    expect((await exchangeCode(t, app, code)).status).toBe(200);
  });

  it('answers malformed requests in the flat RFC 6749 shape', async () => {
    const bad = await postJson(t, '/oauth/token', '{"grant_type": ');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });

    const text = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'grant_type=authorization_code',
    });
    expect(text.status).toBe(400);
    expect((await text.json()).error).toBe('invalid_request');

    const missing = await postForm(t, '/oauth/token', { client_id: app.clientId });
    expect(missing.body.error).toBe('invalid_request');
    const unsupported = await tokenRequest({ grant_type: 'client_credentials' });
    expect(unsupported.body.error).toBe('unsupported_grant_type');
    const noCode = await tokenRequest({ grant_type: 'authorization_code' });
    expect(noCode.body.error).toBe('invalid_request');

    const repeated = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams([
        ['grant_type', 'authorization_code'],
        ['grant_type', 'refresh_token'],
      ]),
    });
    expect((await repeated.json()).error).toBe('invalid_request');
    const wrongType = await postJson(t, '/oauth/token', { grant_type: 1 });
    expect(wrongType.body.error).toBe('invalid_request');
    const nul = await postForm(t, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.body.error).toBe('invalid_request');
    const nowhere = await fetch(`${t.url}/oauth/nowhere`);
    expect(nowhere.status).toBe(404);
    expect((await nowhere.json()).error).toBe('invalid_request');
  });
});

describe('PKCE and public apps', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk0123456789';

  it('requires the verifier for a code issued with a challenge, and checks it', async () => {
    const spa = await registerApp(t, acct, { public: true });
    expect(spa.clientSecret).toBeNull();
    const code = await issueCode(t, spa, acct.userId, { codeVerifier: verifier });
    expect((await exchangeCode(t, spa, code)).body.error).toBe('invalid_grant');
    const wrong = await exchangeCode(t, spa, code, { code_verifier: `${verifier.slice(0, -1)}x` });
    expect(wrong.body.error).toBe('invalid_grant');
    const withSecret = await exchangeCode(t, spa, code, { code_verifier: verifier, client_secret: 'svc_cs_x' });
    expect(withSecret.body.error).toBe('invalid_client');
    const ok = await exchangeCode(t, spa, code, { code_verifier: verifier });
    expect(ok.status).toBe(200);
    // the public app refreshes with its client_id alone
    const refreshed = await refresh(t, spa, ok.body.refresh_token);
    expect(refreshed.status).toBe(200);
  });

  it('refuses a verifier for a code issued without a challenge', async () => {
    const code = await issueCode(t, app, acct.userId);
    expect((await exchangeCode(t, app, code, { code_verifier: verifier })).body.error).toBe('invalid_grant');
  });
});

describe('refresh_token grant', () => {
  it('rotates the refresh token; reusing a rotated one revokes the grant', async () => {
    const first = await tokensFor();
    const second = await refresh(t, app, first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(second.body.scope).toBe('customers:read');
    expect((await bearerGet(t, second.body.access_token, '/v1/customers')).status).toBe(200);

    const reuse = await refresh(t, app, first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // the whole grant went: the newest refresh token and every access token of it
    expect((await refresh(t, app, second.body.refresh_token)).body.error).toBe('invalid_grant');
    expect((await bearerGet(t, second.body.access_token, '/v1/customers')).status).toBe(401);
    expect((await bearerGet(t, first.access_token, '/v1/customers')).status).toBe(401);
  });

  it('may narrow the scope, never widen it', async () => {
    const first = await tokensFor({ scopes: ['customers:read', 'bookings:read'] });
    const wider = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      scope: 'customers:read invoices:read',
    });
    expect(wider.body.error).toBe('invalid_scope');
    const narrower = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      scope: 'customers:read',
    });
    expect(narrower.body.scope).toBe('customers:read');
    // the new refresh token keeps the grant's scopes
    expect((await refresh(t, app, narrower.body.refresh_token)).body.scope).toBe('bookings:read customers:read');
  });

  it('refuses a refresh token of another app without revoking it', async () => {
    const first = await tokensFor();
    const other = await registerApp(t, acct);
    expect((await refresh(t, other, first.refresh_token)).body.error).toBe('invalid_grant');
    expect((await refresh(t, app, first.refresh_token)).status).toBe(200);
  });

  it('expires access tokens after 3600 s (401 token_expired) and refresh tokens after 30 days', async () => {
    const tokens = await tokensFor();
    clock.advance(3599_000);
    expect((await bearerGet(t, tokens.access_token, '/v1/customers')).status).toBe(200);
    clock.advance(2000);
    const expired = await bearerGet(t, tokens.access_token, '/v1/customers');
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await expired.json()).error).toMatchObject({
      type: 'authentication_error',
      code: 'token_expired',
      message: 'The access token has expired: use the refresh token at POST /oauth/token to get a new one.',
    });

    const renewed = await refresh(t, app, tokens.refresh_token);
    expect(renewed.status).toBe(200);
    clock.advance(30 * 24 * 3600 * 1000 + 1000);
    expect((await refresh(t, app, renewed.body.refresh_token)).body.error).toBe('invalid_grant');
  });
});

describe('revocation (RFC 7009)', () => {
  it('answers 200 for unknown tokens and revokes access tokens one by one', async () => {
    const auth = { id: app.clientId, secret: app.clientSecret as string };
    const unknown = await postForm(t, '/oauth/revoke', { token: 'svc_at_nonsense' }, auth);
    expect(unknown.status).toBe(200);
    const tokens = await tokensFor();
    const revoked = await postForm(
      t,
      '/oauth/revoke',
      { token: tokens.access_token, token_type_hint: 'access_token' },
      auth,
    );
    expect(revoked.status).toBe(200);
    const refused = await bearerGet(t, tokens.access_token, '/v1/customers');
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toMatchObject({
      code: 'invalid_credentials',
      message: 'This access token has been revoked: get a new one by authorizing the app again.',
    });
    expect((await refresh(t, app, tokens.refresh_token)).status).toBe(200);
  });

  it('tells a caller who sends a refresh token, a client secret or an unknown access token what to send', async () => {
    const tokens = await tokensFor();
    const cases = [
      [tokens.refresh_token, /^A refresh token cannot authenticate API requests: exchange it at POST \/oauth\/token/],
      [app.clientSecret as string, /^A client secret cannot authenticate API requests/],
      [`svc_at_${'0'.repeat(40)}`, /^Invalid access token provided: get a new one from POST \/oauth\/token\.$/],
    ] as const;
    for (const [token, message] of cases) {
      const res = await bearerGet(t, token, '/v1/customers');
      expect(res.status).toBe(401);
      const { error } = await res.json();
      expect(error.code).toBe('invalid_credentials');
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain(token);
    }
  });

  it('revoking a refresh token revokes its access tokens', async () => {
    const tokens = await tokensFor();
    const res = await revokeAs(app, tokens.refresh_token);
    expect(res.status).toBe(200);
    expect((await bearerGet(t, tokens.access_token, '/v1/customers')).status).toBe(401);
    expect((await refresh(t, app, tokens.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('needs client authentication and leaves other apps tokens alone', async () => {
    const tokens = await tokensFor();
    const bad = await postForm(t, '/oauth/revoke', { token: tokens.access_token, client_id: app.clientId });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('invalid_client');
    const other = await registerApp(t, acct);
    const foreign = await revokeAs(other, tokens.access_token);
    expect(foreign.status).toBe(200);
    expect((await bearerGet(t, tokens.access_token, '/v1/customers')).status).toBe(200);
    expect(
      (await postForm(t, '/oauth/revoke', { client_id: app.clientId, client_secret: app.clientSecret as string })).body
        .error,
    ).toBe('invalid_request');
  });

  it('deleting an app revokes every token issued to it', async () => {
    const doomed = await registerApp(t, acct);
    const code = await issueCode(t, doomed, acct.userId);
    const tokens = (await exchangeCode(t, doomed, code)).body;
    await deleteOAuthApp(t.app.deps, acct.tenant(doomed.environment), doomed.clientId);
    expect((await bearerGet(t, tokens.access_token, '/v1/customers')).status).toBe(401);
    expect((await refresh(t, doomed, tokens.refresh_token)).body.error).toBe('invalid_client');
  });
});

describe('tenancy', () => {
  it('a token acts only in its app’s account and environment', async () => {
    const testCustomer = await newCustomer(acct.api, {
      first_name: 'Test',
      last_name: 'Side',
      email: 'test-side@example.com',
    });
    const liveCustomer = await newCustomer(acct.live, {
      first_name: 'Live',
      last_name: 'Side',
      email: 'live-side@example.com',
    });
    const stranger = await createTestAccount(t);
    const strangerCustomer = await newCustomer(stranger.api, {
      first_name: 'Other',
      last_name: 'Account',
      email: 'other@example.com',
    });
    const tokens = await tokensFor();

    expect((await bearerGet(t, tokens.access_token, `/v1/customers/${testCustomer.id}`)).status).toBe(200);
    for (const foreign of [liveCustomer.id, strangerCustomer.id]) {
      const res = await bearerGet(t, tokens.access_token, `/v1/customers/${foreign}`);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('resource_not_found');
    }
    const list = await (await bearerGet(t, tokens.access_token, '/v1/customers?per_page=100')).json();
    const ids = list.data.map((customer: { id: string }) => customer.id);
    expect(ids).toContain(testCustomer.id);
    expect(ids).not.toContain(liveCustomer.id);

    // a live app's token sees live data only
    const liveApp = await registerApp(t, acct, { environment: 'live' });
    const liveCode = await issueCode(t, liveApp, acct.userId);
    const liveTokens = (await exchangeCode(t, liveApp, liveCode)).body;
    expect((await bearerGet(t, liveTokens.access_token, `/v1/customers/${liveCustomer.id}`)).status).toBe(200);
    expect((await bearerGet(t, liveTokens.access_token, `/v1/customers/${testCustomer.id}`)).status).toBe(404);
  });
});

describe('concurrency', () => {
  it('two simultaneous redemptions of one code: one wins, and the replay revokes its tokens', async () => {
    const code = await issueCode(t, app, acct.userId);
    const results = await Promise.all([exchangeCode(t, app, code), exchangeCode(t, app, code)]);
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 400]);
    const winner = results.find((res) => res.status === 200)?.body;
    expect((await bearerGet(t, winner.access_token, '/v1/customers')).status).toBe(401);
  });

  it('two simultaneous uses of one refresh token: one rotates, the other is reuse and revokes the grant', async () => {
    const tokens = await tokensFor();
    const results = await Promise.all([refresh(t, app, tokens.refresh_token), refresh(t, app, tokens.refresh_token)]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
    const winner = results.find((res) => res.status === 200)?.body;
    expect((await refresh(t, app, winner.refresh_token)).body.error).toBe('invalid_grant');
  });
});
