// Registering OAuth apps: confidential apps get a client secret (`svc_cs_…`, shown once,
// stored as a SHA-256 hash: it is 238 random bits, so a fast hash is enough); public apps get
// none and must use PKCE. Deleting an app revokes everything issued to it.
import { isoTimestamp } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, invalidParameter, notFound } from '../../core/errors.ts';
import { hashSecret, newId, randomBase62 } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import { accountExists } from '../accounts/index.ts';
import * as apps from './apps.repository.ts';
import { isScope, SCOPES, type Scope } from './scopes.ts';
import * as tokens from './tokens.repository.ts';

export interface NewOAuthApp {
  name: string;
  description?: string;
  redirectUris: string[];
  /** An uploaded PNG, JPEG, GIF or WebP image as a base64 data: URL (see `logoDataUrl`). */
  logoUrl?: string | null;
  /** Public apps (browser, mobile) hold no secret and must use PKCE. */
  public?: boolean;
  /** The scopes the app may ask for; all scopes when omitted. */
  scopes?: string[];
}

export interface OAuthAppChanges {
  name?: string;
  description?: string;
  redirectUris?: string[];
  logoUrl?: string | null;
  scopes?: string[];
}

const MAX_REDIRECT_URIS = 10;
const MAX_URL_LENGTH = 2000;
/** About 190 KB of image once decoded: enough for a logo, small enough to inline in a page. */
const MAX_LOGO_DATA_URL_LENGTH = 256 * 1024;
const LOGO_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function newClientSecret(): { secret: string; hash: string; last4: string } {
  const secret = `svc_cs_${randomBase62(40)}`;
  return { secret, hash: hashSecret(secret), last4: secret.slice(-4) };
}

/**
 * Why a redirect URI cannot be registered, or null. https anywhere; http only on loopback
 * (RFC 8252 §7.3); a private-use scheme in reverse-domain form for native apps (§7.1), which
 * also keeps out javascript:, data: and the like. No fragments (RFC 6749 §3.1.2).
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host';
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname) ? null : 'must use https (http is allowed only for localhost)';
  }
  return /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)
    ? null
    : 'must use https, http on localhost, or a reverse-domain private scheme (com.example.app:/callback)';
}

function checkRedirectUris(uris: string[]): string[] {
  if (uris.length === 0) throw invalidParameter('redirect_uris', 'Register at least one redirect URI.');
  if (uris.length > MAX_REDIRECT_URIS) {
    throw invalidParameter('redirect_uris', `Register at most ${MAX_REDIRECT_URIS} redirect URIs.`);
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw invalidParameter('redirect_uris', `The redirect URI ${uri} ${problem}.`);
  }
  return [...new Set(uris)];
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw invalidParameter('name', 'The app name must be 1 to 100 characters.');
  return trimmed;
}

function checkDescription(description: string): string {
  if (description.length > 500)
    throw invalidParameter('description', 'The description must be at most 500 characters.');
  return description.trim();
}

/**
 * Logos are uploaded images kept in the database and shown inline as data: URLs: the consent
 * page then loads nothing from a third party (its CSP allows only 'self' and data: images), and
 * an app cannot change its logo behind the account's back after registration.
 */
function checkLogo(logo: string | null): string | null {
  if (logo === null || logo === '') return null;
  if (logo.length > MAX_LOGO_DATA_URL_LENGTH || !LOGO_DATA_URL.test(logo)) {
    throw invalidParameter(
      'logo',
      'The logo must be an uploaded PNG, JPEG, GIF or WebP image (a base64 data: URL) under 190 KB.',
    );
  }
  return logo;
}

/**
 * An uploaded image as the data: URL the app stores, its type read from the file's first bytes
 * (never from its name or the browser's word); null for anything but PNG, JPEG, GIF or WebP.
 * SVG is refused on purpose: it can carry script.
 */
export function logoDataUrl(bytes: Buffer): string | null {
  const startsWith = (signature: number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
  const type = startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    ? 'png'
    : startsWith([0xff, 0xd8, 0xff])
      ? 'jpeg'
      : startsWith([0x47, 0x49, 0x46, 0x38])
        ? 'gif'
        : startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)
          ? 'webp'
          : null;
  return type ? `data:image/${type};base64,${bytes.toString('base64')}` : null;
}

function checkScopes(scopes: string[] | undefined): Scope[] {
  if (scopes === undefined) return [...SCOPES];
  const unknown = scopes.find((scope) => !isScope(scope));
  if (unknown !== undefined) {
    throw invalidParameter('scopes', `Unknown scope ${unknown}; scopes are ${SCOPES.join(', ')}.`);
  }
  if (scopes.length === 0) throw invalidParameter('scopes', 'Allow at least one scope.');
  return SCOPES.filter((scope) => scopes.includes(scope));
}

