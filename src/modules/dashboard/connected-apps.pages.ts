// Settings > Integrations > Connected apps: the OAuth apps the signed-in user has allowed to use
// the account (in the environment on screen), each revocable. Revoking goes through the token
// service, which ends the grant and every access and refresh token issued under it.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { listUserGrants, type OAuthGrantView, revokeGrant, SCOPE_DESCRIPTIONS, type Scope } from '../oauth/index.ts';
import { html, requireFormSession, requireSession, type SafeHtml, sessionTenant } from '../sessions/index.ts';
import { integrationsHeader, queryValue, sendShell, when } from './dashboard.layout.ts';
import { confirmForm } from './forms.ts';
import { sendNotFound } from './not-found.ts';

const BASE = '/dashboard/settings/integrations/connected-apps';
const NOT_FOUND = 'There is no such connected app for you in this environment.';

function appLogo(grant: OAuthGrantView): SafeHtml {
  return grant.app.logo_url
    ? html`<img class="app-logo" src="${grant.app.logo_url}" alt="" width="40" height="40">`
    : html`<span class="app-logo placeholder" aria-hidden="true">${grant.app.name.slice(0, 1).toUpperCase()}</span>`;
}

function grantCard(grant: OAuthGrantView): SafeHtml {
  return html`<li class="panel grant" data-grant-id="${grant.id}">
  <div class="grant-head">
    <span class="app-name">${appLogo(grant)}<strong>${grant.app.name}</strong></span>
    <a class="button secondary small" href="${BASE}/${grant.id}/revoke" aria-label="Revoke access for ${grant.app.name}">Revoke access</a>
  </div>
  <p class="hint">Connected ${when(grant.created_at)}. It can:</p>
  <ul class="scopes">${grant.scopes.map(
    (scope) => html`<li>${SCOPE_DESCRIPTIONS[scope as Scope] ?? scope} <code>${scope}</code></li>`,
  )}</ul>
</li>`;
}

export function connectedAppPages(app: FastifyInstance, deps: Deps): void {
  app.get(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const grants = await listUserGrants(deps, sessionTenant(session), session.userId);
    return sendShell(request, reply, session, {
      title: 'Connected apps',
      content: html`${integrationsHeader(BASE)}
${queryValue(request, 'revoked') ? html`<div class="alert success" role="status">Access was revoked. The app's tokens no longer work.</div>` : null}
<p class="hint">Apps you (${session.userEmail}) allowed to use your ${session.environment} data. Revoking one ends its access at once.</p>
${
  grants.length
    ? html`<ul class="plain">${grants.map(grantCard)}</ul>`
    : html`<div class="table-wrap"><div class="empty"><strong>No connected apps</strong>
      Apps you approve on a Fieldhand consent screen appear here.</div></div>`
}`,
    });
  });

  app.get<{ Params: { id: string } }>(`${BASE}/:id/revoke`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const grants = await listUserGrants(deps, sessionTenant(session), session.userId);
    const grant = grants.find((candidate) => candidate.id === request.params.id);
    if (!grant) return sendNotFound(request, reply, session, NOT_FOUND);
    return sendShell(request, reply, session, {
      title: 'Revoke access',
      content: html`${integrationsHeader(BASE)}${confirmForm(session, {
        action: `${BASE}/${grant.id}/revoke`,
        title: `Revoke access for “${grant.app.name}”?`,
        warning:
          'The app can no longer read or change your data: its access and refresh tokens stop working at once. It can ask you again later.',
        button: 'Revoke access',
        cancelHref: BASE,
      })}`,
    });
  });

  app.post<{ Params: { id: string } }>(`${BASE}/:id/revoke`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const grants = await listUserGrants(deps, sessionTenant(session), session.userId);
    if (!grants.some((candidate) => candidate.id === request.params.id)) {
      return sendNotFound(request, reply, session, NOT_FOUND);
    }
    await revokeGrant(deps, sessionTenant(session), { grantId: request.params.id, userId: session.userId });
    return reply.redirect(`${BASE}?revoked=1`, 303);
  });
}
