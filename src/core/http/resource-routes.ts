// The five routes most resources have, declared once: list, create, retrieve, update and delete
// at `/v1/<things>` and `/v1/<things>/:id`. A module names its schemas, scopes and service
// functions; the summaries, status codes, error responses and replies are the same everywhere,
// so every resource answers the same way (201 with the object, 204 after a delete, lists with
// `fields`). Routes a resource has beyond these are declared next to it with `operation()`.
import type { FastifyInstance } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { Deps } from '../deps.ts';
import type { Page } from '../paging.ts';
import type { Tenant } from '../tenant.ts';
import { type Scope, tenantOf } from './auth.ts';
import { created, noContent, ok, operation } from './operation.ts';
import { replyList, replyNoContent, replyWith } from './replies.ts';
import { IdParams } from './schemas.ts';

interface Documented {
  /** Added to the operation's description in the OpenAPI document. */
  description?: string;
  /** Error statuses besides the common ones (400, 401, 403, 404, 429), e.g. 409. */
  errors?: number[];
}

export interface Resource<Q extends TSchema, C extends TSchema, U extends TSchema> {
  /** The collection's path, e.g. `/v1/zones`; an item is `${path}/:id`. */
  path: string;
  tags: string[];
  /** The object's name in summaries, singular and plural: "zone", "zones". */
  noun: [string, string];
  /** The object's schema, registered once and referred to by `$ref` by its `$id`. */
  object: TSchema;
  scopes: { read: Scope; write: Scope };
  list?: Documented & {
    query: Q;
    response: TSchema;
    run: (deps: Deps, tenant: Tenant, query: Static<Q>) => Promise<Page<unknown>>;
  };
  create?: Documented & {
    body: C;
    /** The created object's schema when it is not `object` (e.g. with a secret shown once). */
    response?: TSchema;
    run: (deps: Deps, tenant: Tenant, body: Static<C>) => Promise<unknown>;
  };
  retrieve?: Documented & { run: (deps: Deps, tenant: Tenant, id: string) => Promise<unknown> };
  update?: Documented & {
    body: U;
    run: (deps: Deps, tenant: Tenant, id: string, body: Static<U>) => Promise<unknown>;
  };
  remove?: Documented & { run: (deps: Deps, tenant: Tenant, id: string) => Promise<unknown> };
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

export function resourceRoutes<Q extends TSchema, C extends TSchema, U extends TSchema>(
  app: FastifyInstance,
  deps: Deps,
  resource: Resource<Q, C, U>,
): void {
  const { path, tags, scopes } = resource;
  const [one, many] = resource.noun;
  const a = `${article(one)} ${one}`;
  const item = `${path}/:id`;
  const id = (resource.object as { $id?: string }).$id;
  if (!id) throw new Error(`the schema of ${path}'s objects needs an $id`);
  const ref = Type.Ref(id);
  const params = IdParams('id');
  const described = (part: Documented) => (part.description ? { description: part.description } : {});
  app.addSchema(resource.object);

  const { list, create, retrieve, update, remove } = resource;
  if (list) {
    app.get<{ Querystring: Static<Q> }>(
      path,
      operation(scopes.read, tags, {
        summary: `List ${many}`,
        ...described(list),
        querystring: list.query,
        response: ok(list.response, ...(list.errors ?? [])),
      }),
      async (request, reply) => {
        // the route's schema has checked the query
        const query = request.query as Static<Q> & { fields?: string };
        return replyList(reply, query, list.run(deps, tenantOf(request), query));
      },
    );
  }
  if (create) {
    app.post<{ Body: Static<C> }>(
      path,
      operation(scopes.write, tags, {
        summary: `Create ${a}`,
        ...described(create),
        body: create.body,
        response: created(create.response ?? ref, ...(create.errors ?? [])),
      }),
      async (request, reply) => replyWith(reply, 201, create.run(deps, tenantOf(request), request.body as Static<C>)),
    );
  }
  if (retrieve) {
    app.get<{ Params: { id: string } }>(
      item,
      operation(scopes.read, tags, {
        summary: `Retrieve ${a}`,
        ...described(retrieve),
        params,
        response: ok(ref, ...(retrieve.errors ?? [])),
      }),
      async (request) => retrieve.run(deps, tenantOf(request), request.params.id),
    );
  }
  if (update) {
    app.patch<{ Params: { id: string }; Body: Static<U> }>(
      item,
      operation(scopes.write, tags, {
        summary: `Update ${a}`,
        ...described(update),
        params,
        body: update.body,
        response: ok(ref, ...(update.errors ?? [])),
      }),
      async (request) => update.run(deps, tenantOf(request), request.params.id, request.body as Static<U>),
    );
  }
  if (remove) {
    app.delete<{ Params: { id: string } }>(
      item,
      operation(scopes.write, tags, {
        summary: `Delete ${a}`,
        ...described(remove),
        params,
        response: noContent(...(remove.errors ?? [])),
      }),
      async (request, reply) => replyNoContent(reply, remove.run(deps, tenantOf(request), request.params.id)),
    );
  }
}
