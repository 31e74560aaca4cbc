// OAuth test helpers: register an app through the service (as the CLI and dashboard do), issue
// an authorization code as an approval would, and talk to the token endpoint over HTTP.
import type { Environment } from '../../src/core/tenant.ts';
import { findActiveAppByClientId } from '../../src/modules/oauth/apps.repository.ts';
import { issueAuthorizationCode } from '../../src/modules/oauth/authorize.service.ts';
import { createOAuthApp, type NewOAuthApp, type Scope } from '../../src/modules/oauth/index.ts';
import { s256Challenge } from '../../src/modules/oauth/pkce.ts';
import type { TestAccount, TestApp } from './app.ts';
import { responseOf } from './http.ts';

export const REDIRECT_URI = 'https://app.example.com/callback';

export interface TestOAuthApp {
  clientId: string;
  clientSecret: string | null;
  environment: Environment;
}

export async function registerApp(
  t: TestApp,
  acct: TestAccount,
  options: Partial<NewOAuthApp> & { environment?: Environment } = {},
): Promise<TestOAuthApp> {
  const environment = options.environment ?? 'test';
  const created = await createOAuthApp(t.app.deps, acct.tenant(environment), {
    name: 'Route Planner',
    redirectUris: [REDIRECT_URI],
    ...options,
  });
  return { clientId: created.app.client_id, clientSecret: created.client_secret, environment };
}

/** A code as an approval by `userId` would issue it (the consent page is tested elsewhere). */
export async function issueCode(
  t: TestApp,
  app: TestOAuthApp,
  userId: string,
  options: { scopes?: Scope[]; redirectUri?: string; codeVerifier?: string } = {},
): Promise<string> {
  const row = await findActiveAppByClientId(t.database.sql, app.clientId);
  if (!row) throw new Error('no such app');
  return issueAuthorizationCode(
    t.app.deps,
    {
      app: row,
      redirectUri: options.redirectUri ?? REDIRECT_URI,
      scopes: options.scopes ?? ['customers:read'],
      state: undefined,
      codeChallenge: options.codeVerifier ? s256Challenge(options.codeVerifier) : null,
    },
    userId,
  );
}

export interface OAuthResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** POSTs form-encoded parameters (what standard clients send), optionally with HTTP Basic. */
export async function postForm(
  t: TestApp,
  path: string,
  params: Record<string, string>,
  basic?: { id: string; secret: string },
): Promise<OAuthResponse> {
  const headers: Record<string, string> = {};
  if (basic) {
    const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
    headers.authorization = `Basic ${Buffer.from(`${encode(basic.id)}:${encode(basic.secret)}`).toString('base64')}`;
  }
  const response = await fetch(t.url + path, { method: 'POST', headers, body: new URLSearchParams(params) });
  return responseOf(response);
}

export async function postJson(t: TestApp, path: string, body: unknown): Promise<OAuthResponse> {
  const response = await fetch(t.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return responseOf(response);
}

/** Exchanges a code with client_secret_basic; returns the token response. */
export async function exchangeCode(
  t: TestApp,
  app: TestOAuthApp,
  code: string,
  extra: Record<string, string> = {},
): Promise<OAuthResponse> {
  const params = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, ...extra };
  return app.clientSecret
    ? postForm(t, '/oauth/token', params, { id: app.clientId, secret: app.clientSecret })
    : postForm(t, '/oauth/token', { ...params, client_id: app.clientId });
}

export async function refresh(t: TestApp, app: TestOAuthApp, refreshToken: string): Promise<OAuthResponse> {
  return postForm(t, '/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: app.clientId,
    ...(app.clientSecret ? { client_secret: app.clientSecret } : {}),
  });
}

export function bearerGet(t: TestApp, token: string, path: string): Promise<Response> {
  return fetch(t.url + path, { headers: { authorization: `Bearer ${token}` } });
}
