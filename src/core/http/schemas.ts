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

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp, UTC.' });
export const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
/** A timestamp or a plain date (a plain date means midnight UTC). */
export const TimestampOrDate = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$',
  description: 'ISO 8601 timestamp or date (YYYY-MM-DD, a whole UTC day).',
});

export function IdParams<K extends string>(...names: K[]) {
  const properties = Object.fromEntries(names.map((name) => [name, Type.String({ maxLength: 64 })]));
  return Type.Object(properties as Record<K, ReturnType<typeof Type.String>>);
}

/** Error responses a route documents besides its success. */
export function errors(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, Type.Ref('Error')]));
}

export const CommonErrors = [400, 401, 403, 404, 429] as const;

export { ErrorResponse };
