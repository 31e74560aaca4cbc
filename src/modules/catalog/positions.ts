// Slugs and places in a list for catalog items set up one at a time (industries.service.ts).
// Called with the industry (or every industry) locked, so one writer at a time decides them.
import type { Deps } from '../../core/deps.ts';
import { AppError } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import * as repository from './industries.repository.ts';

/** "Deep Clean – Äpfel" → "deep-clean-apfel"; the catalog file's slug rules (64 characters). */
function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 56)
    .replace(/-+$/, '');
}

/**
 * A slug for an item given without one: from its name, with -2, -3 … when taken, so that
 * adding "Sofa" twice works; `fallback` when the name has no letter or digit to make one of.
 */
export function freeSlug(name: string, fallback: string, taken: { slug: string }[]): string {
  const base = slugFrom(name) || fallback;
  const slugs = new Set(taken.map((row) => row.slug));
  if (!slugs.has(base)) return base;
  for (let n = 2; ; n++) if (!slugs.has(`${base}-${n}`)) return `${base}-${n}`;
}

export function slugConflict(kind: string, within: 'industry' | 'environment'): AppError {
  return new AppError(
    'resource_already_exists',
    within === 'industry'
      ? `Another ${kind} of this industry has this slug.`
      : 'Another industry of this environment has this slug.',
    { param: 'slug' },
  );
}

/** A position past the end of any list: new items go last unless told otherwise. */
export const LAST = Number.MAX_SAFE_INTEGER;

/**
 * Numbers a list 0, 1, 2 … again, with `id` moved to `position` (past the end: last; left
 * out: where it is). Without `id`, closes the gap an archived item left.
 */
export async function placeItem(
  deps: Deps,
  tenant: Tenant,
  table: repository.ItemTable | 'industries',
  scopeId: string | undefined,
  id?: string,
  position?: number,
): Promise<void> {
  const ids = await repository.siblingIds(deps.db, tenant, table, scopeId);
  if (id !== undefined) {
    const at = ids.indexOf(id);
    if (at !== -1) ids.splice(at, 1);
    ids.splice(Math.min(position ?? (at === -1 ? ids.length : at), ids.length), 0, id);
  }
  await repository.setPositions(deps.db, tenant, table, ids);
}
