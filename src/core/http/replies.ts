// The replies that are not a plain 200 with the service's result: a created or accepted
// resource, an empty 204, a list with `fields`. A route's handler stays one call to its service.
import type { FastifyReply } from 'fastify';
import type { Pagination } from '../paging.ts';
import { type JsonPage, sendList } from './pagination.ts';

/** Replies `status` (201 created, 202 accepted) with the result. */
export async function replyWith<T>(reply: FastifyReply, status: 201 | 202, result: Promise<T>) {
  return reply.code(status).send(await result);
}

/** Replies 204 without a body once `done` has settled. */
export async function replyNoContent(reply: FastifyReply, done: Promise<unknown>) {
  await done;
  return reply.code(204).send(null);
}

/** Replies with the list, keeping only the `fields` the query asks for. */
export async function replyList<T>(
  reply: FastifyReply,
  query: { fields?: string | undefined },
  list: Promise<{ data: T[]; pagination: Pagination } | JsonPage>,
) {
  return sendList(reply, await list, query.fields);
}
