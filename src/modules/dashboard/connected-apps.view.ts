// Settings > Integrations > Connected apps: the apps the signed-in user allowed, and the revoke
// confirmation.
import { html, type SafeHtml } from '../../web/html.ts';
import { when } from '../../web/widgets.ts';
import { type OAuthGrantView, SCOPE_DESCRIPTIONS, type Scope } from '../oauth/index.ts';
import type { Session } from '../sessions/index.ts';
import { appLogo } from './oauth-apps.view.ts';
import { integrationsConfirmation, integrationsHeader } from './shell.ts';

export const CONNECTED_APPS = '/dashboard/settings/integrations/connected-apps';

function grantCard(grant: OAuthGrantView): SafeHtml {
  return html`<li class="panel grant" data-grant-id="${grant.id}">
  <div class="grant-head">
    <span class="app-name">${appLogo(grant.app, 40)}<strong>${grant.app.name}</strong></span>
    <a class="button secondary small" href="${CONNECTED_APPS}/${grant.id}/revoke" aria-label="Revoke access for ${grant.app.name}">Revoke access</a>
  </div>
  <p class="hint">Connected ${when(grant.created_at)}. It can:</p>
  <ul class="scopes">${grant.scopes.map(
    (scope) => html`<li>${SCOPE_DESCRIPTIONS[scope as Scope] ?? scope} <code>${scope}</code></li>`,
  )}</ul>
</li>`;
}

export function connectedAppsView(session: Session, grants: OAuthGrantView[], revoked: boolean): SafeHtml {
  return html`${integrationsHeader(CONNECTED_APPS)}
${revoked ? html`<div class="alert success" role="status">Access was revoked. The app's tokens no longer work.</div>` : null}
<p class="hint">Apps you (${session.userEmail}) allowed to use your ${session.environment} data. Revoking one ends its access at once.</p>
${
  grants.length
    ? html`<ul class="plain">${grants.map(grantCard)}</ul>`
    : html`<div class="table-wrap"><div class="empty"><strong>No connected apps</strong>
      Apps you approve on a Fieldhand consent screen appear here.</div></div>`
}`;
}

export function revokeGrantView(session: Session, grant: OAuthGrantView): SafeHtml {
  return integrationsConfirmation(session, CONNECTED_APPS, {
    action: `${CONNECTED_APPS}/${grant.id}/revoke`,
    title: `Revoke access for “${grant.app.name}”?`,
    warning:
      'The app can no longer read or change your data: its access and refresh tokens stop working at once. It can ask you again later.',
    button: 'Revoke access',
    cancelHref: CONNECTED_APPS,
  });
}
