// API keys: `svc_test_sk_…` / `svc_live_sk_…`, shown once, stored only as a SHA-256 hash (the
// key is 190 random bits, so a fast hash is enough), revocable, with last use recorded.
import { isoTimestamp } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import { found, notFound } from '../../core/errors.ts';
import { type CredentialResolver, storedCredential } from '../../core/http/auth.ts';
import { hashSecret, newId, randomBase62 } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import * as repository from './accounts.repository.ts';

const KEY_PATTERN = /^svc_(test|live)_sk_[0-9A-Za-z]{32}$/;
const KEY_PREFIX = /^svc_(test|live)_sk_/;
/** last_used_at is written at most this often per key, to keep writes off the hot path. */
const TOUCH_EVERY_MS = 60_000;

export type ApiKeyView = ReturnType<typeof apiKeyView>;

function apiKeyView(row: repository.ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    last4: row.last4,
    created_at: isoTimestamp(row.created_at),
    last_used_at: isoTimestamp(row.last_used_at),
    revoked_at: isoTimestamp(row.revoked_at),
  };
}

/** A new key for the tenant; the key itself is in this answer and nowhere else, ever. */
export async function createApiKey(deps: Deps, tenant: Tenant, name = '') {
  if (!(await repository.findAccount(deps.db, tenant.accountId))) {
    throw notFound('account', tenant.accountId, 'account');
  }
  const key = `svc_${tenant.environment}_sk_${randomBase62(32)}`;
  const id = newId('apiKey');
  await repository.insertApiKey(deps.db, tenant, { id, name, keyHash: hashSecret(key), last4: key.slice(-4) });
  return { id, key, environment: tenant.environment, name };
}

/** The tenant's keys, newest first, revoked ones included. */
export async function listApiKeys(deps: Deps, tenant: Tenant): Promise<ApiKeyView[]> {
  return (await repository.listApiKeys(deps.db, tenant)).map(apiKeyView);
}

export async function revokeApiKey(deps: Deps, tenant: Tenant, keyId: string) {
  const row = found(await repository.revokeApiKey(deps.db, tenant, keyId, deps.clock.now()), 'API key', keyId, 'id');
  // refused by this process from the next request; other instances within CREDENTIAL_TTL_MS
  deps.credentials.forgetAll();
  return { id: row.id, revoked: true as const };
}

/** The operator's `api-keys revoke --id`: any account's key, by id alone. */
export async function revokeApiKeyById(deps: Deps, keyId: string) {
  const row = found(await repository.revokeApiKeyById(deps.db, keyId, deps.clock.now()), 'API key', keyId, 'id');
  deps.credentials.forgetAll();
  return { id: row.id, revoked: true as const };
}

/**
 * Authenticates /v1 requests made with an API key. A key found is believed for
 * CREDENTIAL_TTL_MS (deps.credentials, keyed by the key's hash), so that a busy key costs one
 * lookup per half second rather than one per request.
 */
export function apiKeyResolver(deps: Deps): CredentialResolver {
  // When each key was last written as used, per process: a cache that only saves writes.
  const lastTouched = new Map<string, number>();
  return {
    form: 'a secret API key (svc_test_sk_… or svc_live_sk_…)',
    unknown: 'Invalid API key provided: check that the whole key was copied and that it belongs to this server.',
    // by prefix, so that a key cut short is told to be copied whole
    recognises: (token) => KEY_PREFIX.test(token),
    resolve: async (token) => {
      if (!KEY_PATTERN.test(token)) return null;
      const known = await storedCredential(deps.credentials, token, {
        find: (keyHash) => repository.findApiKeyByHash(deps.db, keyHash),
        known: (row) => ({
          principal: {
            tenant: { accountId: row.account_id, environment: row.environment },
            credential: { kind: 'api_key', id: row.id, scopes: null },
          },
          expiresAt: null,
        }),
        revoked: 'This API key has been revoked: create a new key (Settings > Integrations > API Keys) and use that.',
      });
      if (!known) return null;
      const keyId = known.principal.credential.id;
      const now = deps.clock.now();
      if (now.getTime() - (lastTouched.get(keyId) ?? 0) >= TOUCH_EVERY_MS) {
        lastTouched.set(keyId, now.getTime());
        await repository.touchApiKey(deps.db, keyId, now);
      }
      return known.principal;
    },
  };
}
