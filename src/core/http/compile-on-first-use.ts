// Route schemas compiled when a route first uses them, not at start-up. Fastify compiles every
// route's validators (Ajv) and response serialisers (fast-json-stringify) while it gets ready:
// for this API's few hundred schemas that was most of `npm start`'s time after the imports, and
// memory held for routes a deployment may never call.
import fastJson, { type Options } from 'fast-json-stringify';
import type { FastifySchemaCompiler } from 'fastify';

type Validator = ReturnType<FastifySchemaCompiler<unknown>>;

/** A validator that compiles on its first call; Fastify reads `errors` from the function it was given. */
export function validateOnFirstUse(compile: () => Validator): Validator {
  let compiled: Validator | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compile();
    const result = compiled(data);
    (validate as { errors?: unknown }).errors = (compiled as { errors?: unknown }).errors;
    return result;
  }) as Validator;
  return validate;
}

type SerializerFactory = (
  externalSchemas?: unknown,
  options?: Options,
) => (route: { schema?: unknown }) => (data: unknown) => string;

/**
 * Fastify's `schemaController.compilersFactory.buildSerializer`: what Fastify's own
 * (@fastify/fast-json-stringify-compiler) does, once per route and status on first use.
 */
export const serializeOnFirstUse: SerializerFactory = (externalSchemas, options) => {
  const shared = (externalSchemas ?? {}) as Record<string, unknown>;
  return ({ schema }) => {
    let stringify: ((data: unknown) => string) | undefined;
    return (data: unknown) => {
      if (!stringify) {
        const id = (schema as { $id?: string }).$id;
        // a schema may not be among its own external schemas
        const { [id ?? '']: _self, ...others } = shared;
        const external = Object.fromEntries(
          Object.entries(id && id in shared ? others : shared).map(([key, value]) => [key, nullableAsTypes(value)]),
        );
        stringify = fastJson(nullableAsTypes(schema) as Parameters<typeof fastJson>[0], {
          ...options,
          schema: external as never,
        });
      }
      return stringify(data);
    };
  };
};

/**
 * A copy of the schema for serialising, where `anyOf: [{type: T, …}, {type: 'null'}]` (our
 * `Nullable`) is `type: [T, 'null']`: the same JSON, but fast-json-stringify serialises an
 * anyOf by trying each branch with a validator, which made a page of 100 bookings (a dozen
 * nullable fields each) twice as slow to write. The OpenAPI document keeps the anyOf.
 */
function nullableAsTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsTypes);
  if (!schema || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, nullableAsTypes(value)]));
  const [value, none, ...more] = Array.isArray(copy.anyOf) ? (copy.anyOf as Record<string, unknown>[]) : [];
  if (value && none?.type === 'null' && more.length === 0 && typeof value.type === 'string' && !value.anyOf) {
    const { anyOf: _, ...rest } = copy;
    return { ...rest, ...value, type: [value.type, 'null'] };
  }
  return copy;
}
