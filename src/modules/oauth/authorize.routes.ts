// GET /oauth/authorize shows the login (through the dashboard's sign-in) and then the consent
// page; POST /oauth/authorize takes the decision. Errors about the client or its redirect URI
// are pages; every other error goes back to the app (RFC 6749 §4.1.2.1) with state and iss.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { AppError, isServiceUnavailable } from '../../core/errors.ts';
import { logUnavailable } from '../../core/logger.ts';
import { sendForbidden, sendPage, sendUnavailable } from '../../web/page.ts';
import { csrfToken, currentSession, requireSession, verifyCsrf } from '../sessions/index.ts';
import { authorizationErrorPage, consentPage, sessionExpiredPage, wrongAccountPage } from './authorize.pages.ts';
import {
  type AuthorizationParameters,
  checkAuthorizationRequest,
  issueAuthorizationCode,
  redirectWith,
  userMayApprove,
} from './authorize.service.ts';

/** The parameters the consent form carries through to its submission. */
const ECHOED = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

function parametersOf(source: unknown): AuthorizationParameters {
  return source && typeof source === 'object' ? (source as AuthorizationParameters) : {};
}

export function authorizeRoutes(server: FastifyInstance, deps: Deps) {
  // a plugin of its own, so that its failures are pages for the user, not the API's JSON
  server.register(async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (isServiceUnavailable(error)) {
        // the client and its redirect URI cannot be checked now, so there is nowhere safe to redirect
        logUnavailable(request.log, 'oauth pages', error);
        return sendUnavailable(
          reply,
          'Connecting apps is temporarily unavailable. Nothing was shared; try again in a moment.',
        );
      }
      const status = error instanceof AppError ? error.status : error.statusCode;
      const clientError = status !== undefined && status >= 400 && status < 500;
      if (!clientError) request.log.error({ err: error }, 'authorization page failed');
      return sendPage(
        reply,
        authorizationErrorPage(clientError ? 'The request was malformed.' : 'Something went wrong on our side.'),
        clientError ? 400 : 500,
      );
    });
    authorizePages(app, deps);
  });
}

function authorizePages(app: FastifyInstance, deps: Deps) {
  const issuer = () => deps.config.authUrl;

  /** Checks the request; answers the error (page or redirect) itself and returns null then. */
  async function validRequest(params: AuthorizationParameters, reply: FastifyReply, status: 302 | 303) {
    const check = await checkAuthorizationRequest(deps, params);
    if (check.outcome === 'error_page') {
      await sendPage(reply, authorizationErrorPage(check.message), 400);
      return null;
    }
    if (check.outcome === 'redirect_error') {
      const target = redirectWith(check.redirectUri, {
        error: check.error,
        error_description: check.description,
        state: check.state,
        iss: issuer(),
      });
      await reply.header('cache-control', 'no-store').redirect(target, status);
      return null;
    }
    return check.request;
  }

  app.get('/oauth/authorize', { schema: { hide: true } }, async (request: FastifyRequest, reply) => {
    const params = parametersOf(request.query);
    const authorization = await validRequest(params, reply, 302);
    if (!authorization) return reply;
    // not signed in: the sign-in page brings the user back here
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    if (!userMayApprove(authorization.app, session)) {
      return sendPage(reply, wrongAccountPage({ email: session.userEmail }, authorization.app.name), 403);
    }
    const echoed: Record<string, string> = {};
    for (const name of ECHOED) {
      const value = params[name];
      if (typeof value === 'string') echoed[name] = value;
    }
    return sendPage(
      reply,
      consentPage({
        request: authorization,
        csrfToken: csrfToken(session),
        user: { email: session.userEmail, accountName: session.accountName },
        params: echoed,
      }),
    );
  });

  app.post('/oauth/authorize', { schema: { hide: true } }, async (request, reply) => {
    const params = parametersOf(request.body);
    const session = await currentSession(deps, request);
    if (!session) return sendPage(reply, sessionExpiredPage(), 403);
    if (!verifyCsrf(session, params._csrf)) return sendForbidden(reply);
    const authorization = await validRequest(params, reply, 303);
    if (!authorization) return reply;
    if (!userMayApprove(authorization.app, session)) {
      return sendPage(reply, wrongAccountPage({ email: session.userEmail }, authorization.app.name), 403);
    }
    const response =
      params.decision === 'approve'
        ? { code: await issueAuthorizationCode(deps, authorization, session.userId) }
        : { error: 'access_denied', error_description: 'The user denied access.' };
    const target = redirectWith(authorization.redirectUri, { ...response, state: authorization.state, iss: issuer() });
    // 303: the browser follows with a GET and does not re-send the form (RFC 9700 §4.12)
    return reply.header('cache-control', 'no-store').redirect(target, 303);
  });
}
