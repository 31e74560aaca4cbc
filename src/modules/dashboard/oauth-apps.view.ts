// Settings > Integrations > OAuth Apps: the list, the register and edit forms (with the logo
// upload), an app with its credentials, the client secret shown once, and the confirmations.
import type { Environment } from '../../core/tenant.ts';
import {
  errorNextTo,
  type FieldError,
  formError,
  invalidIf,
  shownOnceSecret,
  UPLOAD_MAX_BYTES,
} from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { when } from '../../web/widgets.ts';
import { type OAuthAppView, SCOPE_DESCRIPTIONS, SCOPES } from '../oauth/index.ts';
import type { Session } from '../sessions/index.ts';
import {
  confirmationOn,
  csrfField,
  environmentBadge,
  formButtons,
  integrationsHeader,
  shownOncePage,
} from './shell.ts';

export const OAUTH_APPS = '/dashboard/settings/integrations/oauth-apps';
/** The fields of the app form a service's error can be about. */
const FIELDS = ['name', 'description', 'redirect_uris', 'logo', 'scopes'];

export interface AppFormValues {
  name: string;
  description: string;
  redirectUris: string;
  environment: Environment;
  clientType: 'confidential' | 'public';
  scopes: string[];
  removeLogo?: boolean;
}

/** An app's logo, or its initial when it has none. */
export function appLogo(app: Pick<OAuthAppView, 'name' | 'logo_url'>, size = 32): SafeHtml {
  // Logos are data: URLs of PNG/JPEG/GIF/WebP checked by the service; an <img> never runs script.
  return app.logo_url
    ? html`<img class="app-logo" src="${app.logo_url}" alt="" width="${size}" height="${size}">`
    : html`<span class="app-logo placeholder" aria-hidden="true">${app.name.slice(0, 1).toUpperCase()}</span>`;
}

function typeBadge(type: string): SafeHtml {
  return html`<span class="badge muted">${type === 'public' ? 'Public' : 'Confidential'}</span>`;
}

function appTable(apps: OAuthAppView[], environment: Environment): SafeHtml {
  if (apps.length === 0) {
    return html`<div class="table-wrap"><div class="empty"><strong>No ${environment} OAuth apps yet</strong>
      Register an app so it can ask your users for access to their Fieldhand account.</div></div>`;
  }
  const rows = apps.map(
    (app) => html`<tr data-client-id="${app.client_id}">
  <td><span class="app-name">${appLogo(app)}<a href="${OAUTH_APPS}/${app.client_id}"><strong>${app.name}</strong></a></span></td>
  <td class="mono hide-narrow">${app.client_id}</td>
  <td>${typeBadge(app.client_type)}</td>
  <td class="hide-narrow">${app.redirect_uris.length} URI${app.redirect_uris.length === 1 ? '' : 's'}</td>
  <td class="hide-narrow">${when(app.created_at)}</td>
  <td class="num"><a class="button link small" href="${OAUTH_APPS}/${app.client_id}" aria-label="Edit ${app.name}">Edit</a></td>
</tr>`,
  );
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${environment === 'live' ? 'Live' : 'Test'} OAuth apps</caption>
  <thead><tr><th scope="col">App</th><th scope="col" class="hide-narrow">Client ID</th><th scope="col">Type</th>
    <th scope="col" class="hide-narrow">Redirect URIs</th><th scope="col" class="hide-narrow">Registered</th>
    <th scope="col" class="num"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}

