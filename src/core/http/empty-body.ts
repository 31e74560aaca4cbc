import type { FastifyRequest } from 'fastify';

/**
 * For actions whose body is optional (finalize, pay, cancel, a webhook's test…): an empty POST
 * means `{}`, so the body schema's defaults apply. Used as the route's `preValidation`.
 */
export async function emptyBodyIsEmptyObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
