// One error handler for the API: AppErrors as they are, framework errors mapped to the
// contract's codes, anything else a 500 whose message says nothing about our internals.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { isDatabaseUnavailable } from '../db.ts';
import { AppError, serviceUnavailable } from '../errors.ts';
import { logUnavailable } from '../logger.ts';
import { validationError } from './validation.ts';

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      type: Type.String({ description: 'Error category, e.g. invalid_request_error.' }),
      code: Type.String({ description: 'Machine-readable code, e.g. missing_required_field.' }),
      message: Type.String({ description: 'Human-readable explanation.' }),
      param: Type.Optional(Type.String({ description: 'The offending parameter, when there is one.' })),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

function fromFrameworkError(error: FastifyError): AppError | null {
  if (error.validation) return validationError(error.validation as never, error.validationContext);
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('request_too_large', 'The request body is larger than 1 MiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return error.statusCode === 415
        ? new AppError('unsupported_media_type', 'Send the request body as application/json.')
        : new AppError('parameter_invalid', 'The request body does not match its Content-Length.');
    default:
      break;
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new AppError('invalid_json', 'The request body is not valid JSON.');
  }
  if (error.statusCode === 413) return new AppError('request_too_large', 'The request body is too large.');
  if (error.statusCode === 415) {
    return new AppError('unsupported_media_type', 'Send the request body as application/json.');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('parameter_invalid', 'The request is invalid.');
  }
  return null;
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((raw, request, reply) => {
    // the database being unreachable (however deep drizzle wrapped the driver's error) is a 503
    const unavailable = !(raw instanceof AppError) && isDatabaseUnavailable(raw);
    const error =
      raw instanceof AppError ? raw : unavailable ? serviceUnavailable() : fromFrameworkError(raw as FastifyError);
    if (!error) {
      request.log.error({ err: raw }, 'unhandled error');
      const failure = new AppError('server_error', 'Something went wrong on our side; retry the request.');
      return reply.code(failure.status).send(failure.toBody());
    }
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    if (unavailable) logUnavailable(request.log, 'requests', raw);
    else if (error.status >= 500 && error.code !== 'service_unavailable')
      request.log.error({ err: raw }, error.message);
    return reply.code(error.status).send(error.toBody());
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new AppError('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
    return reply.code(404).send(error.toBody());
  });
}

/**
 * Fastify's `frameworkErrors`: failures before routing (a URL that does not decode), which no
 * hook sees, answered in our shape with a Request-Id instead of Fastify's own.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const failure =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('resource_not_found', 'No such resource at this path.')
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('parameter_invalid', 'The URL is malformed: a percent-encoded sequence is not valid UTF-8.')
        : (fromFrameworkError(error) ??
          new AppError('server_error', 'Something went wrong on our side; retry the request.'));
  if (failure.status >= 500) request.log.error({ err: error }, failure.message);
  reply.header('request-id', request.id).code(failure.status).send(failure.toBody());
}
