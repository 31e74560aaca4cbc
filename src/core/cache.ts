// The process's three caches (docs/caching.md). All are bounded LRUs (lru-cache) and none is
// shared between instances: what makes them correct across instances is how they are checked.
// - CredentialCache: what a credential resolver found for a token hash, kept CREDENTIAL_TTL_MS.
//   A key revoked through another instance is refused within that time; one revoked through
//   this process is refused at once (`forgetAll` after the revoking transaction commits).
// - TenantCache: values derived from an account-and-environment's business setup, each stored
//   with the catalog version it was read at; a reader uses one only if the version it has just
//   read from the database is the same.
// - JsonCache: an API object's JSON, stored with the version of the rows it was written from; a
//   list uses it only for rows whose version, read in the list's own statement, is the same.
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

export interface Versioned<T> {
  version: string | null;
  value: T;
}

/** At most this much of the heap for cached business setups (an estimate: UTF-16 JSON length). */
export const TENANT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

export class TenantCache {
  // bounded by size as well as count: an entry is a whole zone's crew or an industry's catalog,
  // and a server holding thousands of tenants must stay well inside npm start's heap limit
  readonly #entries = new LRUCache<string, Versioned<object>>({
    max: 10_000,
    maxSize: TENANT_CACHE_MAX_BYTES,
    // measured once per store, which happens only when a tenant's catalog version moved
    sizeCalculation: (entry) => Math.max(1, 2 * JSON.stringify(entry.value).length),
  });

  /** What is stored under `key` for the tenant, with the catalog version it was read at. */
  get<T extends object>(tenant: Tenant, key: string): Versioned<T> | undefined {
    return this.#entries.get(tenantKey(tenant, key)) as Versioned<T> | undefined;
  }

  /** Stores a value read at `version`; the caller uses it only while the database says the same. */
  set(tenant: Tenant, key: string, entry: Versioned<object>): void {
    this.#entries.set(tenantKey(tenant, key), entry);
  }
}

function tenantKey(tenant: Tenant, key: string): string {
  return `${tenant.accountId}\u0000${tenant.environment}\u0000${key}`;
}

/** At most this much of the heap for API objects kept as JSON (UTF-16 length, as the heap holds it at worst). */
export const JSON_CACHE_MAX_BYTES = 16 * 1024 * 1024;
/**
 * An entry's life. A version is made of row versions (`xmin`); within an hour no transaction id
 * comes round again, so an unchanged version means unchanged rows.
 */
export const JSON_CACHE_TTL_MS = 60 * 60 * 1000;

export class JsonCache {
  // keyed by the object, not by its version: a changed row replaces its old JSON instead of
  // leaving it to age out. lru-cache allocates its index arrays for `max` entries up front
  // (about 40 bytes each): 20,000 is more than 16 MB of bookings (~1.1 kB each) fill.
  readonly #entries = new LRUCache<string, Versioned<string>>({
    max: 20_000,
    maxSize: JSON_CACHE_MAX_BYTES,
    sizeCalculation: (entry) => 2 * entry.value.length + 64,
    ttl: JSON_CACHE_TTL_MS,
  });
  /**
   * Lists asked for, by tenant and question. Only a list asked for again keeps its objects' JSON:
   * one paged through once (an export, a sync) costs nothing more than it would without the cache.
   */
  #listsAsked = new Set<string>();

  /** Whether this is the first time the tenant asks `list` (its filters, order and page) of this process. */
  firstAsked(tenant: Tenant, list: string): boolean {
    const key = tenantKey(tenant, list);
    if (this.#listsAsked.has(key)) return false;
    if (this.#listsAsked.size >= LISTS_ASKED_MAX) this.#listsAsked = new Set();
    this.#listsAsked.add(key);
    return true;
  }

  /** The JSON stored for the tenant's object `id`, if it was written at `version`. */
  get(tenant: Tenant, id: string, version: string): string | undefined {
    const entry = this.#entries.get(tenantKey(tenant, id));
    return entry?.version === version ? entry.value : undefined;
  }

  set(tenant: Tenant, id: string, version: string, json: string): void {
    this.#entries.set(tenantKey(tenant, id), { version, value: json });
  }
}

/** At most this many lists are remembered as asked for (a few hundred bytes each). */
const LISTS_ASKED_MAX = 20_000;
