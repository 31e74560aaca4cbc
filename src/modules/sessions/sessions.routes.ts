// Sign-in pages, sign-out, the test/live switch and the static files the pages use.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { ASSET_FILES, ASSETS } from './assets.ts';
import { html, layout, type SafeHtml, sendForbidden, sendPage } from './html.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import {
  clearSessionCookie,
  currentSession,
  decorateSessionLookup,
  deviceToken,
  formField,
  loginCsrfToken,
  requireSession,
  sessionToken,
  setSignInCookies,
  verifyLoginCsrf,
} from './sessions.http.ts';
import { safeNext, signIn, signOut, switchEnvironment, verifyCsrf } from './sessions.service.ts';

function queryField(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function loginPage(options: {
  token: string;
  next: string;
  email?: string;
  error?: string;
  notice?: string;
}): SafeHtml {
  return layout({
    title: 'Sign in',
    bodyClass: 'centered',
    body: html`<main class="card narrow" id="main">
  <div class="brand brand-large"><span class="brand-mark" aria-hidden="true"></span>Fieldhand</div>
  <h1>Sign in</h1>
  <p class="lead">Sign in to manage your business and its integrations.</p>
  ${options.error ? html`<div class="alert error" role="alert" id="login-error">${options.error}</div>` : null}
  ${options.notice ? html`<div class="alert success" role="status">${options.notice}</div>` : null}
  <form method="post" action="/dashboard/login" novalidate>
    <input type="hidden" name="_csrf" value="${options.token}">
    <input type="hidden" name="next" value="${options.next}">
    <div class="field">
      <label for="email">E-mail</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}"
        ${options.email ? null : html`autofocus`}>
    </div>
    <div class="field">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required
        ${options.email ? html`autofocus` : null}>
    </div>
    <button type="submit" class="full">Sign in</button>
  </form>
</main>`,
  });
}

export function sessionRoutes(app: FastifyInstance, deps: Deps): void {
  registerSecurityHeaders(app, deps);
  decorateSessionLookup(app);

  app.get<{ Params: { name: string } }>(
    '/dashboard/assets/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const asset = ASSET_FILES.get(request.params.name);
      if (!asset) return reply.code(404).type('text/plain').send('Not found');
      // URLs carry a content hash (ASSETS), so browsers may keep the files for a day.
      return reply.header('cache-control', 'public, max-age=86400').type(asset.type).send(asset.body);
    },
  );
  // Browsers ask for this on their own.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect(ASSETS.icon, 301));

  app.get('/dashboard/login', { schema: { hide: true } }, async (request, reply) => {
    const next = safeNext(queryField(request, 'next') || '/dashboard');
    if (await currentSession(deps, request)) return reply.redirect(next, 303);
    const notice = queryField(request, 'signed_out') ? 'You have signed out.' : undefined;
    return sendPage(reply, loginPage({ token: loginCsrfToken(deps, request, reply), next, notice }));
  });

  app.post('/dashboard/login', { schema: { hide: true } }, async (request, reply) => {
    const next = safeNext(formField(request, 'next') || '/dashboard');
    const email = formField(request, 'email').slice(0, 320);
    if (!verifyLoginCsrf(request, formField(request, '_csrf'))) {
      const token = loginCsrfToken(deps, request, reply);
      const error = 'This sign-in form expired or did not come from this site. Please sign in again.';
      return sendPage(reply, loginPage({ token, next, email, error }), 403);
    }
    const result = await signIn(deps, {
      email,
      password: formField(request, 'password').slice(0, 1024),
      address: request.ip,
      deviceToken: deviceToken(request),
    });
    if (result.ok) {
      setSignInCookies(deps, reply, result);
      return reply.redirect(next, 303);
    }
    if (result.retryAfterSeconds) reply.header('retry-after', String(result.retryAfterSeconds));
    const status = result.reason === 'throttled' ? 429 : 401;
    const token = loginCsrfToken(deps, request, reply);
    return sendPage(reply, loginPage({ token, next, email, error: result.message }), status);
  });

  app.post('/dashboard/logout', { schema: { hide: true } }, async (request, reply) => {
    const session = await currentSession(deps, request);
    if (session && !verifyCsrf(session, formField(request, '_csrf'))) return sendForbidden(reply);
    await signOut(deps, sessionToken(request));
    clearSessionCookie(deps, request, reply);
    return reply.redirect('/dashboard/login?signed_out=1', 303);
  });

  // The test/live switch; `next` brings the admin back to the same page in the other environment.
  app.post('/dashboard/environment', { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    if (!verifyCsrf(session, formField(request, '_csrf'))) return sendForbidden(reply);
    const environment = formField(request, 'environment');
    if (environment !== 'test' && environment !== 'live') return sendForbidden(reply);
    await switchEnvironment(deps, session, environment);
    return reply.redirect(environmentSwitchTarget(formField(request, 'next')), 303);
  });
}

/**
 * After a switch, a page about one record (whose id belongs to the other environment), such as
 * …/webhooks/wh_…/edit, becomes the list it came from.
 */
function environmentSwitchTarget(next: string): string {
  const path = safeNext(next || '/dashboard').split('?')[0] ?? '/dashboard';
  const segments = path.split('/');
  const idAt = segments.findIndex((segment) => /^[a-z]+_[0-9A-Za-z]{24}$/.test(segment));
  return idAt > 0 ? segments.slice(0, idAt).join('/') : path;
}
