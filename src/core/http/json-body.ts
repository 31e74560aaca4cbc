// JSON request bodies: which media types are JSON, how deep a body may nest, and the rule that
// a /v1 write with a body sends JSON (CONTRACT §12). Form bodies stay for /oauth and the dashboard.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** Deeper than this is refused before parsing, so no later walk over the value can overflow. */
export const MAX_JSON_DEPTH = 32;

/** `application/json` and any `application/*+json` (merge-patch, problem…), whatever the charset. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w!#$%&'*.^`|~-]+\+)?json\s*(?:;|$)/i;

/**
 * Whether the text opens more than `max` arrays or objects inside each other: one pass over the
 * characters with a counter instead of recursion; strings are skipped with indexOf (most of a
 * body's bytes are in strings), a quote ending one only after an even run of backslashes.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end, i)) end = text.indexOf('"', end + 1);
      if (end === -1) return false; // unterminated: JSON.parse reports it
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes after `from`. */
function escaped(text: string, at: number, from: number): boolean {
  let backslashes = 0;
  for (let k = at - 1; k > from && text.charCodeAt(k) === 0x5c; k--) backslashes++;
  return backslashes % 2 === 1;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length !== '0';
}

export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const parser = (
    request: FastifyRequest,
    body: string | Buffer,
    done: (error: Error | null, body?: unknown) => void,
  ) => {
    const text = body.toString();
    // Many clients send `Content-Type: application/json` with an empty body on action POSTs
    // (cancel, deactivate): treat that as no body rather than malformed JSON.
    if (text.trim() === '') return done(null, undefined);
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(
        new AppError('parameter_invalid', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`),
      );
    }
    return parseJson(request, text, done);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parser);
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'string' }, parser);

  // Before the body is read (and after authentication and the scope check, so the refusal
  // carries the rate-limit headers): a /v1 body in any other media type is 415, where Fastify
  // would read text/plain as a string and forms as fields and report a confusing 400.
  app.addHook('preParsing', async (request) => {
    if (request.is404 || !request.url.startsWith('/v1/') || !hasBody(request)) return;
    const type = request.headers['content-type'];
    if (type !== undefined && JSON_MEDIA_TYPE.test(type)) return;
    const sent = type ? ` (this one is ${type.split(';')[0]?.trim().slice(0, 100)})` : '';
    throw new AppError('unsupported_media_type', `Send the request body as application/json${sent}.`);
  });
}
