// One /v1 route beyond the five of `resourceRoutes`, declared as data: where it is, the scope it
// needs, what the document says of it and the service it calls. Every such route had the same
// handler written out again (read the tenant, pass the path's ids and the body or query to one
// service, reply with the status its response declares); here it is written once, so a route
// file reads as its table of operations and a new action cannot answer differently.
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Deps } from '../deps.ts';
import type { Tenant } from '../tenant.ts';
import { type Scope, tenantOf } from './auth.ts';
import { documentExamples, type Examples } from './openapi.ts';
import { action, type Documentation, operation } from './operation.ts';
import { replyList, replyNoContent, replyWith } from './replies.ts';
import { IdParams } from './schemas.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The names of a path's `:params`, in order: `/v1/customers/:id/addresses/:address_id` → ['id', 'address_id']. */
type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...ParamsOf<`/${Rest}`>]
  : Path extends `${string}:${infer Name}`
    ? [Name]
    : [];

type Strings<Names extends string[]> = { [I in keyof Names]: string };
type Input<S> = S extends TSchema ? [Static<S>] : [];

export interface RouteSpec<Path extends string, B extends TSchema | undefined, Q extends TSchema | undefined>
  extends Documentation {
  /** The path's params' schema when it is not an id per `:name` (e.g. a slug). */
  params?: TSchema;
  body?: B;
  /** An action whose body may be left out: an empty POST counts as `{}` (see `action`). */
  optionalBody?: true;
  /** The list's query: the route answers a page with `fields` applied (`replyList`). */
  list?: Q;
  /** A query that is not a list's: passed to the service, whose result is the answer. */
  query?: Q;
  /** `ok(X)`, `created(X)`, `accepted(X)` or `noContent()`: the status it declares is the one sent. */
  response: Record<number, TSchema>;
  /** The service: the tenant, the path's params in order, then the body or the list's query. */
  run: (
    deps: Deps,
    tenant: Tenant,
    ...args: [...Strings<ParamsOf<Path>>, ...Input<B>, ...Input<Q>]
  ) => Promise<unknown>;
}

/** What a module's routes share: the document's tags, its examples and the component schemas it answers with. */
export interface ModuleRoutes {
  tags: string[];
  /** The module's examples for the OpenAPI document (`documentExamples`). */
  examples?: Examples;
  /** Component schemas (with an `$id`) the routes refer to by `Type.Ref`, added to `app` first. */
  schemas?: TSchema[];
}

/** Declares a module's routes on `app`: `route('POST /v1/x/:id/verb', scope, spec)`, each carrying its tags. */
export function routesOf(app: FastifyInstance, deps: Deps, { tags, examples, schemas = [] }: ModuleRoutes) {
  if (examples) documentExamples(app, examples);
  for (const schema of schemas) app.addSchema(schema);
  return function route<
    Endpoint extends `${Method} ${string}`,
    B extends TSchema | undefined = undefined,
    Q extends TSchema | undefined = undefined,
  >(
    endpoint: Endpoint,
    scope: Scope,
    spec: RouteSpec<Endpoint extends `${Method} ${infer Path}` ? Path : never, B, Q>,
  ): void {
    const [method, url] = endpoint.split(' ') as [Method, string];
    const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
    const { params, body, optionalBody, list, query, response, run, ...documentation } = spec;
    const schema: FastifySchema & Documentation = {
      ...documentation,
      ...(names.length > 0 ? { params: params ?? IdParams(...names) } : {}),
      ...(body ? { body } : {}),
      ...(list || query ? { querystring: list ?? query } : {}),
      response,
    };
    const declared = optionalBody ? action(scope, tags, schema) : operation(scope, tags, schema);
    app.route({
      method,
      url,
      ...declared,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        // the route's schemas have checked the params, body and query
        const values = request.params as Record<string, string>;
        const input = body ? [request.body] : list || query ? [request.query] : [];
        const service = run as (deps: Deps, tenant: Tenant, ...args: unknown[]) => Promise<unknown>;
        const result = service(deps, tenantOf(request), ...names.map((name) => values[name]), ...input);
        if (list)
          return replyList(reply, request.query as { fields?: string }, result as Parameters<typeof replyList>[2]);
        if (204 in response) return replyNoContent(reply, result);
        if (201 in response) return replyWith(reply, 201, result);
        if (202 in response) return replyWith(reply, 202, result);
        return result;
      },
    });
  };
}
