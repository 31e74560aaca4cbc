// The HTTP side of sessions, for the sign-in routes, the dashboard and the OAuth pages: which
// session a request carries (its cookie), redirects to the sign-in page, form-token checks,
// and the cookies a sign-in sets. The rules themselves are in sessions.service.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { DEVICE_COOKIE, LOGIN_CSRF_COOKIE, readCookie, SESSION_COOKIE, setCookie } from './cookies.ts';
import { DEVICE_MAX_MS } from './devices.ts';
import {
  findSession,
  isCsrfToken,
  loginUrl,
  newCsrfToken,
  SESSION_MAX_MS,
  type Session,
  sameCsrfToken,
} from './sessions.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's session lookup, made once per request by `currentSession`. */
    sessionLookup: Promise<Session | null> | null;
  }
}

export function decorateSessionLookup(app: FastifyInstance): void {
  app.decorateRequest('sessionLookup', null);
}

/** The signed-in session of this request, or null (looked up once per request). */
export function currentSession(deps: Deps, request: FastifyRequest): Promise<Session | null> {
  request.sessionLookup ??= findSession(deps, readCookie(request, SESSION_COOKIE));
  return request.sessionLookup;
}

/**
 * The session, or null after answering with a redirect to the login page (which comes back
 * to this URL for a GET). Use: `const session = await requireSession(deps, request, reply);
 * if (!session) return reply;`
 */
export async function requireSession(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Session | null> {
  const session = await currentSession(deps, request);
  if (session) return session;
  const next = request.method === 'GET' ? request.url : '/dashboard';
  await reply.redirect(loginUrl(next), 303);
  return null;
}

/** After a sign-in: the session's cookie, and the device cookie that remembers this browser. */
export function setSignInCookies(
  deps: Deps,
  reply: FastifyReply,
  tokens: { sessionToken: string; deviceToken: string },
): void {
  // Only the sign-in form needs the device cookie, and only from this site's own pages.
  setCookie(deps, reply, DEVICE_COOKIE, tokens.deviceToken, {
    path: '/dashboard/login',
    sameSite: 'strict',
    maxAgeSeconds: Math.floor(DEVICE_MAX_MS / 1000),
  });
  setCookie(deps, reply, SESSION_COOKIE, tokens.sessionToken, { maxAgeSeconds: Math.floor(SESSION_MAX_MS / 1000) });
}

/** After a sign-out: the session cookie goes, and this request has no session any more. */
export function clearSessionCookie(deps: Deps, request: FastifyRequest, reply: FastifyReply): void {
  request.sessionLookup = Promise.resolve(null);
  setCookie(deps, reply, SESSION_COOKIE, '', { maxAgeSeconds: 0 });
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return readCookie(request, SESSION_COOKIE);
}

export function deviceToken(request: FastifyRequest): string | undefined {
  return readCookie(request, DEVICE_COOKIE);
}

/** The login form's CSRF token: kept in a short-lived cookie and echoed in the form. */
export function loginCsrfToken(deps: Deps, request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request, LOGIN_CSRF_COOKIE);
  if (isCsrfToken(existing)) return existing;
  const token = newCsrfToken();
  setCookie(deps, reply, LOGIN_CSRF_COOKIE, token, { maxAgeSeconds: 60 * 60 });
  return token;
}

export function verifyLoginCsrf(request: FastifyRequest, token: unknown): boolean {
  return sameCsrfToken(readCookie(request, LOGIN_CSRF_COOKIE), token);
}
