// Settings > Integrations > API Keys: list, Generate New Key (shown once), revoke with a
// confirmation step. Every action is the accounts module's own function, as the CLI uses.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import type { Environment } from '../../core/tenant.ts';
import { type ApiKeyView, createApiKey, listApiKeys, revokeApiKey } from '../accounts/index.ts';
import {
  formField,
  html,
  requireFormSession,
  requireSession,
  type SafeHtml,
  type Session,
  sessionTenant,
} from '../sessions/index.ts';
import { csrfField, environmentBadge, integrationsHeader, sendShell, when } from './dashboard.layout.ts';
import { shownOnceSecret } from './forms.ts';
import { sendNotFound } from './not-found.ts';

const BASE = '/dashboard/settings/integrations/api-keys';
const NAME_MAX = 100;

type ApiKey = ApiKeyView;

async function keysOf(deps: Deps, session: Session): Promise<ApiKey[]> {
  return listApiKeys(deps, sessionTenant(session));
}

function keyRow(key: ApiKey): SafeHtml {
  const revoked = key.revoked_at !== null;
  return html`<tr data-key-id="${key.id}">
  <td><strong>${key.name || 'Untitled key'}</strong></td>
  <td class="hide-narrow">${environmentBadge(key.environment)}</td>
  <td class="mono"><span class="hide-narrow">svc_${key.environment}_sk_</span>…${key.last4}</td>
  <td class="hide-narrow">${when(key.created_at)}</td>
  <td class="hide-narrow">${when(key.last_used_at)}</td>
  <td>${
    revoked
      ? html`<span class="badge muted" title="Revoked ${key.revoked_at ?? ''}">Revoked</span>`
      : html`<span class="badge ok">Active</span>`
  }</td>
  <td class="num">${
    revoked
      ? null
      : html`<a class="button link danger small" href="${BASE}/${key.id}/revoke" aria-label="Revoke ${key.name || 'key'} ending in ${key.last4}">Revoke</a>`
  }</td>
</tr>`;
}

