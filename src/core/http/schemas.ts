// Small schema builders every module uses, so that the same rule is written once.
import { type TProperties, type TSchema, Type } from 'typebox';
import { ErrorResponse } from './error-handler.ts';

/** A request body object: unknown fields are refused (400 parameter_unknown). */
export function Strict<T extends TProperties>(properties: T, options: { description?: string } = {}) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

// The date formats are the validator's own (src/core/dates.ts): real days, years 1970-9999.
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp, UTC.' });
export const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD, between 1970 and 9999.' });
/** A timestamp or a plain date (a plain date means midnight UTC). */
export const TimestampOrDate = Type.String({
  format: 'date-or-date-time',
  description:
    'ISO 8601 timestamp (a missing zone means UTC) or date (YYYY-MM-DD, a whole UTC day), between 1970 and 9999.',
});

/** Ids in paths: anything else cannot name a resource and is 404 resource_not_found. */
export const ID_PATTERN = '^[A-Za-z0-9_]+$';

export function IdParams<K extends string>(...names: K[]) {
  const properties = Object.fromEntries(
    names.map((name) => [name, Type.String({ pattern: ID_PATTERN, maxLength: 64 })]),
  );
  return Type.Object(properties as Record<K, ReturnType<typeof Type.String>>);
}

/** Error responses a route documents besides its success. */
export function errors(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, Type.Ref('Error')]));
}

export const CommonErrors = [400, 401, 403, 404, 429] as const;

export { ErrorResponse };
