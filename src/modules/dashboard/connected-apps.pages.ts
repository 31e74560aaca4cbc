// Settings > Integrations > Connected apps: the OAuth apps the signed-in user has allowed to use
// the account (in the environment on screen), each revocable. Revoking goes through the token
// service, which ends the grant and every access and refresh token issued under it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { queryValue } from '../../web/forms.ts';
import { listUserGrants, revokeGrant } from '../oauth/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { CONNECTED_APPS, connectedAppsView, revokeGrantView } from './connected-apps.view.ts';
import { PAGE } from './pages.ts';
import { sendNotFound, sendShell } from './shell.ts';

const NOT_FOUND = 'There is no such connected app for you in this environment.';

/** The signed-in user's grants in the environment on screen. */
function grantsOf(deps: Deps, request: FastifyRequest) {
  return listUserGrants(deps, sessionTenant(request.session), request.session.userId);
}

export function connectedAppPages(app: FastifyInstance, deps: Deps): void {
  app.get(CONNECTED_APPS, PAGE, async (request, reply) => {
    const grants = await grantsOf(deps, request);
    const revoked = Boolean(queryValue(request, 'revoked'));
    return sendShell(request, reply, {
      title: 'Connected apps',
      content: connectedAppsView(request.session, grants, revoked),
    });
  });

  app.get<{ Params: { id: string } }>(`${CONNECTED_APPS}/:id/revoke`, PAGE, async (request, reply) => {
    const grant = (await grantsOf(deps, request)).find((candidate) => candidate.id === request.params.id);
    if (!grant) return sendNotFound(request, reply, NOT_FOUND);
    return sendShell(request, reply, { title: 'Revoke access', content: revokeGrantView(request.session, grant) });
  });

  app.post<{ Params: { id: string } }>(`${CONNECTED_APPS}/:id/revoke`, PAGE, async (request, reply) => {
    const grants = await grantsOf(deps, request);
    if (!grants.some((candidate) => candidate.id === request.params.id)) {
      return sendNotFound(request, reply, NOT_FOUND);
    }
    const { session } = request;
    await revokeGrant(deps, sessionTenant(session), { grantId: request.params.id, userId: session.userId });
    return reply.redirect(`${CONNECTED_APPS}?revoked=1`, 303);
  });
}
