// Browser-facing pages (/dashboard, /oauth) get a strict Content-Security-Policy: our own
// script and stylesheet only, no inline code, never framed (clickjacking on consent and
// revoke buttons).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../core/config.ts';

const BASE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
];

// The consent form's answer is a redirect to the client's redirect_uri, which browsers check
// against form-action; OAuth pages therefore leave form-action open.
const DASHBOARD_POLICY = [...BASE_POLICY, "form-action 'self'"].join('; ');
const OAUTH_POLICY = BASE_POLICY.join('; ');

function isBrowserPage(url: string): boolean {
  return (
    url === '/dashboard' || url.startsWith('/dashboard/') || url.startsWith('/dashboard?') || url.startsWith('/oauth/')
  );
}

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const https = config.baseUrl.startsWith('https:');
  app.addHook('onRequest', async (request, reply) => {
    if (!isBrowserPage(request.url)) return;
    reply.header('content-security-policy', request.url.startsWith('/oauth/') ? OAUTH_POLICY : DASHBOARD_POLICY);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (https) reply.header('strict-transport-security', 'max-age=31536000');
  });
}
