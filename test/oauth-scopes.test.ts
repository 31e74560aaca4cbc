// Scopes on /v1: every route names one (a route without one fails here), a token without a
// route's scope gets 403 insufficient_scope on every route, and docs/oauth-scopes.md is the
// table generated from the routes (regenerate with `npx vitest run test/oauth-scopes.test.ts -u`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../src/modules/oauth/index.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { exchangeCode, issueCode, registerApp, type TestOAuthApp } from './helpers/oauth.ts';

let t: TestApp;
let acct: TestAccount;
let app: TestOAuthApp;

/** Public by design: the API's own description. */
const PUBLIC_V1_ROUTES = new Set(['GET /v1/openapi.json', 'HEAD /v1/openapi.json']);

interface V1Route {
  method: string;
  url: string;
  scope: Scope | undefined;
}

function v1Routes(): V1Route[] {
  const routes: V1Route[] = [];
  for (const route of t.app.routes) {
    if (!route.url.startsWith('/v1/') && route.url !== '/v1') continue;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method, url: route.url, scope: route.config?.scope });
  }
  return routes;
}

/** The routes a client calls (HEAD mirrors GET), in a stable order. */
function scopedRoutes(): (V1Route & { scope: Scope })[] {
  return v1Routes()
    .filter((route): route is V1Route & { scope: Scope } => route.method !== 'HEAD' && route.scope !== undefined)
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

beforeAll(async () => {
  t = await startTestApp();
  acct = await createTestAccount(t);
  app = await registerApp(t, acct);
});
afterAll(() => t.close());

async function tokenWith(scopes: Scope[]): Promise<string> {
  const code = await issueCode(t, app, acct.userId, { scopes });
  const res = await exchangeCode(t, app, code);
  expect(res.status).toBe(200);
  return res.body.access_token;
}

function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, 'x_does_not_exist');
}

async function call(route: V1Route, token: string): Promise<Response> {
  const hasBody = ['POST', 'PATCH', 'PUT'].includes(route.method);
  return fetch(t.url + concrete(route.url), {
    method: route.method,
    headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
    body: hasBody ? '{}' : undefined,
  });
}

describe('scopes', () => {
  it('every /v1 route declares the scope it needs', () => {
    const routes = v1Routes();
    expect(routes.length).toBeGreaterThan(5);
    const missing = routes
      .filter((route) => !route.scope && !PUBLIC_V1_ROUTES.has(`${route.method} ${route.url}`))
      .map((route) => `${route.method} ${route.url}`);
    expect(missing, 'these /v1 routes have no config.scope').toEqual([]);
    for (const route of routes) {
      if (route.scope) expect(SCOPES).toContain(route.scope);
    }
  });

  it('a token without a route’s scope gets 403 insufficient_scope on every /v1 route', async () => {
    const tokens = new Map<Scope, string>();
    for (const scope of SCOPES) tokens.set(scope, await tokenWith(SCOPES.filter((other) => other !== scope)));
    const only = new Map<Scope, string>();
    for (const scope of SCOPES) only.set(scope, await tokenWith([scope]));

    const routes = scopedRoutes();
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const denied = await call(route, tokens.get(route.scope) as string);
      const label = `${route.method} ${route.url} without ${route.scope}`;
      expect(denied.status, label).toBe(403);
      expect(denied.headers.get('www-authenticate'), label).toBe(
        `Bearer error="insufficient_scope", scope="${route.scope}"`,
      );
      expect((await denied.json()).error, label).toMatchObject({
        type: 'permission_error',
        code: 'insufficient_scope',
      });
      // and the scope alone is enough to get past authorisation
      const allowed = await call(route, only.get(route.scope) as string);
      expect([401, 403], `${route.method} ${route.url} with ${route.scope}`).not.toContain(allowed.status);
    }
  });

  it('API keys keep full access', async () => {
    for (const route of scopedRoutes().filter((each) => each.method === 'GET')) {
      const res = await call(route, acct.testKey);
      expect([401, 403], `${route.method} ${route.url}`).not.toContain(res.status);
    }
  });

  it('docs/oauth-scopes.md lists every route with its scope', async () => {
    const rows = scopedRoutes().map((route) => `| \`${route.method}\` | \`${route.url}\` | \`${route.scope}\` |`);
    const table = [
      '<!-- Generated from the routes by test/oauth-scopes.test.ts: run it with -u after adding a route. -->',
      '# Scopes per endpoint',
      '',
      'An OAuth access token can call an endpoint only if it was granted the scope listed here',
      '(otherwise 403 `insufficient_scope`). API keys can call every endpoint.',
      '',
      '| Method | Path | Scope |',
      '|---|---|---|',
      ...rows,
      '',
    ].join('\n');
    await expect(table).toMatchFileSnapshot('../docs/oauth-scopes.md');
  });
});
