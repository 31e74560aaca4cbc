import type { FastifyRequest } from 'fastify';

/** A preValidation hook for actions whose body is optional: an empty POST means `{}`. */
export async function emptyBodyIsEmptyObject(request: FastifyRequest) {
  if (request.body === undefined || request.body === null) request.body = {};
}
