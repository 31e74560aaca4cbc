// Settings > Integrations > API Keys: list, Generate New Key (shown once), revoke with a
// confirmation step. Every action is the accounts module's own function, as the CLI uses.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { formField, queryValue } from '../../web/forms.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../accounts/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { API_KEYS, apiKeyListView, NAME_MAX, newKeyForm, newKeyView, revokeKeyView } from './api-keys.view.ts';
import { PAGE, type RecordRequest } from './pages.ts';
import { sendNotFound, sendShell } from './shell.ts';

/** The key `id` of the environment on screen: the switch scopes actions as well as views. */
async function shownKey(deps: Deps, request: RecordRequest) {
  const keys = await listApiKeys(deps, sessionTenant(request.session));
  return keys.find((key) => key.id === request.params.id);
}

export function apiKeyPages(app: FastifyInstance, deps: Deps): void {
  app.get(API_KEYS, PAGE, async (request, reply) => {
    const keys = await listApiKeys(deps, sessionTenant(request.session));
    const revoked = Boolean(queryValue(request, 'revoked'));
    return sendShell(request, reply, {
      title: 'API Keys',
      content: apiKeyListView(keys, request.session.environment, revoked),
    });
  });

  app.get(`${API_KEYS}/new`, PAGE, async (request, reply) =>
    sendShell(request, reply, { title: 'Generate New Key', content: newKeyForm(request.session, {}) }),
  );

  app.post(API_KEYS, PAGE, async (request, reply) => {
    const name = formField(request, 'name').trim();
    const environment = formField(request, 'environment');
    // A dashboard key is named so the admin can tell it apart (the CLI may leave it unnamed).
    const problem = !name
      ? { param: 'name', message: 'Give the key a name.' }
      : name.length > NAME_MAX
        ? { param: 'name', message: `The name can be at most ${NAME_MAX} characters.` }
        : environment !== 'test' && environment !== 'live'
          ? { param: 'environment', message: 'Choose the environment the key is for.' }
          : null;
    if (problem) {
      const values = { name, environment: environment === 'live' ? ('live' as const) : ('test' as const) };
      return sendShell(request, reply, {
        title: 'Generate New Key',
        status: 400,
        content: newKeyForm(request.session, values, problem),
      });
    }
    const tenant = { accountId: request.session.accountId, environment: environment as 'test' | 'live' };
    const created = await createApiKey(deps, tenant, name);
    return sendShell(request, reply, {
      title: 'Your new API key',
      status: 201,
      content: newKeyView(created, request.session.environment),
    });
  });

  app.get<{ Params: { id: string } }>(`${API_KEYS}/:id/revoke`, PAGE, async (request, reply) => {
    const key = await shownKey(deps, request);
    if (!key || key.revoked_at) {
      return sendNotFound(request, reply, 'This API key does not exist or is already revoked.');
    }
    return sendShell(request, reply, { title: 'Revoke API key', content: revokeKeyView(request.session, key) });
  });

  app.post<{ Params: { id: string } }>(`${API_KEYS}/:id/revoke`, PAGE, async (request, reply) => {
    const key = await shownKey(deps, request);
    if (!key) return sendNotFound(request, reply, 'This API key does not exist.');
    await revokeApiKey(deps, sessionTenant(request.session), key.id);
    return reply.redirect(`${API_KEYS}?revoked=1`, 303);
  });
}
