// The dashboard's few cookies, read and written by hand: only sign-in pages and dashboard
// routes look at them, so the API's requests never pay for a cookie parser (docs/decisions.md).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';

export interface CookieOptions {
  maxAgeSeconds: number;
  /** Defaults to '/'. */
  path?: string;
  /** Defaults to 'Lax'. */
  sameSite?: 'Lax' | 'Strict';
}

function secureCookies(deps: Deps): boolean {
  return deps.config.baseUrl.startsWith('https:') || deps.config.authUrl.startsWith('https:');
}

/** An HttpOnly cookie, Secure when the site is served over https. */
export function cookieHeader(deps: Deps, name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${value}`,
    `Path=${options.path ?? '/'}`,
    'HttpOnly',
    `SameSite=${options.sameSite ?? 'Lax'}`,
    `Max-Age=${options.maxAgeSeconds}`,
  ];
  if (secureCookies(deps)) parts.push('Secure');
  return parts.join('; ');
}

/** Adds a Set-Cookie header without dropping ones set earlier in the request. */
export function appendCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  reply.header('set-cookie', [...list, cookie]);
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}
