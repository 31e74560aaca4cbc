// Metadata, as Stripe's: a flat map of short strings an integrator keeps on customers, bookings,
// invoices and webhook endpoints. Routes check a body's shape with the `Metadata` schema
// (core/http/metadata.ts); these rules are the ones that need the stored map too (the limit on
// keys counts what a PATCH leaves, not what it sends), and the ones callers without a schema
// (services called from the CLI or tests) still need.
import { type SQL, sql } from './db.ts';
import { invalidParameter } from './errors.ts';

export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

export type Metadata = Record<string, string>;

/** Why one entry cannot be stored, or undefined: the same words for the schema and for the service. */
export function metadataEntryProblem(key: string, value: unknown): { param: string; message: string } | undefined {
  if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) {
    return {
      param: 'metadata',
      message: `Metadata keys must be 1 to ${METADATA_LIMITS.keyLength} characters long; "${key.slice(0, 60)}" is ${key.length}.`,
    };
  }
  // `metadata[key]=value` is how lists filter, so a bracket could never be asked for
  if (/[[\]]/.test(key)) {
    return { param: 'metadata', message: `Metadata keys cannot contain square brackets: "${key}".` };
  }
  const param = `metadata[${key}]`;
  if (typeof value !== 'string') return { param, message: `Invalid ${param}: metadata values must be strings.` };
  if (value.length > METADATA_LIMITS.valueLength) {
    return {
      param,
      message: `Invalid ${param}: metadata values must be at most ${METADATA_LIMITS.valueLength} characters.`,
    };
  }
  return undefined;
}

/** 400 for a map past the key limit; `count` when known (a PATCH merged into the stored map). */
export function tooManyKeys(count?: number) {
  const leaves = count === undefined ? '' : `; this would leave ${count}`;
  return invalidParameter('metadata', `Metadata can have at most ${METADATA_LIMITS.keys} keys${leaves}.`);
}

/**
 * The map after a create or PATCH: `changes` merges key by key into `current`, and an empty
 * string deletes its key. Throws 400 parameter_invalid (param `metadata` or `metadata[key]`).
 */
export function mergeMetadata(current: Metadata, changes: Metadata | undefined): Metadata {
  if (changes === undefined) return current;
  if (changes === null || typeof changes !== 'object' || Array.isArray(changes)) {
    throw invalidParameter('metadata', 'Invalid metadata: expected an object of string values.');
  }
  const merged: Metadata = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    const problem = metadataEntryProblem(key, value);
    if (problem) throw invalidParameter(problem.param, problem.message);
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  const count = Object.keys(merged).length;
  if (count > METADATA_LIMITS.keys) throw tooManyKeys(count);
  return merged;
}

const FILTER_PARAM = /^metadata\[(.*)\]$/;

/**
 * The `metadata[key]=value` parameters of a list's query string (the query parser keeps them as
 * flat names), or undefined when there are none. Every pair must match.
 */
export function metadataFilter(query: object): Metadata | undefined {
  let filter: Metadata | undefined;
  for (const [name, value] of Object.entries(query)) {
    const key = FILTER_PARAM.exec(name)?.[1];
    if (key === undefined) continue;
    // `metadata[k]=a&metadata[k]=b` arrives as an array: nothing has two values for one key
    if (typeof value !== 'string') throw invalidParameter(name, `Give ${name} once.`);
    const problem = metadataEntryProblem(key, value);
    if (problem) throw invalidParameter(name, problem.message);
    filter = { ...filter, [key]: value };
  }
  return filter;
}

/** Rows whose metadata holds every pair of `filter` (the jsonb_path_ops GIN index answers `@>`). */
export function metadataContains(filter: Metadata, column: SQL = sql`metadata`): SQL {
  return sql`${column} @> ${JSON.stringify(filter)}::jsonb`;
}

/** Metadata as the API writes it: a JSON object for a jsonb column. */
export function metadataJson(metadata: Metadata): SQL {
  return sql`${JSON.stringify(metadata)}::jsonb`;
}

/**
 * Metadata as objects show it: keys in code-unit order, so an object built in memory (an event
 * sent before the row is read back) prints exactly as the stored one (jsonb orders keys its own way).
 */
export function metadataView(metadata: Metadata): Metadata {
  const sorted: Metadata = {};
  for (const key of Object.keys(metadata).sort()) sorted[key] = metadata[key] as string;
  return sorted;
}