/** The register form (no app yet) or the edit form of `app`. */
function appForm(
  session: Session,
  values: AppFormValues,
  options: { app?: OAuthAppView; error?: FieldError },
): SafeHtml {
  const { app, error } = options;
  const radio = (name: string, value: string, checked: boolean, label: string, hint: string) =>
    html`<label class="choice"><input type="radio" name="${name}" value="${value}" ${checked ? html`checked` : null}>
      <span><strong>${label}</strong> <span class="hint">${hint}</span></span></label>`;
  return html`<form class="panel narrow-form" method="post" action="${app ? `${OAUTH_APPS}/${app.client_id}` : OAUTH_APPS}"
    enctype="multipart/form-data" id="app-form">
  <h2>${app ? 'Edit app' : 'Register an app'}</h2>
  ${formError(error, FIELDS)}
  ${csrfField(session)}
  <div class="field">
    <label for="app-name">Name</label>
    <input id="app-name" name="name" type="text" maxlength="100" required value="${values.name}"
      ${invalidIf(error, 'name')} aria-describedby="app-name-hint">
    ${errorNextTo(error, 'name')}
    <span class="hint" id="app-name-hint">Shown to your users on the consent screen.</span>
  </div>
  <div class="field">
    <label for="app-description">Description</label>
    <textarea id="app-description" name="description" rows="2" maxlength="500"
      ${invalidIf(error, 'description')}>${values.description}</textarea>
    ${errorNextTo(error, 'description')}
  </div>
  <div class="field">
    <label for="app-redirect-uris">Redirect URIs</label>
    <textarea id="app-redirect-uris" name="redirect_uris" rows="3" required spellcheck="false"
      ${invalidIf(error, 'redirect_uris')} aria-describedby="app-redirect-hint">${values.redirectUris}</textarea>
    ${errorNextTo(error, 'redirect_uris')}
    <span class="hint" id="app-redirect-hint">One per line, matched exactly. https, or http for localhost only.</span>
  </div>
  <div class="field">
    <label for="app-logo">Logo</label>
    ${app?.logo_url ? html`<span class="app-name">${appLogo(app, 40)} <span class="hint">Current logo</span></span>` : null}
    <input id="app-logo" name="logo" type="file" accept="image/png,image/jpeg,image/gif,image/webp"
      ${invalidIf(error, 'logo')} aria-describedby="app-logo-hint">
    ${errorNextTo(error, 'logo')}
    <span class="hint" id="app-logo-hint">PNG, JPEG, GIF or WebP, up to ${UPLOAD_MAX_BYTES / 1024} KB; square works best.${
      error ? ' Choose the file again if you picked one.' : ''
    }</span>
    ${
      app?.logo_url
        ? html`<label class="choice"><input type="checkbox" name="remove_logo" value="1" ${values.removeLogo ? html`checked` : null}> Remove the current logo</label>`
        : null
    }
  </div>
  ${
    app
      ? null
      : html`<fieldset>
    <legend>Environment</legend>
    ${radio('environment', 'test', values.environment === 'test', 'Test', 'tokens act on test data only')}
    ${radio('environment', 'live', values.environment === 'live', 'Live', 'tokens act on real data')}
  </fieldset>
  <fieldset>
    <legend>Client type</legend>
    ${radio('client_type', 'confidential', values.clientType === 'confidential', 'Confidential', 'a server that can keep a client secret')}
    ${radio('client_type', 'public', values.clientType === 'public', 'Public', 'a browser or mobile app: no secret, PKCE required')}
  </fieldset>`
  }
  <fieldset ${invalidIf(error, 'scopes')}>
    <legend>Scopes the app may ask for</legend>
    ${errorNextTo(error, 'scopes')}
    ${SCOPES.map(
      (scope) =>
        html`<label class="choice"><input type="checkbox" name="scopes" value="${scope}" ${
          values.scopes.includes(scope) ? html`checked` : null
        }> <span><code>${scope}</code> <span class="hint">${SCOPE_DESCRIPTIONS[scope]}</span></span></label>`,
    )}
  </fieldset>
  ${formButtons({
    editing: Boolean(app),
    add: 'Register app',
    cancel: app ? `${OAUTH_APPS}/${app.client_id}` : OAUTH_APPS,
  })}
</form>`;
}

export function appListView(apps: OAuthAppView[], environment: Environment, deleted: boolean, authUrl: string) {
  return html`${integrationsHeader(OAUTH_APPS, html`<a class="button" href="${OAUTH_APPS}/new">Register app</a>`)}
${deleted ? html`<div class="alert success" role="status">The app was deleted and every token issued to it revoked.</div>` : null}
<p class="hint">OAuth apps act for the users who approve them, with the scopes they approve, in the app's environment.
  Point them at <code>${authUrl}/.well-known/oauth-authorization-server</code>.</p>
${appTable(apps, environment)}`;
}

/** The register form, empty: a confidential app with every scope, in the environment on screen. */
export function newAppValues(environment: Environment): AppFormValues {
  return { name: '', description: '', redirectUris: '', environment, clientType: 'confidential', scopes: [...SCOPES] };
}

export function registerAppView(session: Session, values: AppFormValues, error?: FieldError): SafeHtml {
  return html`${integrationsHeader(OAUTH_APPS)}${appForm(session, values, { error })}`;
}

