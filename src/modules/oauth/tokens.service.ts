// The token endpoint's work: authenticate the client, redeem an authorization code or rotate a
// refresh token, revoke; and the resolver that turns an access token into a /v1 principal.
// Codes and tokens are random 238-bit strings stored only as SHA-256 hashes.
import { timingSafeEqual } from 'node:crypto';
import { isoTimestamp, type Sql } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { type CredentialResolver, invalidCredentials, storedCredential } from '../../core/http/auth.ts';
import { hashSecret, newId, randomBase62 } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import * as apps from './apps.repository.ts';
import { OAuthError } from './oauth-error.ts';
import { verifiesChallenge } from './pkce.ts';
import { parseScopeParameter, type Scope } from './scopes.ts';
import * as tokens from './tokens.repository.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const AUTHORIZATION_CODE_TTL_SECONDS = 600;

const ACCESS_TOKEN = /^svc_at_[0-9A-Za-z]{40}$/;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** How the client presented itself: HTTP Basic, body parameters, or only its id (public apps). */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
}

function expired(expiresAt: string, now: Date): boolean {
  return new Date(isoTimestamp(expiresAt)).getTime() <= now.getTime();
}

function sameSecretHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function clientAuthenticationFailed(): OAuthError {
  return new OAuthError('invalid_client', 'Client authentication failed.');
}

/** The app the credentials prove; invalid_client for an unknown app or a wrong or missing secret. */
export async function authenticateClient(deps: Deps, credentials: ClientCredentials): Promise<apps.OAuthAppRow> {
  const app = await apps.findActiveAppByClientId(deps.db, credentials.clientId);
  if (!app) throw clientAuthenticationFailed();
  if (app.client_type === 'public') {
    // a public app has no secret; one that sends one is misconfigured, and we say so
    if (credentials.clientSecret !== undefined) throw clientAuthenticationFailed();
    return app;
  }
  if (credentials.clientSecret === undefined || !app.secret_hash) throw clientAuthenticationFailed();
  if (!sameSecretHash(hashSecret(credentials.clientSecret), app.secret_hash)) throw clientAuthenticationFailed();
  return app;
}

