// Sign-in pages, sign-out and the test/live switch. Like every dashboard page they answer in
// HTML, failures included (a 503 page during a database outage).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { formField, queryValue } from '../../web/forms.ts';
import { sendErrorPage, sendForbidden, sendPage } from '../../web/page.ts';
import {
  clearSessionCookie,
  currentSession,
  deviceToken,
  loginCsrfToken,
  requireSession,
  sessionToken,
  setSignInCookies,
  verifyLoginCsrf,
} from './sessions.http.ts';
import { safeNext, signIn, signOut, switchEnvironment, verifyCsrf } from './sessions.service.ts';
import { signInPage } from './sign-in.view.ts';

export function sessionRoutes(server: FastifyInstance, deps: Deps): void {
  void server.register(async (app) => {
    app.setErrorHandler(sendErrorPage);
    signInRoutes(app, deps);
  });
}

function signInRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/dashboard/login', { schema: { hide: true } }, async (request, reply) => {
    const next = safeNext(queryValue(request, 'next') || '/dashboard');
    if (await currentSession(deps, request)) return reply.redirect(next, 303);
    const notice = queryValue(request, 'signed_out') ? 'You have signed out.' : undefined;
    return sendPage(reply, signInPage({ token: loginCsrfToken(deps, request, reply), next, notice }));
  });

  app.post('/dashboard/login', { schema: { hide: true } }, async (request, reply) => {
    const next = safeNext(formField(request, 'next') || '/dashboard');
    const email = formField(request, 'email').slice(0, 320);
    if (!verifyLoginCsrf(request, formField(request, '_csrf'))) {
      const token = loginCsrfToken(deps, request, reply);
      const error = 'This sign-in form expired or did not come from this site. Please sign in again.';
      return sendPage(reply, signInPage({ token, next, email, error }), 403);
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
    return sendPage(reply, signInPage({ token, next, email, error: result.message }), status);
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
