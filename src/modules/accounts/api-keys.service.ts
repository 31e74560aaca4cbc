// API keys: `svc_test_sk_…` / `svc_live_sk_…`, shown once, stored only as a SHA-256 hash (the
// key is 190 random bits, so a fast hash is enough), revocable, with last use recorded.
import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import type { Sql } from '../../core/db.ts';
import { notFound } from '../../core/errors.ts';
import type { CredentialResolver } from '../../core/http/auth.ts';
import { newId, randomBase62 } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import * as repository from './accounts.repository.ts';

const KEY_PATTERN = /^svc_(test|live)_sk_[0-9A-Za-z]{32}$/;
/** last_used_at is written at most this often per key, to keep writes off the hot path. */
const TOUCH_EVERY_MS = 60_000;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export async function createApiKey(db: Sql, tenant: Tenant, name = '') {
  if (!(await repository.findAccount(db, tenant.accountId))) {
    throw notFound('account', tenant.accountId, 'account');
  }
  const key = `svc_${tenant.environment}_sk_${randomBase62(32)}`;
  const id = newId('apiKey');
  await repository.insertApiKey(db, tenant, { id, name, keyHash: hashSecret(key), last4: key.slice(-4) });
  return { id, key, environment: tenant.environment, name };
}

export async function revokeApiKey(db: Sql, clock: Clock, keyId: string, accountId?: string) {
  const row = await repository.revokeApiKey(db, keyId, clock.now(), accountId);
  if (!row) throw notFound('API key', keyId, 'id');
  return { id: row.id, revoked: true as const };
}

export function apiKeyResolver(db: Sql, clock: Clock): CredentialResolver {
  const lastTouched = new Map<string, number>();
  return async (token) => {
    if (!KEY_PATTERN.test(token)) return null;
    const row = await repository.findActiveApiKeyByHash(db, hashSecret(token));
    if (!row) return null;
    const now = clock.now();
    if (now.getTime() - (lastTouched.get(row.id) ?? 0) >= TOUCH_EVERY_MS) {
      lastTouched.set(row.id, now.getTime());
      await repository.touchApiKey(db, row.id, now);
    }
    return {
      tenant: { accountId: row.account_id, environment: row.environment },
      credential: { kind: 'api_key', id: row.id, scopes: null },
    };
  };
}
