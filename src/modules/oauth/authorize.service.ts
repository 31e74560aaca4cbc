// The authorization endpoint's rules (RFC 6749 §4.1.1-4.1.2, RFC 7636, RFC 9207): which
// requests may go to consent, which errors go back to the app, and which must not, because
// the client or its redirect URI cannot be trusted.
import type { Deps } from '../../core/deps.ts';
import { hashSecret, randomBase62 } from '../../core/ids.ts';
import * as apps from './apps.repository.ts';
import type { OAuthErrorCode } from './oauth-error.ts';
import { isWellFormedPkceValue } from './pkce.ts';
import { parseScopeParameter, SCOPES, type Scope } from './scopes.ts';
import * as tokens from './tokens.repository.ts';
import { AUTHORIZATION_CODE_TTL_SECONDS } from './tokens.service.ts';

export type AuthorizationParameters = Record<string, unknown>;

export interface AuthorizationRequest {
  app: apps.OAuthAppRow;
  redirectUri: string;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string | null;
}

export type AuthorizationCheck =
  /** Shown to the user; never redirected, since the redirect URI is not known to be the app's. */
  | { outcome: 'error_page'; message: string }
  | { outcome: 'redirect_error'; redirectUri: string; error: OAuthErrorCode; description: string; state?: string }
  | { outcome: 'valid'; request: AuthorizationRequest };

const MAX_STATE_LENGTH = 2048;
/** Expired codes are kept a day, so that a late replay still revokes what the code issued. */
const STALE_CODE_MS = 24 * 3600 * 1000;

/** A parameter given once: its value; absent: undefined; repeated (RFC 6749 §3.1 forbids it): null. */
function single(params: AuthorizationParameters, name: string): string | undefined | null {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return null;
  return value;
}

export async function checkAuthorizationRequest(
  deps: Deps,
  params: AuthorizationParameters,
): Promise<AuthorizationCheck> {
  const clientId = single(params, 'client_id');
  if (!clientId) return { outcome: 'error_page', message: 'The request names no app (client_id is missing).' };
  const app = await apps.findActiveAppByClientId(deps.db, clientId);
  if (!app) return { outcome: 'error_page', message: 'No app is registered with this client_id.' };
  const redirectUri = single(params, 'redirect_uri');
  if (!redirectUri) return { outcome: 'error_page', message: 'The request has no redirect_uri.' };
  if (!app.redirect_uris.includes(redirectUri)) {
    return { outcome: 'error_page', message: 'The redirect_uri is not one the app registered.' };
  }

  const rawState = single(params, 'state');
  const state = typeof rawState === 'string' ? rawState : undefined;
  const fail = (error: OAuthErrorCode, description: string): AuthorizationCheck => ({
    outcome: 'redirect_error',
    redirectUri,
    error,
    description,
    state,
  });
  for (const name of ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method']) {
    if (single(params, name) === null) return fail('invalid_request', `${name} must be given once.`);
  }
  if (state !== undefined && state.length > MAX_STATE_LENGTH) {
    return fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters.`);
  }

  const responseType = single(params, 'response_type');
  if (!responseType) return fail('invalid_request', 'response_type is required.');
  if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');

  const challenge = single(params, 'code_challenge') ?? undefined;
  const method = single(params, 'code_challenge_method') ?? undefined;
  if (challenge !== undefined || method !== undefined) {
    // a challenge without a method means "plain" (RFC 7636 §4.3), which we do not accept
    if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256.');
    if (challenge === undefined || !isWellFormedPkceValue(challenge)) {
      return fail('invalid_request', 'code_challenge must be 43-128 characters of base64url.');
    }
  } else if (app.client_type === 'public') {
    return fail('invalid_request', 'This app must use PKCE: send code_challenge and code_challenge_method=S256.');
  }

  const scope = single(params, 'scope');
  if (!scope?.trim()) return fail('invalid_scope', 'scope is required.');
  const scopes = parseScopeParameter(scope);
  if (!scopes) return fail('invalid_scope', 'scope names an unknown scope.');
  const notAllowed = scopes.find((name) => !app.allowed_scopes.includes(name));
  if (notAllowed) return fail('invalid_scope', `This app may not ask for ${notAllowed}.`);

  return { outcome: 'valid', request: { app, redirectUri, scopes, state, codeChallenge: challenge ?? null } };
}

/** May this user approve this app? Only the users of the account that registered it. */
export function userMayApprove(app: apps.OAuthAppRow, user: { accountId: string }): boolean {
  return app.account_id === user.accountId;
}

/** Issues the code an approval redirects with: good for 10 minutes, once, for this request only. */
export async function issueAuthorizationCode(
  deps: Deps,
  request: AuthorizationRequest,
  userId: string,
): Promise<string> {
  const now = deps.clock.now();
  const code = randomBase62(40);
  await tokens.insertCode(
    deps.db,
    { accountId: request.app.account_id, environment: request.app.environment },
    {
      codeHash: hashSecret(code),
      appId: request.app.id,
      userId,
      redirectUri: request.redirectUri,
      // in the scope table's order, so that every response names them the same way
      scopes: SCOPES.filter((scope) => request.scopes.includes(scope)),
      codeChallenge: request.codeChallenge,
      now,
      expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_SECONDS * 1000),
    },
  );
  await tokens.deleteStaleCodes(deps.db, request.app.id, new Date(now.getTime() - STALE_CODE_MS));
  return code;
}

/** The redirect URI with the response parameters added (its own query is kept, RFC 6749 §3.1.2). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.append(name, value);
  }
  return url.toString();
}
