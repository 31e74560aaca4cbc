// A resource as the API serialises it: fast-json-stringify with the response schema, the very
// serialiser Fastify compiles for routes, keeps the schema's properties in the schema's order.
// Events carry their object through it, so `data.object` is byte for byte what the API returns,
// even where the view was built from jsonb (which stores keys in its own order); lists that
// keep their items' JSON (JsonCache) write each item with it.
import fastJson from 'fast-json-stringify';
import type { TSchema } from 'typebox';
import { Metadata } from './metadata.ts';

/** The object's JSON as a response with `schema` writes it. */
export function apiJson<T>(schema: TSchema, referenced: TSchema[] = []): (value: T) => string {
  // compiled on first use, as the routes' serialisers are (compile-on-first-use.ts)
  let stringify: ((value: T) => string) | undefined;
  return (value) => {
    if (!stringify) {
      // Metadata is shared by every object that has it
      const external = Object.fromEntries([Metadata, ...referenced].map((ref) => [(ref as { $id?: string }).$id, ref]));
      stringify = fastJson(schema as Parameters<typeof fastJson>[0], { schema: external as never });
    }
    return stringify(value);
  };
}

/** The object as a response with `schema` shows it: its JSON read back. */
export function apiShape<T>(schema: TSchema, referenced: TSchema[] = []): (value: T) => T {
  const json = apiJson<T>(schema, referenced);
  return (value) => JSON.parse(json(value)) as T;
}
