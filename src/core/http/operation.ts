// One /v1 operation's declaration: the scope it needs and its documented schemas. Every route
// file declares its routes with these, so a route reads as what it is (scope, summary, shapes)
// and the same five lines are not written out again for each.
import type { FastifySchema } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { ErrorCode } from '../errors.ts';
import type { Scope } from './auth.ts';
import { emptyBodyIsEmptyObject } from './empty-body.ts';
import { CommonErrors, errors } from './schemas.ts';

/** What the OpenAPI document says of an operation besides its schemas. */
export interface Documentation {
  /** Lower camel case verb + resource, e.g. `cancelBooking`: what generated clients call it. */
  operationId: string;
  summary: string;
  description: string;
  /**
   * The business refusals it can answer (`slot_unavailable`), for the document's error `code`
   * enums; the ones every operation can (validation, auth, not found, rate limit) are implied.
   */
  'x-error-codes'?: ErrorCode[];
}

/** Route options: `config.scope` for the auth hook, `schema` for validation, serialisation and OpenAPI. */
export function operation<S extends FastifySchema & Documentation>(scope: Scope, tags: string[], schema: S) {
  return { config: { scope }, schema: { tags, ...schema } };
}

/** An action whose body may be left out: an empty POST counts as `{}` (and the document says so). */
export function action<S extends FastifySchema & Documentation>(scope: Scope, tags: string[], schema: S) {
  const declared = operation(scope, tags, schema);
  return {
    ...declared,
    schema: { ...declared.schema, 'x-body-optional': true },
    preValidation: emptyBodyIsEmptyObject,
  };
}

/** 200 with `schema`; the common errors (400, 401, 403, 404, 429) and any `more`. */
export function ok<T extends TSchema>(schema: T, ...more: number[]) {
  return { 200: schema, ...errors(...CommonErrors, ...more) };
}

/** 201 with `schema`; the common errors and any `more`. */
export function created<T extends TSchema>(schema: T, ...more: number[]) {
  return { 201: schema, ...errors(...CommonErrors, ...more) };
}

/** 202 with `schema` (the work is queued); the common errors and any `more`. */
export function accepted<T extends TSchema>(schema: T, ...more: number[]) {
  return { 202: schema, ...errors(...CommonErrors, ...more) };
}

/** 204 without a body; the common errors and any `more`. */
export function noContent(...more: number[]) {
  return { 204: Type.Null(), ...errors(...CommonErrors, ...more) };
}
