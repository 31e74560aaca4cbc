// The five routes most resources have, declared once: list, create, retrieve, update and delete
// at `/v1/<things>` and `/v1/<things>/:id`. A module names its schemas, scopes and service
// functions; the summaries, status codes, error responses and replies are the same everywhere,
// so every resource answers the same way (201 with the object, 204 after a delete, lists with
// `fields`). Routes a resource has beyond these are declared next to it with `operation()`.
import type { FastifyInstance } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { Deps } from '../deps.ts';
import type { ErrorCode } from '../errors.ts';
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
  /** The business refusals it can answer, for the document (see `Documentation`). */
  errorCodes?: ErrorCode[];
}

export interface Resource<Q extends TSchema, C extends TSchema, U extends TSchema> {
  /** The collection's path, e.g. `/v1/zones`; an item is `${path}/:id`. */
  path: string;
  tags: string[];
  /** The object's name in summaries, singular and plural: "zone", "zones". */
  noun: [string, string];
  /** Its name in operationIds when not the noun's (`createWebhook` for "webhook endpoint"). */
  operationNoun?: [string, string];
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
/** "staff member" → "StaffMember", for operationIds. */
const pascal = (noun: string) => noun.replace(/(?:^|\s+)(\w)/g, (_, letter: string) => letter.toUpperCase());

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
  const [One, Many] = (resource.operationNoun ?? resource.noun).map(pascal) as [string, string];
  // the standard shapes' documentation, and whatever the module adds
  const documented = (operationId: string, summary: string, standard: string, part: Documented) => ({
    operationId,
    summary,
    description: part.description ? `${standard} ${part.description}` : standard,
    ...(part.errorCodes ? { 'x-error-codes': part.errorCodes } : {}),
  });
  app.addSchema(resource.object);

  const { list, create, retrieve, update, remove } = resource;
  if (list) {
    app.get<{ Querystring: Static<Q> }>(
      path,
      operation(scopes.read, tags, {
        ...documented(
          `list${Many}`,
          `List ${many}`,
          `Returns the ${many} of this environment, a page at a time.`,
          list,
        ),
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
        ...documented(`create${One}`, `Create ${a}`, `Creates ${a} and returns it.`, create),
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
        ...documented(`retrieve${One}`, `Retrieve ${a}`, `Returns ${a} by its id.`, retrieve),
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
        ...documented(
          `update${One}`,
          `Update ${a}`,
          `Changes the fields sent and leaves the others as they are; returns the ${one}.`,
          update,
        ),
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
        ...documented(`delete${One}`, `Delete ${a}`, `Deletes ${a}; there is no body in the answer.`, remove),
        params,
        response: noContent(...(remove.errors ?? [])),
      }),
      async (request, reply) => replyNoContent(reply, remove.run(deps, tenantOf(request), request.params.id)),
    );
  }
}
