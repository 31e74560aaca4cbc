// The authorization server's machine endpoints: token (RFC 6749 §3.2), revocation (RFC 7009)
// and metadata (RFC 8414). They are not /v1 routes: no API credential, and errors in the flat
// RFC 6749 §5.2 shape from this plugin's own error handler, including unparseable bodies.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { AppError, isServiceUnavailable } from '../../core/errors.ts';
import { logUnavailable } from '../../core/logger.ts';
import { authorizeRoutes } from './authorize.routes.ts';
import { OAuthError } from './oauth-error.ts';
import { SCOPES } from './scopes.ts';
import {
  authenticateClient,
  type ClientCredentials,
  redeemAuthorizationCode,
  revokeTokenOfApp,
  rotateRefreshToken,
} from './tokens.service.ts';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** RFC 8414 metadata: what standard clients read to configure themselves. */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/docs`,
  };
}

/** The body's parameters, each a single string (RFC 6749 §3.2: none may be repeated). */
function bodyParameters(body: unknown): Map<string, string> {
  const params = new Map<string, string>();
  if (body === undefined || body === null || body === '') return params;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new OAuthError('invalid_request', 'The body must be form-encoded parameters or a JSON object.');
  }
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `${name} must be given once.`);
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} must be a string.`);
    // empty parameters are treated as omitted (RFC 6749 §3.1)
    if (value !== '') params.set(name, value);
  }
  return params;
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

/** client_secret_basic (credentials form-encoded, then base64, RFC 6749 §2.3.1) or the body. */
function clientCredentials(request: FastifyRequest, params: Map<string, string>): ClientCredentials {
  const header = request.headers.authorization;
  const basic = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'Client authentication failed.');
    let clientId: string;
    let clientSecret: string;
    try {
      clientId = formDecode(decoded.slice(0, colon));
      clientSecret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw new OAuthError('invalid_client', 'Client authentication failed.');
    }
    if (params.has('client_secret')) {
      throw new OAuthError('invalid_request', 'Authenticate the client one way: HTTP Basic or client_secret.');
    }
    const bodyId = params.get('client_id');
    if (bodyId !== undefined && bodyId !== clientId) {
      throw new OAuthError('invalid_request', 'client_id differs from the one in the Authorization header.');
    }
    return { clientId, clientSecret };
  }
  const clientId = params.get('client_id');
  if (!clientId) throw new OAuthError('invalid_client', 'Client authentication failed: no client_id.');
  return { clientId, clientSecret: params.get('client_secret') };
}

function required(params: Map<string, string>, name: string): string {
  const value = params.get(name);
  if (value === undefined) throw new OAuthError('invalid_request', `${name} is required.`);
  return value;
}

function asOAuthError(raw: unknown): OAuthError | null {
  if (raw instanceof OAuthError) return raw;
  if (isServiceUnavailable(raw)) {
    return new OAuthError(
      'temporarily_unavailable',
      'The authorization server is temporarily unavailable; retry shortly.',
    );
  }
  // the app-wide hooks (NUL characters) speak AppError; a client's mistake is invalid_request here
  if (raw instanceof AppError) return raw.status < 500 ? new OAuthError('invalid_request', raw.message) : null;
  const error = raw as FastifyError;
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return new OAuthError('invalid_request', 'The request body is not valid JSON.');
  }
  if (error.statusCode === 415) {
    return new OAuthError(
      'invalid_request',
      'Send the parameters as application/x-www-form-urlencoded (or application/json).',
    );
  }
  if (error.statusCode === 413) return new OAuthError('invalid_request', 'The request body is too large.');
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new OAuthError('invalid_request', 'The request is malformed.');
  }
  return null;
}

function sendOAuthError(request: FastifyRequest, reply: FastifyReply, raw: unknown, status?: number) {
  const error = asOAuthError(raw) ?? new OAuthError('server_error', 'Something went wrong on our side; retry.');
  if (error.error === 'server_error') request.log.error({ err: raw }, 'oauth endpoint failed');
  if (error.error === 'temporarily_unavailable') {
    reply.header('retry-after', '1');
    logUnavailable(request.log, 'oauth', raw);
  }
  // a 401 names the scheme the client can authenticate with (RFC 6749 §5.2, RFC 9110 §11.6.1)
  if (error.error === 'invalid_client') reply.header('www-authenticate', 'Basic realm="fieldhand", charset="UTF-8"');
  return reply
    .code(status ?? error.status)
    .headers(NO_STORE)
    .send(error.toBody());
}

export function oauthRoutes(app: FastifyInstance, deps: Deps) {
  const metadata = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', 'public, max-age=300').send(authorizationServerMetadata(deps.config.authUrl));
  app.get('/.well-known/oauth-authorization-server', metadata);
  app.get('/.well-known/openid-configuration', metadata);
  // browser pages: their errors are pages or redirects, not JSON
  authorizeRoutes(app, deps);

  app.register(
    async (oauth) => {
      oauth.setErrorHandler((error, request, reply) => sendOAuthError(request, reply, error));
      oauth.setNotFoundHandler((request, reply) => {
        const path = request.url.split('?')[0];
        return sendOAuthError(
          request,
          reply,
          new OAuthError('invalid_request', `No endpoint ${request.method} ${path}.`),
          404,
        );
      });

      oauth.post('/token', async (request, reply) => {
        const params = bodyParameters(request.body);
        const grantType = required(params, 'grant_type');
        const client = await authenticateClient(deps, clientCredentials(request, params));
        let response: Awaited<ReturnType<typeof redeemAuthorizationCode>>;
        if (grantType === 'authorization_code') {
          response = await redeemAuthorizationCode(deps, client, {
            code: required(params, 'code'),
            redirectUri: required(params, 'redirect_uri'),
            codeVerifier: params.get('code_verifier'),
          });
        } else if (grantType === 'refresh_token') {
          response = await rotateRefreshToken(deps, client, {
            refreshToken: required(params, 'refresh_token'),
            scope: params.get('scope'),
          });
        } else {
          throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
        }
        return reply.headers(NO_STORE).send(response);
      });

      oauth.post('/revoke', async (request, reply) => {
        const params = bodyParameters(request.body);
        const token = required(params, 'token');
        const client = await authenticateClient(deps, clientCredentials(request, params));
        await revokeTokenOfApp(deps, client, token);
        return reply.headers(NO_STORE).send();
      });
    },
    { prefix: '/oauth' },
  );
}