async function issueTokenPair(
  tx: Sql,
  tenant: Tenant,
  grant: { id: string; appId: string; userId: string; scopes: Scope[]; refreshScopes: Scope[] },
  now: Date,
): Promise<TokenResponse> {
  const accessToken = `svc_at_${randomBase62(40)}`;
  const refreshToken = `svc_rt_${randomBase62(40)}`;
  const common = { appId: grant.appId, grantId: grant.id, userId: grant.userId, now };
  await tokens.insertToken(tx, tenant, {
    ...common,
    id: newId('oauthToken'),
    tokenHash: hashSecret(accessToken),
    kind: 'access',
    scopes: grant.scopes,
    expiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
  });
  await tokens.insertToken(tx, tenant, {
    ...common,
    id: newId('oauthToken'),
    tokenHash: hashSecret(refreshToken),
    kind: 'refresh',
    scopes: grant.refreshScopes,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
    scope: grant.scopes.join(' '),
  };
}

/** A redemption's result: tokens, or why not (returned so that revocations still commit). */
type Outcome =
  | { pair: TokenResponse; error?: undefined; scopeError?: undefined }
  | { error: string; scopeError?: undefined }
  | { scopeError: string; error?: undefined };

function tenantOfRow(row: { account_id: string; environment: Tenant['environment'] }): Tenant {
  return { accountId: row.account_id, environment: row.environment };
}

/**
 * The token pair, or the OAuth error. A refused code or refresh token may have revoked its grant
 * (a replay): the credential cache then forgets, once the transaction has committed.
 */
function settled(deps: Deps, outcome: Outcome): TokenResponse {
  if (outcome.error !== undefined) {
    deps.credentials.forgetAll();
    throw new OAuthError('invalid_grant', outcome.error);
  }
  if (outcome.scopeError !== undefined) throw new OAuthError('invalid_scope', outcome.scopeError);
  return outcome.pair;
}

/**
 * Redeems an authorization code (RFC 6749 §4.1.3, RFC 7636 §4.6). A code is good once: a second
 * redemption is invalid_grant and revokes the grant the first one created (RFC 6749 §4.1.2).
 */
export async function redeemAuthorizationCode(
  deps: Deps,
  app: apps.OAuthAppRow,
  input: { code: string; redirectUri: string; codeVerifier?: string },
): Promise<TokenResponse> {
  const now = deps.clock.now();
  const outcome = await inTransaction(deps, async ({ db: tx }): Promise<Outcome> => {
    const code = await tokens.lockCode(tx, hashSecret(input.code));
    if (!code || code.app_id !== app.id) return { error: 'The authorization code is invalid.' };
    if (code.consumed_at) {
      if (code.grant_id) await tokens.revokeGrant(tx, code.grant_id, now);
      return { error: 'The authorization code has already been used; the tokens it issued are revoked.' };
    }
    if (expired(code.expires_at, now)) return { error: 'The authorization code has expired.' };
    if (code.redirect_uri !== input.redirectUri) {
      return { error: 'redirect_uri does not match the one in the authorization request.' };
    }
    if (code.code_challenge) {
      if (input.codeVerifier === undefined) return { error: 'code_verifier is required for this code.' };
      if (!verifiesChallenge(input.codeVerifier, code.code_challenge)) {
        return { error: 'code_verifier does not match the code_challenge.' };
      }
    } else if (input.codeVerifier !== undefined) {
      // RFC 9700 §2.1.1: a verifier for a code issued without a challenge is a downgrade attempt
      return { error: 'This code was issued without a code_challenge.' };
    }
    const tenant = tenantOfRow(code);
    const grantId = newId('grant');
    await tokens.insertGrant(tx, tenant, {
      id: grantId,
      appId: app.id,
      userId: code.user_id,
      scopes: code.scopes,
      now,
    });
    await tokens.markCodeConsumed(tx, code.code_hash, grantId, now);
    const pair = await issueTokenPair(
      tx,
      tenant,
      { id: grantId, appId: app.id, userId: code.user_id, scopes: code.scopes, refreshScopes: code.scopes },
      now,
    );
    return { pair };
  });
  // the revocation above must commit, so failures are returned from the transaction, thrown here
  return settled(deps, outcome);
}

/**
 * Exchanges a refresh token for a new access token and a new refresh token (rotation). Presenting
 * a token that was already rotated means it leaked: the whole grant is revoked (RFC 9700 §4.14.2).
 * `scope` may narrow the new access token (RFC 6749 §6); the refresh token keeps the grant's.
 */
export async function rotateRefreshToken(
  deps: Deps,
  app: apps.OAuthAppRow,
  input: { refreshToken: string; scope?: string },
): Promise<TokenResponse> {
  const now = deps.clock.now();
  const requested = input.scope === undefined ? null : parseScopeParameter(input.scope);
  if (input.scope !== undefined && (!requested || requested.length === 0)) {
    throw new OAuthError('invalid_scope', 'scope names an unknown scope.');
  }
  const outcome = await inTransaction(deps, async ({ db: tx }): Promise<Outcome> => {
    const row = await tokens.lockRefreshToken(tx, hashSecret(input.refreshToken));
    if (!row || row.app_id !== app.id) return { error: 'The refresh token is invalid.' };
    if (row.revoked_at) return { error: 'The refresh token has been revoked.' };
    if (row.rotated_at) {
      await tokens.revokeGrant(tx, row.grant_id, now);
      return { error: 'The refresh token was already used; the grant is revoked.' };
    }
    if (expired(row.expires_at, now)) return { error: 'The refresh token has expired.' };
    const scopes = requested ?? row.scopes;
    if (!scopes.every((scope) => row.scopes.includes(scope))) {
      return { scopeError: 'scope exceeds the scopes originally granted.' };
    }
    await tokens.markRotated(tx, row.id, now);
    const pair = await issueTokenPair(
      tx,
      tenantOfRow(row),
      { id: row.grant_id, appId: app.id, userId: row.user_id, scopes, refreshScopes: row.scopes },
      now,
    );
    return { pair };
  });
  return settled(deps, outcome);
}

/**
 * RFC 7009: revokes a token the app holds. Unknown tokens, and tokens of other apps, are
 * answered the same way (nothing to say), so revocation never tells whether a token exists.
 * Revoking a refresh token revokes its grant, and with it every access token issued under it.
 */
export async function revokeTokenOfApp(deps: Deps, app: apps.OAuthAppRow, token: string): Promise<void> {
  const now = deps.clock.now();
  await inTransaction(deps, async ({ db: tx }) => {
    const row = await tokens.findToken(tx, hashSecret(token));
    if (!row || row.app_id !== app.id) return;
    if (row.kind === 'refresh') await tokens.revokeGrant(tx, row.grant_id, now);
    else await tokens.revokeToken(tx, row.id, now);
  });
  // committed: refused by this process from the next request, by others within CREDENTIAL_TTL_MS
  deps.credentials.forgetAll();
}

/**
 * Authenticates /v1 requests made with an OAuth access token. A token found is believed for
 * CREDENTIAL_TTL_MS (deps.credentials, keyed by its hash); its expiry is checked on every request.
 */
export function accessTokenResolver(deps: Deps): CredentialResolver {
  return {
    form: 'an OAuth access token (svc_at_…)',
    unknown: 'Invalid access token provided: get a new one from POST /oauth/token.',
    // refresh tokens and client secrets too, to say what to do with them instead
    recognises: (token) => /^svc_(at|rt|cs)_/.test(token),
    resolve: async (token) => {
      if (token.startsWith('svc_rt_')) {
        throw invalidCredentials(
          'A refresh token cannot authenticate API requests: exchange it at POST /oauth/token for an access token and send that.',
        );
      }
      if (token.startsWith('svc_cs_')) {
        throw invalidCredentials(
          'A client secret cannot authenticate API requests: use it at POST /oauth/token to get an access token and send that.',
        );
      }
      if (!ACCESS_TOKEN.test(token)) return null;
      const known = await storedCredential(deps.credentials, token, {
        find: (tokenHash) => tokens.findAccessToken(deps.db, tokenHash),
        known: (row) => ({
          principal: {
            tenant: tenantOfRow(row),
            // the grant, not the token, is the credential: rate limits survive a token refresh
            credential: { kind: 'oauth_token', id: row.grant_id, scopes: row.scopes },
            userId: row.user_id,
          },
          expiresAt: new Date(isoTimestamp(row.expires_at)).getTime(),
        }),
        revoked: 'This access token has been revoked: get a new one by authorizing the app again.',
      });
      if (!known) return null;
      if (known.expiresAt !== null && known.expiresAt <= deps.clock.now().getTime()) {
        throw new AppError(
          'token_expired',
          'The access token has expired: use the refresh token at POST /oauth/token to get a new one.',
          {
            headers: {
              'www-authenticate':
                'Bearer realm="fieldhand", error="invalid_token", error_description="The access token expired"',
            },
          },
        );
      }
      return known.principal;
    },
  };
}

function grantView(row: tokens.GrantRow) {
  return {
    id: row.id,
    object: 'oauth_grant' as const,
    app: { client_id: row.app_id, name: row.app_name, logo_url: row.app_logo_url },
    user_id: row.user_id,
    environment: row.environment,
    scopes: row.scopes,
    created_at: isoTimestamp(row.created_at),
    revoked_at: isoTimestamp(row.revoked_at),
  };
}

export type OAuthGrantView = ReturnType<typeof grantView>;

/** The apps a user has connected (grants that can still act), newest first. */
export async function listUserGrants(deps: Deps, tenant: Tenant, userId: string) {
  return (await tokens.listActiveGrants(deps.db, tenant, userId, deps.clock.now())).map(grantView);
}

/** A user disconnects an app: the grant and all its tokens are revoked. Only the user's own grants. */
export async function revokeGrant(deps: Deps, tenant: Tenant, input: { grantId: string; userId: string }) {
  const now = deps.clock.now();
  return inTransaction(deps, async ({ db: tx }) => {
    const grant = await tokens.findGrant(tx, tenant, input.grantId);
    if (!grant || grant.user_id !== input.userId) throw notFound('grant', input.grantId, 'id');
    await tokens.revokeGrant(tx, input.grantId, now);
    return grantView({ ...grant, revoked_at: grant.revoked_at ?? now.toISOString() });
  }).finally(() => deps.credentials.forgetAll());
}