function keyTable(keys: ApiKey[], environment: Environment): SafeHtml {
  if (keys.length === 0) {
    return html`<div class="table-wrap"><div class="empty"><strong>No ${environment} API keys yet</strong>
      Generate a key to call the API from your own software.</div></div>`;
  }
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${environment === 'live' ? 'Live' : 'Test'} API keys</caption>
  <thead><tr><th scope="col">Name</th><th scope="col" class="hide-narrow">Environment</th><th scope="col">Key</th>
    <th scope="col" class="hide-narrow">Created</th><th scope="col" class="hide-narrow">Last used</th>
    <th scope="col">Status</th><th scope="col" class="num"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${keys.map(keyRow)}</tbody>
</table></div>`;
}

function newKeyForm(session: Session, values: { name?: string; environment?: Environment }, error?: string) {
  const environment = values.environment ?? session.environment;
  const radio = (value: Environment, label: string, hint: string) =>
    html`<label class="choice"><input type="radio" name="environment" value="${value}" ${
      environment === value ? html`checked` : null
    }> <span><strong>${label}</strong> <span class="hint">${hint}</span></span></label>`;
  return html`<form class="panel narrow-form" method="post" action="${BASE}" id="new-key-form">
  <h2>Generate New Key</h2>
  ${error ? html`<div class="alert error" role="alert">${error}</div>` : null}
  ${csrfField(session)}
  <div class="field">
    <label for="key-name">Name</label>
    <input id="key-name" name="name" type="text" maxlength="${NAME_MAX}" required autofocus
      value="${values.name ?? ''}" aria-describedby="key-name-hint">
    <span class="hint" id="key-name-hint">So you can tell your keys apart, e.g. "Website booking form".</span>
  </div>
  <fieldset>
    <legend>Environment</legend>
    ${radio('test', 'Test', 'for development; uses test data only')}
    ${radio('live', 'Live', 'for production; real customers and payments')}
  </fieldset>
  <div class="actions">
    <button type="submit">Generate key</button>
    <a class="button secondary" href="${BASE}">Cancel</a>
  </div>
</form>`;
}

export function apiKeyPages(app: FastifyInstance, deps: Deps): void {
  app.get(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const keys = await keysOf(deps, session);
    const revoked = (request.query as { revoked?: string }).revoked;
    return sendShell(request, reply, session, {
      title: 'API Keys',
      content: html`${integrationsHeader(BASE, html`<a class="button" href="${BASE}/new">Generate New Key</a>`)}
${revoked ? html`<div class="alert success" role="status">The key was revoked. Requests that use it are now refused.</div>` : null}
<p class="hint">API keys give full access to your ${session.environment} data. Keep them secret: use them only from servers, never in a browser or app.</p>
${keyTable(keys, session.environment)}`,
    });
  });

  app.get(`${BASE}/new`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    return sendShell(request, reply, session, {
      title: 'Generate New Key',
      content: html`${integrationsHeader(BASE)}${newKeyForm(session, {})}`,
    });
  });

  app.post(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const name = formField(request, 'name').trim();
    const environment = formField(request, 'environment');
    const problem = !name
      ? 'Give the key a name.'
      : name.length > NAME_MAX
        ? `The name can be at most ${NAME_MAX} characters.`
        : environment !== 'test' && environment !== 'live'
          ? 'Choose the environment the key is for.'
          : null;
    if (problem) {
      const values = { name, environment: environment === 'live' ? ('live' as const) : ('test' as const) };
      return sendShell(request, reply, session, {
        title: 'Generate New Key',
        status: 400,
        content: html`${integrationsHeader(BASE)}${newKeyForm(session, values, problem)}`,
      });
    }
    const tenant = { accountId: session.accountId, environment: environment as Environment };
    const created = await createApiKey(deps, tenant, name);
    return showNewKey(request, reply, session, created);
  });

  app.get<{ Params: { id: string } }>(`${BASE}/:id/revoke`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const key = (await keysOf(deps, session)).find((candidate) => candidate.id === request.params.id);
    if (!key || key.revoked_at)
      return sendNotFound(request, reply, session, 'This API key does not exist or is already revoked.');
    return sendShell(request, reply, session, {
      title: 'Revoke API key',
      content: html`${integrationsHeader(BASE)}
<form class="panel" method="post" action="${BASE}/${key.id}/revoke">
  ${csrfField(session)}
  <h2 id="revoke-title">Revoke “${key.name || 'Untitled key'}”?</h2>
  <div class="alert warning">Anything using the key ending in <code>${key.last4}</code>
    (${key.environment}) will stop working at once. This cannot be undone.</div>
  <div class="actions">
    <button type="submit" class="danger">Revoke key</button>
    <a class="button secondary" href="${BASE}">Cancel</a>
  </div>
</form>`,
    });
  });

  app.post<{ Params: { id: string } }>(`${BASE}/:id/revoke`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    // Only a key of the environment on screen: the switch scopes actions as well as views.
    const key = (await keysOf(deps, session)).find((candidate) => candidate.id === request.params.id);
    if (!key) return sendNotFound(request, reply, session, 'This API key does not exist.');
    await revokeApiKey(deps, sessionTenant(session), key.id);
    return reply.redirect(`${BASE}?revoked=1`, 303);
  });
}

function showNewKey(
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  created: { id: string; key: string; environment: Environment; name: string },
) {
  const otherEnvironment = created.environment !== session.environment;
  return sendShell(request, reply, session, {
    title: 'Your new API key',
    status: 201,
    content: html`${integrationsHeader(BASE)}
<section class="panel" aria-labelledby="new-key-title">
  <h2 id="new-key-title">Your new ${created.environment} key “${created.name}”</h2>
  <div class="alert warning" role="status">Copy the key now and keep it somewhere safe. For your security it will
    not be shown again.</div>
  ${shownOnceSecret({ id: 'new-key-value', label: 'Secret key', value: created.key, dataId: created.id })}
  ${
    otherEnvironment
      ? html`<p class="hint">This key is for the ${created.environment} environment; switch to ${created.environment === 'live' ? 'Live' : 'Test'} to see it in the list.</p>`
      : null
  }
  <div class="actions"><a class="button" href="${BASE}">Done</a></div>
</section>`,
  });
}