function appView(row: apps.OAuthAppRow) {
  return {
    client_id: row.id,
    object: 'oauth_app' as const,
    name: row.name,
    description: row.description,
    environment: row.environment,
    client_type: row.client_type,
    redirect_uris: row.redirect_uris,
    logo_url: row.logo_url,
    scopes: row.allowed_scopes,
    secret_last4: row.secret_last4,
    secret_rotated_at: isoTimestamp(row.secret_rotated_at),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export type OAuthAppView = ReturnType<typeof appView>;

export async function createOAuthApp(deps: Deps, tenant: Tenant, input: NewOAuthApp) {
  const name = checkName(input.name);
  const description = checkDescription(input.description ?? '');
  const redirectUris = checkRedirectUris(input.redirectUris);
  const logoUrl = checkLogo(input.logoUrl ?? null);
  const allowedScopes = checkScopes(input.scopes);
  if (!(await accountExists(deps, tenant.accountId))) throw notFound('account', tenant.accountId, 'account');
  const secret = input.public ? null : newClientSecret();
  const row = await apps.insertApp(deps.db, tenant, {
    id: newId('oauthApp'),
    name,
    description,
    clientType: input.public ? 'public' : 'confidential',
    secretHash: secret?.hash ?? null,
    secretLast4: secret?.last4 ?? null,
    redirectUris,
    logoUrl,
    allowedScopes,
    now: deps.clock.now(),
  });
  return { app: appView(row), client_secret: secret?.secret ?? null };
}

export async function getOAuthApp(deps: Deps, tenant: Tenant, clientId: string) {
  return appView(found(await apps.findApp(deps.db, tenant, clientId), 'OAuth app', clientId, 'client_id'));
}

export async function listOAuthApps(deps: Deps, tenant: Tenant) {
  return (await apps.listApps(deps.db, tenant)).map(appView);
}

export async function updateOAuthApp(deps: Deps, tenant: Tenant, clientId: string, changes: OAuthAppChanges) {
  const row = await apps.updateApp(
    deps.db,
    tenant,
    clientId,
    {
      name: changes.name === undefined ? undefined : checkName(changes.name),
      description: changes.description === undefined ? undefined : checkDescription(changes.description),
      redirectUris: changes.redirectUris === undefined ? undefined : checkRedirectUris(changes.redirectUris),
      logoUrl: changes.logoUrl === undefined ? undefined : checkLogo(changes.logoUrl),
      allowedScopes: changes.scopes === undefined ? undefined : checkScopes(changes.scopes),
    },
    deps.clock.now(),
  );
  if (!row) throw notFound('OAuth app', clientId, 'client_id');
  return appView(row);
}

/** A new secret replaces the old one at once (the old one stops working). */
export async function rotateOAuthAppSecret(deps: Deps, tenant: Tenant, clientId: string) {
  const existing = found(await apps.findApp(deps.db, tenant, clientId), 'OAuth app', clientId, 'client_id');
  if (existing.client_type === 'public') {
    throw new AppError('invalid_state_transition', 'A public app has no client secret to rotate.');
  }
  const secret = newClientSecret();
  const row = found(
    await apps.replaceSecret(deps.db, tenant, clientId, secret, deps.clock.now()),
    'OAuth app',
    clientId,
    'client_id',
  );
  return { app: appView(row), client_secret: secret.secret };
}

/** Deletes one of the tenant's apps and revokes every grant and token issued to it. */
export function deleteOAuthApp(deps: Deps, tenant: Tenant, clientId: string) {
  return deleteApp(deps, clientId, (db, now) => apps.markAppDeleted(db, tenant, clientId, now));
}

/** The operator's `oauth-apps delete --id`: any account's app, by client_id alone. */
export function deleteOAuthAppById(deps: Deps, clientId: string) {
  return deleteApp(deps, clientId, (db, now) => apps.markAppDeletedById(db, clientId, now));
}

async function deleteApp(
  deps: Deps,
  clientId: string,
  markDeleted: (db: Deps['db'], now: Date) => Promise<apps.OAuthAppRow | undefined>,
) {
  const now = deps.clock.now();
  return inTransaction(deps, async ({ db }) => {
    const row = found(await markDeleted(db, now), 'OAuth app', clientId, 'id');
    await tokens.revokeAppGrants(db, clientId, now);
    return { client_id: row.id, deleted: true as const };
  }).finally(() => deps.credentials.forgetAll());
}
