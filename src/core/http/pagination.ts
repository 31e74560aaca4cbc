// Page-numbered lists, `fields` (sparse responses) and `ids` (fetch a known set), the same on
// every resource list.
import type { FastifyReply } from 'fastify';
import { type TProperties, type TSchema, Type } from 'typebox';
import { invalidParameter } from '../errors.ts';
import type { Pagination as PageInfo } from '../paging.ts';
import { apiJson } from './api-shape.ts';

export const ListQuery = {
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, 1 to 1,000,000.' }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Items per page (1-100).' }),
  fields: Type.Optional(
    Type.String({
      description: 'Comma-separated field paths to return, e.g. `id,stats.total_spent`.',
    }),
  ),
  ids: Type.Optional(Type.String({ description: 'Comma-separated ids (at most 100).' })),
};

export const Pagination = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer({ description: 'Total matching records.' }),
  total_pages: Type.Integer(),
});

export function ListOf<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), pagination: Pagination });
}

/**
 * A page whose items are already JSON, each as the item's schema writes it (`apiJson`; a list
 * keeps them in deps.jsonCache). Sent by joining them into what ListOf's serialiser would write.
 */
export class JsonPage {
  constructor(
    readonly items: string[],
    readonly pagination: PageInfo,
  ) {}
}

const paginationJson = apiJson<PageInfo>(Pagination);

/** The page's JSON: ListOf's properties in ListOf's order (pagination.test.ts holds them to it). */
export function jsonPageText(page: JsonPage): string {
  return `{"data":[${page.items.join(',')}],"pagination":${paginationJson(page.pagination)}}`;
}

function parseFields(raw: string): string[][] {
  const paths = raw
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean);
  if (paths.length === 0) throw invalidParameter('fields', 'fields must name at least one field.');
  for (const path of paths) {
    if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/i.test(path)) {
      throw invalidParameter('fields', `Invalid field path: ${path}.`);
    }
  }
  return paths.map((path) => path.split('.'));
}

function pick(value: unknown, paths: string[][]): unknown {
  if (Array.isArray(value)) return value.map((item) => pick(item, paths));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  const byHead = new Map<string, string[][]>();
  for (const [head, ...rest] of paths) {
    if (head === undefined || !(head in source)) continue;
    const children = byHead.get(head) ?? [];
    children.push(rest);
    byHead.set(head, children);
  }
  for (const [head, children] of byHead) {
    const whole = children.some((rest) => rest.length === 0);
    out[head] = whole ? source[head] : pick(source[head], children);
  }
  return out;
}

/** Keeps only the requested field paths of each item; validates the list first. */
export function selectFields<T>(items: T[], raw: string | undefined): T[] | unknown[] {
  if (raw === undefined) return items;
  const paths = parseFields(raw);
  return items.map((item) => pick(item, paths));
}

/**
 * Sends a list. With `fields` the items no longer match the response schema, so that reply
 * is serialised as plain JSON instead.
 */
export function sendList<T>(
  reply: FastifyReply,
  page: { data: T[]; pagination: PageInfo } | JsonPage,
  fields: string | undefined,
) {
  if (page instanceof JsonPage && fields === undefined) {
    // a string with a JSON content type is sent as it is
    reply.type('application/json; charset=utf-8');
    return jsonPageText(page) as unknown as { data: T[]; pagination: PageInfo };
  }
  const list =
    page instanceof JsonPage
      ? { data: page.items.map((item) => JSON.parse(item) as T), pagination: page.pagination }
      : page;
  if (fields === undefined) return list;
  const data = selectFields(list.data, fields);
  reply.serializer((payload: unknown) => JSON.stringify(payload));
  return { data, pagination: list.pagination } as unknown as typeof list;
}

/**
 * The two list queries of something a customer has (bookings, invoices): the whole list, which
 * a `customer_id` narrows, and one customer's list under `/v1/customers/:id/...`.
 */
export function customerListQueries<Filters extends TProperties>(filters: Filters) {
  return {
    all: Type.Object({ ...ListQuery, ...filters, customer_id: Type.Optional(Type.String({ maxLength: 64 })) }),
    ofCustomer: Type.Object({ ...ListQuery, ...filters }),
  };
}
