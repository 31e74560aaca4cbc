// Bearer authentication and scope checks for /v1. A route names the scope it needs in its
// config; credentials come from resolvers registered by the modules that issue them
// (API keys, OAuth access tokens), so this file knows no credential's storage.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { Tenant } from '../tenant.ts';

export const SCOPES = [
  'bookings:read',
  'bookings:write',
  'catalog:write',
  'customers:read',
  'customers:write',
  'events:read',
  'invoices:read',
  'invoices:write',
  'services:read',
  'staff:read',
  'staff:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export interface Principal {
  tenant: Tenant;
  credential: {
    kind: 'api_key' | 'oauth_token';
    id: string;
    /** null = every scope (API keys). */
    scopes: readonly Scope[] | null;
  };
  /** The user an OAuth token acts for. */
  userId?: string;
}

/** What a resolver keeps of a credential between requests (core/cache.ts): never the token. */
export interface KnownCredential {
  principal: Principal;
  /** When an expiring credential (an access token) stops working, in ms; null = never. */
  expiresAt: number | null;
}

/** Returns the principal for a token it recognises, null for one it does not know. */
export type CredentialResolver = (token: string) => Promise<Principal | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a /v1 route needs; every /v1 route names one. */
    scope?: Scope;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) {
    throw new AppError('authentication_required', 'This request needs an API key or access token.');
  }
  return request.principal;
}

export function tenantOf(request: FastifyRequest): Tenant {
  return requirePrincipal(request).tenant;
}

export function registerAuth(app: FastifyInstance, resolvers: CredentialResolver[]): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.scope) {
      request.principal = await authenticate(request.headers.authorization, resolvers);
    } else if (request.is404 && request.url.startsWith('/v1/') && request.headers.authorization !== undefined) {
      // An unknown /v1 route with credentials is checked and counted like any other request,
      // so its 404 carries the rate-limit headers; without credentials it is still a 404.
      request.principal = await authenticate(request.headers.authorization, resolvers);
    }
  });
  // After the rate limit (onRequest hooks), so that a 403 carries the rate-limit headers and
  // counts against the budget; before the body is read.
  app.addHook('preParsing', async (request) => {
    const scope = request.routeOptions.config.scope;
    const granted = request.principal?.credential.scopes;
    if (scope && granted && !granted.includes(scope)) {
      throw new AppError('insufficient_scope', `This access token lacks the scope ${scope}.`, {
        headers: {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
        },
      });
    }
  });
}

async function authenticate(header: string | undefined, resolvers: CredentialResolver[]) {
  if (!header) {
    throw new AppError(
      'authentication_required',
      'No credentials: send "Authorization: Bearer <API key or access token>".',
      { headers: { 'www-authenticate': 'Bearer realm="fieldhand"' } },
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  if (token) {
    for (const resolve of resolvers) {
      const principal = await resolve(token);
      if (principal) return principal;
    }
  }
  throw new AppError('invalid_credentials', 'The API key or access token is invalid or revoked.', {
    headers: { 'www-authenticate': 'Bearer realm="fieldhand", error="invalid_token"' },
  });
}
