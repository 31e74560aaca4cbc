// Request validation: one Ajv for bodies (strict: no coercion, unknown fields refused) and one
// for the query string and path (strings coerced to the declared types).
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { isCalendarDate, isTimestamp, isTimestampOrDate } from '../dates.ts';
import { AppError } from '../errors.ts';
import { validateOnFirstUse } from './compile-on-first-use.ts';
import { metadataSchemaError } from './metadata.ts';

/** Date formats every schema shares: real calendar days and times in 1970-9999 (CONTRACT §12). */
const DATE_FORMATS = {
  date: { validate: isCalendarDate, describe: 'a date (YYYY-MM-DD) between 1970 and 9999' },
  'date-time': {
    validate: isTimestamp,
    describe: 'an ISO 8601 timestamp with a time zone (e.g. 2026-06-01T09:00:00Z) between 1970 and 9999',
  },
  'date-or-date-time': {
    validate: isTimestampOrDate,
    describe: 'a date (YYYY-MM-DD) or an ISO 8601 timestamp between 1970 and 9999',
  },
} as const;

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
  // ajv-formats' own date formats accept year 0000 and leap seconds; ours replace them.
  for (const [name, format] of Object.entries(DATE_FORMATS)) {
    ajv.addFormat(name, { type: 'string', validate: format.validate });
  }
  return ajv;
}

/**
 * What a value of a pattern must look like, in words, for the patterns whose regular expression
 * says nothing to the person reading the refusal (E.164 phones); keyed by the pattern itself, so
 * the schema, and with it the OpenAPI document, stays as it is.
 */
const PATTERN_HINTS = new Map<string, string>();

/** `pattern` as a string schema's pattern, refused with "must be `mustBe`" rather than "has the wrong format". */
export function explainPattern(pattern: string, mustBe: string): string {
  PATTERN_HINTS.set(pattern, mustBe);
  return pattern;
}

const bodyAjv = makeAjv(false);
const queryAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
  return validateOnFirstUse(() => ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>);
};

const bodyChecks = new WeakMap<TSchema, ReturnType<typeof bodyAjv.compile>>();

/**
 * `input` as the schema's type, or the 400 the API would answer for it (param named): the same
 * validator and errors as a route's body. The dashboard and the CLI call services without a
 * route in front, so a service whose rules are its schema checks them here (a cheap second pass
 * for /v1).
 */
export function checkInput<T extends TSchema>(schema: T, input: unknown): Static<T> {
  let validate = bodyChecks.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(schema);
    bodyChecks.set(schema, validate);
  }
  if (!validate(input)) throw validationError(validate.errors ?? [], 'body');
  return input as Static<T>;
}

/** Turns the first Ajv error into the contract's error: which code, and which parameter. */
const PRIORITY = ['additionalProperties', 'required'];

export function validationError(errors: ErrorObject[], part: string | undefined): AppError {
  const rank = (e: ErrorObject) => {
    const index = PRIORITY.indexOf(e.keyword);
    return index === -1 ? PRIORITY.length : index;
  };
  const error = [...errors].sort((a, b) => rank(a) - rank(b))[0];
  if (!error) return new AppError('parameter_invalid', 'The request is invalid.');
  // A path segment that cannot be an id names nothing: 404, as an unknown id (CONTRACT §12).
  if (part === 'params') return new AppError('resource_not_found', 'No such resource at this path.');
  const metadataError = part === 'body' ? metadataSchemaError(error) : undefined;
  if (metadataError) return metadataError;
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
    case 'format': {
      const format = error.params.format as string;
      const date = DATE_FORMATS[format as keyof typeof DATE_FORMATS];
      return date ? `Invalid ${param}: must be ${date.describe}.` : `Invalid ${param}: must be a valid ${format}.`;
    }
    case 'pattern': {
      const hint = PATTERN_HINTS.get(String(error.params.pattern));
      return hint ? `Invalid ${param}: must be ${hint}.` : `Invalid ${param}: has the wrong format.`;
    }
    default:
      return `Invalid ${param}.`;
  }
}

/**
 * Path of the first key or string holding a NUL character (PostgreSQL text cannot store one).
 * Iterative: JSON bodies are parsed only up to 32 levels deep, but query strings and form
 * bodies are not, and a recursive walk is what overflowed the stack before.
 */
function findNul(root: unknown): string[] | null {
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string[] };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (value !== null && typeof value === 'object') {
      // pushed in reverse, so the first offending field in document order is reported
      const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as readonly [string, unknown];
        stack.push({ value: key.includes('\u0000') ? '\u0000' : child, path: [...path, key] });
      }
    }
  }
  return null;
}

/**
 * Refuses NUL characters anywhere in the query or body, before any route sees them. In the
 * path a NUL names no resource: 404, as any other segment that cannot be an id.
 */
export async function rejectNulCharacters(request: { query: unknown; body: unknown; params: unknown }): Promise<void> {
  if (findNul(request.params)) throw new AppError('resource_not_found', 'No such resource at this path.');
  for (const part of [request.query, request.body]) {
    const path = findNul(part);
    if (path) {
      const param = path.join('.') || undefined;
      throw new AppError('parameter_invalid', `Invalid ${param ?? 'request'}: contains a NUL character.`, { param });
    }
  }
}
