// The dashboard's cookies, through @fastify/cookie (registered in app.ts): their names and
// attributes in one place. Every value is an opaque random token whose hash the server
// keeps, so nothing is signed: a forged value names no row.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';

export const SESSION_COOKIE = 'fieldhand_session';
/** Double-submit token for the login form, which comes before any session exists. */
export const LOGIN_CSRF_COOKIE = 'fieldhand_login_csrf';
export const DEVICE_COOKIE = 'fieldhand_device';

interface CookieOptions {
  maxAgeSeconds: number;
  /** Defaults to '/'. */
  path?: string;
  /** Defaults to 'lax'. */
  sameSite?: 'lax' | 'strict';
}

/** An HttpOnly cookie, Secure when the site is served over https; max-age 0 deletes it. */
export function setCookie(deps: Deps, reply: FastifyReply, name: string, value: string, options: CookieOptions) {
  const { config } = deps;
  reply.setCookie(name, value, {
    path: options.path ?? '/',
    httpOnly: true,
    sameSite: options.sameSite ?? 'lax',
    maxAge: options.maxAgeSeconds,
    secure: config.baseUrl.startsWith('https:') || config.authUrl.startsWith('https:'),
  });
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  return request.cookies[name];
}
