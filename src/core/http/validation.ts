// Request validation: one Ajv for bodies (strict: no coercion, unknown fields refused) and one
// for the query string and path (strings coerced to the declared types).
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError } from '../errors.ts';

function makeAjv(coerceTypes: boolean) {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    // all errors, so that the most useful one is reported (an unknown field before a missing one)
    allErrors: true,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

const bodyAjv = makeAjv(false);
const queryAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

/** Turns the first Ajv error into the contract's error: which code, and which parameter. */
const PRIORITY = ['additionalProperties', 'required'];

export function validationError(errors: ErrorObject[], part: string | undefined): AppError {
  const rank = (e: ErrorObject) => {
    const index = PRIORITY.indexOf(e.keyword);
    return index === -1 ? PRIORITY.length : index;
  };
  const error = [...errors].sort((a, b) => rank(a) - rank(b))[0];
  if (!error) return new AppError('parameter_invalid', 'The request is invalid.');
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const join = (child: string) => (base ? `${base}.${child}` : child);
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path parameter' : 'field';

  if (error.keyword === 'required') {
    const param = join(String(error.params.missingProperty));
    return new AppError('missing_required_field', `Missing required ${where}: ${param}.`, { param });
  }
  if (error.keyword === 'additionalProperties') {
    const param = join(String(error.params.additionalProperty));
    return new AppError('parameter_unknown', `Unknown ${where}: ${param}.`, { param });
  }
  if (!base && part === 'body' && error.keyword === 'type') {
    return new AppError('parameter_invalid', 'The request body must be a JSON object.');
  }
  const param = base || undefined;
  return new AppError('parameter_invalid', describe(error, param ?? 'the request'), { param });
}

function describe(error: ErrorObject, param: string): string {
  switch (error.keyword) {
    case 'type':
      return `Invalid ${param}: expected ${error.params.type}.`;
    case 'enum':
      return `Invalid ${param}: must be one of ${(error.params.allowedValues as unknown[]).join(', ')}.`;
    case 'const':
      return `Invalid ${param}: must be ${JSON.stringify(error.params.allowedValue)}.`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `Invalid ${param}: must be ${error.params.comparison} ${error.params.limit}.`;
    case 'minLength':
      return error.params.limit === 1
        ? `Invalid ${param}: must not be empty.`
        : `Invalid ${param}: must be at least ${error.params.limit} characters.`;
    case 'maxLength':
      return `Invalid ${param}: must be at most ${error.params.limit} characters.`;
    case 'minItems':
      return `Invalid ${param}: must have at least ${error.params.limit} item(s).`;
    case 'maxItems':
      return `Invalid ${param}: must have at most ${error.params.limit} items.`;
    case 'format':
      return `Invalid ${param}: must be a valid ${error.params.format}.`;
    case 'pattern':
      return `Invalid ${param}: has the wrong format.`;
    default:
      return `Invalid ${param}.`;
  }
}

/** Path of the first string holding a NUL character (PostgreSQL text cannot store one). */
function findNul(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = key.includes('\u0000') ? [...path, key] : findNul(child, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Refuses NUL characters anywhere in the query or body, before any route sees them. */
export async function rejectNulCharacters(request: { query: unknown; body: unknown }): Promise<void> {
  for (const part of [request.query, request.body]) {
    const path = findNul(part);
    if (path) {
      const param = path.join('.') || undefined;
      throw new AppError('parameter_invalid', `Invalid ${param ?? 'request'}: contains a NUL character.`, { param });
    }
  }
}