export function formValuesOf(app: OAuthAppView): AppFormValues {
  return {
    name: app.name,
    description: app.description,
    redirectUris: app.redirect_uris.join('\n'),
    environment: app.environment,
    clientType: app.client_type,
    scopes: app.scopes,
  };
}

/** An app: its credentials and actions beside its edit form (as posted, with an error, if any). */
export function appView(
  session: Session,
  oauthApp: OAuthAppView,
  values: AppFormValues,
  options: { error?: FieldError; saved?: boolean },
): SafeHtml {
  const id = oauthApp.client_id;
  return html`${integrationsHeader(OAUTH_APPS)}
${options.saved ? html`<div class="alert success" role="status">Your changes were saved.</div>` : null}
<div class="grid-2">
  <section class="panel" aria-labelledby="credentials-title">
    <h2 id="credentials-title"><span class="app-name">${appLogo(oauthApp, 40)}${oauthApp.name}</span></h2>
    <dl class="details">
      <dt>Client ID</dt><dd class="mono">${id}</dd>
      <dt>Environment</dt><dd>${environmentBadge(oauthApp.environment)}</dd>
      <dt>Type</dt><dd>${typeBadge(oauthApp.client_type)}</dd>
      <dt>Client secret</dt><dd>${
        oauthApp.client_type === 'public'
          ? html`<span class="hint">None: public apps use PKCE</span>`
          : html`<span class="mono">svc_cs_…${oauthApp.secret_last4 ?? ''}</span>${
              oauthApp.secret_rotated_at
                ? html` <span class="hint">rotated ${when(oauthApp.secret_rotated_at)}</span>`
                : null
            }`
      }</dd>
      <dt>Registered</dt><dd>${when(oauthApp.created_at)}</dd>
    </dl>
    <div class="actions">
      ${
        oauthApp.client_type === 'public'
          ? null
          : html`<a class="button secondary" href="${OAUTH_APPS}/${id}/rotate-secret">Rotate secret</a>`
      }
      <a class="button link danger" href="${OAUTH_APPS}/${id}/delete">Delete app</a>
    </div>
  </section>
  ${appForm(session, values, { app: oauthApp, error: options.error })}
</div>`;
}

/** The client id and, for a confidential app, its secret: shown once after Register or Rotate. */
export function credentialsView(
  session: Session,
  oauthApp: OAuthAppView,
  secret: string | null,
  what: 'registered' | 'rotated',
): SafeHtml {
  const otherEnvironment = oauthApp.environment !== session.environment;
  return shownOncePage(OAUTH_APPS, {
    id: 'credentials-title',
    title: what === 'registered' ? `“${oauthApp.name}” is registered` : `New client secret for “${oauthApp.name}”`,
    content: html`${shownOnceSecret({ id: 'client-id-value', label: 'Client ID', value: oauthApp.client_id })}
  ${
    secret
      ? html`<div class="alert warning" role="status">Copy the client secret now and keep it on your server. For your
    security it will not be shown again.</div>
  ${shownOnceSecret({ id: 'client-secret-value', label: 'Client secret', value: secret })}`
      : html`<p class="hint">A public app has no client secret: it proves itself with PKCE (S256) on every authorization.</p>`
  }
  ${
    otherEnvironment
      ? html`<p class="hint">This app is for the ${oauthApp.environment} environment; switch to ${
          oauthApp.environment === 'live' ? 'Live' : 'Test'
        } to see it in the list.</p>`
      : null
  }`,
    done: otherEnvironment ? OAUTH_APPS : `${OAUTH_APPS}/${oauthApp.client_id}`,
  });
}

/** The confirmation steps of the app's actions that cannot be undone. */
export const CONFIRMATIONS = {
  rotateSecret: (oauthApp: OAuthAppView) =>
    confirmationOn(`${OAUTH_APPS}/${oauthApp.client_id}`, 'rotate-secret', {
      title: `Rotate the client secret of “${oauthApp.name}”?`,
      warning: html`The secret ending in <code>${oauthApp.secret_last4 ?? ''}</code> stops working at once: the app
          must use the new one to exchange codes and refresh tokens. Tokens already issued keep working.`,
      button: 'Rotate secret',
    }),
  delete: (oauthApp: OAuthAppView) =>
    confirmationOn(`${OAUTH_APPS}/${oauthApp.client_id}`, 'delete', {
      title: `Delete “${oauthApp.name}”?`,
      warning:
        'Every user who connected the app loses the connection: its access and refresh tokens stop working at once. This cannot be undone.',
      button: 'Delete app',
    }),
};
