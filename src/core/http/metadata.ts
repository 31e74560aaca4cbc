// The one `Metadata` schema of the API (CONTRACT §13): a body's map is checked by it at the edge,
// responses refer to it by name, and a failure names the key (`metadata[key]`) the way Stripe's
// errors do rather than the validator's path.
import type { ErrorObject } from 'ajv';
import { Type } from 'typebox';
import { AppError } from '../errors.ts';
import { METADATA_LIMITS, metadataEntryProblem, tooManyKeys } from '../metadata.ts';

const DESCRIPTION =
  `Your own key-value pairs: up to ${METADATA_LIMITS.keys} keys of up to ${METADATA_LIMITS.keyLength} characters ` +
  `(no square brackets), string values of up to ${METADATA_LIMITS.valueLength}. Lists filter by ` +
  '`metadata[key]=value`.';

const options = {
  maxProperties: METADATA_LIMITS.keys,
  propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.keyLength, pattern: '^[^\\[\\]]*$' },
};

/** The stored map, as every object returns it (a named component of the OpenAPI document). */
export const Metadata = Type.Record(Type.String(), Type.String(), {
  $id: 'Metadata',
  title: 'Metadata',
  description: DESCRIPTION,
});

/** The map a create or PATCH sends: merged key by key into the stored one; `""` deletes a key. */
export const MetadataBody = Type.Optional(
  Type.Record(Type.String(), Type.String({ maxLength: METADATA_LIMITS.valueLength }), {
    ...options,
    description: `${DESCRIPTION} Merged key by key into the object's metadata; an empty string deletes its key.`,
  }),
);

/** Reads an ErrorObject's key name where Ajv puts it for `propertyNames`. */
function keyOf(error: ErrorObject): string | undefined {
  const named = (error as ErrorObject & { propertyName?: string }).propertyName ?? error.params?.propertyName;
  return typeof named === 'string' ? named : undefined;
}

/** The API's error for a validator failure inside a body's `metadata`, or undefined for any other. */
export function metadataSchemaError(error: ErrorObject): AppError | undefined {
  const match = /^\/metadata(?:\/(.*))?$/.exec(error.instancePath);
  if (!match) return undefined;
  const segment = match[1];
  if (segment === undefined) {
    if (error.keyword === 'maxProperties') return tooManyKeys();
    const key = keyOf(error);
    const problem = key === undefined ? undefined : metadataEntryProblem(key, '');
    if (problem) return new AppError('parameter_invalid', problem.message, { param: problem.param });
    return new AppError('parameter_invalid', 'Invalid metadata: expected an object of string values.', {
      param: 'metadata',
    });
  }
  const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
  // the validator says which rule failed, not the value: a wrong type, or a value too long
  const standIn = error.keyword === 'type' ? null : 'x'.repeat(METADATA_LIMITS.valueLength + 1);
  const problem = metadataEntryProblem(key, standIn);
  return new AppError('parameter_invalid', problem?.message ?? `Invalid metadata[${key}].`, {
    param: problem?.param ?? `metadata[${key}]`,
  });
}
