// Bearer authentication and scope checks for /v1. A route names the scope it needs in its
// config; credentials come from resolvers registered by the modules that issue them
// (API keys, OAuth access tokens), so this file knows no credential's storage.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CredentialCache } from '../cache.ts';
import { AppError } from '../errors.ts';
import { hashSecret } from '../ids.ts';
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

/**
 * One kind of credential (API keys, OAuth access tokens), registered by the module that issues
 * it. `recognises` says whether a token has its form (prefix and length), so that a token of no
 * known form can be told apart from a well-formed one nobody issued.
 */
export interface CredentialResolver {
  /** How its tokens look, for the message to a caller whose token has no known form. */
  form: string;
  /** The message for a token of its form that nobody issued (or that no longer exists). */
  unknown: string;
  recognises(token: string): boolean;
  /**
   * The principal for a token of this form; null for one it does not know. Throws a 401 when it
   * knows why the token fails (revoked, expired): the caller holds the token, so that tells no one
   * anything new.
   */
  resolve(token: string): Promise<Principal | null>;
}

/** 401 invalid_credentials, with the challenge RFC 6750 asks for; the message never echoes the token. */
export function invalidCredentials(message: string): AppError {
  return new AppError('invalid_credentials', message, {
    headers: { 'www-authenticate': 'Bearer realm="fieldhand", error="invalid_token"' },
  });
}

/** How a resolver finds its stored credentials (`storedCredential`). */
export interface StoredCredentials<Row extends { revoked_at: unknown }> {
  /** The row of a token, by the token's hash. */
  find(tokenHash: string): Promise<Row | null | undefined>;
  /** What requests need of a row that is not revoked. */
  known(row: Row): KnownCredential;
  /** The message that refuses a revoked credential. */
  revoked: string;
}

/**
 * A stored credential (an API key, an access token) through the process's cache. A revoked one is
 * not cached, like an unknown one: each use asks the database again, and is refused with a 401
 * that says it was revoked.
 */
export async function storedCredential<Row extends { revoked_at: unknown }>(
  cache: CredentialCache<KnownCredential>,
  token: string,
  stored: StoredCredentials<Row>,
): Promise<KnownCredential | null> {
  const tokenHash = hashSecret(token);
  let revoked = false;
  const known = await cache.resolve(tokenHash, async () => {
    const row = await stored.find(tokenHash);
    if (row?.revoked_at) revoked = true;
    if (!row || row.revoked_at) return null;
    return stored.known(row);
  });
  if (revoked) throw invalidCredentials(stored.revoked);
  return known;
}

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
  if (!token) {
    // "Authorization: svc_test_sk_…", "Basic …" or a bare "Bearer": the scheme is what is wrong
    throw invalidCredentials(
      'Send the key as `Authorization: Bearer <key>`: the word Bearer, one space, then the key.',
    );
  }
  const known = resolvers.filter((resolver) => resolver.recognises(token));
  if (known.length === 0) {
    throw invalidCredentials(
      `That is not a key this API issues: send ${resolvers.map((resolver) => resolver.form).join(' or ')}.`,
    );
  }
  for (const resolver of known) {
    const principal = await resolver.resolve(token);
    if (principal) return principal;
  }
  throw invalidCredentials((known[0] as CredentialResolver).unknown);
}
