// The process's two caches (docs/caching.md). Both are bounded LRUs (lru-cache) and neither is
// shared between instances: what makes them correct across instances is how they are checked.
// - CredentialCache: what a credential resolver found for a token hash, kept CREDENTIAL_TTL_MS.
//   A key revoked through another instance is refused within that time; one revoked through
//   this process is refused at once (`forgetAll` after the revoking transaction commits).
// - TenantCache: values derived from an account-and-environment's business setup, each stored
//   with the catalog version it was read at; a reader passes the version it has just read from
//   the database and gets nothing back if the value is older.
import { LRUCache } from 'lru-cache';
import type { Tenant } from './tenant.ts';

/** How long a credential is believed without asking the database: revocation must bite within 1 s. */
export const CREDENTIAL_TTL_MS = 500;

export class CredentialCache<T extends object> {
  readonly #entries = new LRUCache<string, T>({ max: 10_000, ttl: CREDENTIAL_TTL_MS });
  /** Moves on every `forgetAll`: a lookup that started before it is not stored after it. */
  #generation = 0;

  /** The cached value for a token hash, else what `load` finds (null, an unknown token, is not kept). */
  async resolve(tokenHash: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = this.#entries.get(tokenHash);
    if (hit) return hit;
    const generation = this.#generation;
    const found = await load();
    if (found && generation === this.#generation) this.#entries.set(tokenHash, found);
    return found;
  }

  /** A credential was revoked here: nothing cached may answer for it any more (revocations are rare). */
  forgetAll(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

export class TenantCache {
  readonly #entries = new LRUCache<string, { version: string; value: object }>({ max: 10_000 });

  /** The value stored under `key` for the tenant, if it was read at exactly `version`. */
  get<T extends object>(tenant: Tenant, key: string, version: string): T | undefined {
    const entry = this.#entries.get(tenantKey(tenant, key));
    return entry?.version === version ? (entry.value as T) : undefined;
  }

  set(tenant: Tenant, key: string, version: string, value: object): void {
    this.#entries.set(tenantKey(tenant, key), { version, value });
  }
}

function tenantKey(tenant: Tenant, key: string): string {
  return `${tenant.accountId}\u0000${tenant.environment}\u0000${key}`;
}
