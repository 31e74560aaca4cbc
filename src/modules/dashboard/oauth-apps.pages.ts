// Settings > Integrations > OAuth Apps: list, register (logo upload, public or confidential;
// the client secret shown once), edit, rotate the secret (shown once) and delete, each through
// the OAuth module's own service functions (the CLI uses the same).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import type { Environment } from '../../core/tenant.ts';
import {
  createOAuthApp,
  deleteOAuthApp,
  getOAuthApp,
  listOAuthApps,
  logoDataUrl,
  type OAuthAppView,
  rotateOAuthAppSecret,
  SCOPE_DESCRIPTIONS,
  SCOPES,
  updateOAuthApp,
} from '../oauth/index.ts';
import {
  formField,
  html,
  requireFormSession,
  requireSession,
  type SafeHtml,
  type Session,
  sessionTenant,
} from '../sessions/index.ts';
import { csrfField, environmentBadge, integrationsHeader, queryValue, sendShell, when } from './dashboard.layout.ts';
import {
  confirmForm,
  formError,
  formValues,
  LOGO_MAX_BYTES,
  orNotFound,
  readUploadForm,
  shownOnceSecret,
  validationError,
} from './forms.ts';

const BASE = '/dashboard/settings/integrations/oauth-apps';
const NOT_FOUND = 'There is no such OAuth app in this environment.';

interface AppFormValues {
  name: string;
  description: string;
  redirectUris: string;
  environment: Environment;
  clientType: 'confidential' | 'public';
  scopes: string[];
  removeLogo?: boolean;
}

function logo(app: Pick<OAuthAppView, 'name' | 'logo_url'>, size = 32): SafeHtml {
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
  <td><span class="app-name">${logo(app)}<a href="${BASE}/${app.client_id}"><strong>${app.name}</strong></a></span></td>
  <td class="mono hide-narrow">${app.client_id}</td>
  <td>${typeBadge(app.client_type)}</td>
  <td class="hide-narrow">${app.redirect_uris.length} URI${app.redirect_uris.length === 1 ? '' : 's'}</td>
  <td class="hide-narrow">${when(app.created_at)}</td>
  <td class="num"><a class="button link small" href="${BASE}/${app.client_id}" aria-label="Edit ${app.name}">Edit</a></td>
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

function invalid(param: string | undefined, names: string[]): SafeHtml | null {
  return param && names.includes(param) ? html`aria-invalid="true" aria-errormessage="form-error"` : null;
}

/** The register form (no app yet) or the edit form of `app`. */
function appForm(
  session: Session,
  values: AppFormValues,
  options: { app?: OAuthAppView; error?: { param?: string; message: string } },
): SafeHtml {
  const { app, error } = options;
  const radio = (name: string, value: string, checked: boolean, label: string, hint: string) =>
    html`<label class="choice"><input type="radio" name="${name}" value="${value}" ${checked ? html`checked` : null}>
      <span><strong>${label}</strong> <span class="hint">${hint}</span></span></label>`;
  return html`<form class="panel narrow-form" method="post" action="${app ? `${BASE}/${app.client_id}` : BASE}"
    enctype="multipart/form-data" id="app-form">
  <h2>${app ? 'Edit app' : 'Register an app'}</h2>
  ${formError(error?.message)}
  ${csrfField(session)}
  <div class="field">
    <label for="app-name">Name</label>
    <input id="app-name" name="name" type="text" maxlength="100" required value="${values.name}"
      ${invalid(error?.param, ['name'])} aria-describedby="app-name-hint">
    <span class="hint" id="app-name-hint">Shown to your users on the consent screen.</span>
  </div>
  <div class="field">
    <label for="app-description">Description</label>
    <textarea id="app-description" name="description" rows="2" maxlength="500"
      ${invalid(error?.param, ['description'])}>${values.description}</textarea>
  </div>
  <div class="field">
    <label for="app-redirect-uris">Redirect URIs</label>
    <textarea id="app-redirect-uris" name="redirect_uris" rows="3" required spellcheck="false"
      ${invalid(error?.param, ['redirect_uris'])} aria-describedby="app-redirect-hint">${values.redirectUris}</textarea>
    <span class="hint" id="app-redirect-hint">One per line, matched exactly. https, or http for localhost only.</span>
  </div>
  <div class="field">
    <label for="app-logo">Logo</label>
    ${app?.logo_url ? html`<span class="app-name">${logo(app, 40)} <span class="hint">Current logo</span></span>` : null}
    <input id="app-logo" name="logo" type="file" accept="image/png,image/jpeg,image/gif,image/webp"
      ${invalid(error?.param, ['logo'])} aria-describedby="app-logo-hint">
    <span class="hint" id="app-logo-hint">PNG, JPEG, GIF or WebP, up to ${LOGO_MAX_BYTES / 1024} KB; square works best.${
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
  <fieldset ${invalid(error?.param, ['scopes'])}>
    <legend>Scopes the app may ask for</legend>
    ${SCOPES.map(
      (scope) =>
        html`<label class="choice"><input type="checkbox" name="scopes" value="${scope}" ${
          values.scopes.includes(scope) ? html`checked` : null
        }> <span><code>${scope}</code> <span class="hint">${SCOPE_DESCRIPTIONS[scope]}</span></span></label>`,
    )}
  </fieldset>
  <div class="actions">
    <button type="submit">${app ? 'Save changes' : 'Register app'}</button>
    <a class="button secondary" href="${app ? `${BASE}/${app.client_id}` : BASE}">Cancel</a>
  </div>
</form>`;
}

function postedValues(request: FastifyRequest, fallbackEnvironment: Environment): AppFormValues {
  const environment = formField(request, 'environment');
  return {
    name: formField(request, 'name').slice(0, 200),
    description: formField(request, 'description').slice(0, 1000),
    redirectUris: formField(request, 'redirect_uris').slice(0, 25_000),
    environment: environment === 'live' || environment === 'test' ? environment : fallbackEnvironment,
    clientType: formField(request, 'client_type') === 'public' ? 'public' : 'confidential',
    scopes: formValues(request, 'scopes'),
    removeLogo: formField(request, 'remove_logo') === '1',
  };
}

function redirectUriList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The uploaded logo as a data: URL; undefined when none was chosen; an error message otherwise. */
function uploadedLogo(file: { bytes: Buffer; tooLarge: boolean } | undefined): string | undefined | { error: string } {
  if (!file) return undefined;
  if (file.tooLarge) return { error: `The logo must be at most ${LOGO_MAX_BYTES / 1024} KB.` };
  return logoDataUrl(file.bytes) ?? { error: 'The logo must be a PNG, JPEG, GIF or WebP image.' };
}

export function oauthAppPages(app: FastifyInstance, deps: Deps): void {
  app.get(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const apps = await listOAuthApps(deps, sessionTenant(session));
    const deleted = queryValue(request, 'deleted');
    return sendShell(request, reply, session, {
      title: 'OAuth Apps',
      content: html`${integrationsHeader(BASE, html`<a class="button" href="${BASE}/new">Register app</a>`)}
${deleted ? html`<div class="alert success" role="status">The app was deleted and every token issued to it revoked.</div>` : null}
<p class="hint">OAuth apps act for the users who approve them, with the scopes they approve, in the app's environment.
  Point them at <code>${deps.config.authUrl}/.well-known/oauth-authorization-server</code>.</p>
${appTable(apps, session.environment)}`,
    });
  });

  app.get(`${BASE}/new`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const values: AppFormValues = {
      name: '',
      description: '',
      redirectUris: '',
      environment: session.environment,
      clientType: 'confidential',
      scopes: [...SCOPES],
    };
    return sendShell(request, reply, session, {
      title: 'Register an OAuth app',
      content: html`${integrationsHeader(BASE)}${appForm(session, values, {})}`,
    });
  });

  app.post(BASE, { schema: { hide: true } }, async (request, reply) => {
    const upload = await readUploadForm(request);
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const values = postedValues(request, session.environment);
    const showError = (error: { param?: string; message: string }) =>
      sendShell(request, reply, session, {
        title: 'Register an OAuth app',
        status: 400,
        content: html`${integrationsHeader(BASE)}${appForm(session, values, { error })}`,
      });
    if (upload.problem) return showError({ param: 'logo', message: upload.problem });
    const logoUrl = uploadedLogo(upload.files.get('logo'));
    if (typeof logoUrl === 'object') return showError({ param: 'logo', message: logoUrl.error });
    const tenant = { accountId: session.accountId, environment: values.environment };
    try {
      const created = await createOAuthApp(deps, tenant, {
        name: values.name,
        description: values.description,
        redirectUris: redirectUriList(values.redirectUris),
        logoUrl: logoUrl ?? null,
        public: values.clientType === 'public',
        scopes: values.scopes,
      });
      return showCredentials(request, reply, session, created.app, created.client_secret, 'registered');
    } catch (error) {
      const problem = validationError(error);
      if (problem) return showError(problem);
      throw error;
    }
  });

  app.get<{ Params: { id: string } }>(`${BASE}/:id`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const found = await orNotFound(request, reply, session, NOT_FOUND, () =>
      getOAuthApp(deps, sessionTenant(session), request.params.id),
    );
    if (!found.found) return found.reply;
    const oauthApp = found.value;
    return sendAppPage(request, reply, session, oauthApp, formValuesOf(oauthApp), {
      saved: queryValue(request, 'saved') === '1',
    });
  });

  app.post<{ Params: { id: string } }>(`${BASE}/:id`, { schema: { hide: true } }, async (request, reply) => {
    const upload = await readUploadForm(request);
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const tenant = sessionTenant(session);
    const found = await orNotFound(request, reply, session, NOT_FOUND, () =>
      getOAuthApp(deps, tenant, request.params.id),
    );
    if (!found.found) return found.reply;
    const values = postedValues(request, session.environment);
    const showError = (error: { param?: string; message: string }) =>
      sendAppPage(request, reply, session, found.value, values, { error, status: 400 });
    if (upload.problem) return showError({ param: 'logo', message: upload.problem });
    const logoUrl = uploadedLogo(upload.files.get('logo'));
    if (typeof logoUrl === 'object') return showError({ param: 'logo', message: logoUrl.error });
    try {
      await updateOAuthApp(deps, tenant, found.value.client_id, {
        name: values.name,
        description: values.description,
        redirectUris: redirectUriList(values.redirectUris),
        logoUrl: logoUrl ?? (values.removeLogo ? null : undefined),
        scopes: values.scopes,
      });
    } catch (error) {
      const problem = validationError(error);
      if (problem) return showError(problem);
      throw error;
    }
    return reply.redirect(`${BASE}/${found.value.client_id}?saved=1`, 303);
  });

  app.get<{ Params: { id: string } }>(
    `${BASE}/:id/rotate-secret`,
    { schema: { hide: true } },
    async (request, reply) => {
      const session = await requireSession(deps, request, reply);
      if (!session) return reply;
      const found = await orNotFound(request, reply, session, NOT_FOUND, () =>
        getOAuthApp(deps, sessionTenant(session), request.params.id),
      );
      if (!found.found) return found.reply;
      const oauthApp = found.value;
      if (oauthApp.client_type === 'public') return reply.redirect(`${BASE}/${oauthApp.client_id}`, 303);
      return sendShell(request, reply, session, {
        title: 'Rotate client secret',
        content: html`${integrationsHeader(BASE)}${confirmForm(session, {
          action: `${BASE}/${oauthApp.client_id}/rotate-secret`,
          title: `Rotate the client secret of “${oauthApp.name}”?`,
          warning: html`The secret ending in <code>${oauthApp.secret_last4 ?? ''}</code> stops working at once: the app
          must use the new one to exchange codes and refresh tokens. Tokens already issued keep working.`,
          button: 'Rotate secret',
          cancelHref: `${BASE}/${oauthApp.client_id}`,
        })}`,
      });
    },
  );

  app.post<{ Params: { id: string } }>(
    `${BASE}/:id/rotate-secret`,
    { schema: { hide: true } },
    async (request, reply) => {
      const session = await requireFormSession(deps, request, reply);
      if (!session) return reply;
      const tenant = sessionTenant(session);
      const found = await orNotFound(request, reply, session, NOT_FOUND, async () => {
        const oauthApp = await getOAuthApp(deps, tenant, request.params.id);
        // a public app has no secret to rotate
        return oauthApp.client_type === 'public' ? null : rotateOAuthAppSecret(deps, tenant, oauthApp.client_id);
      });
      if (!found.found) return found.reply;
      if (!found.value) return reply.redirect(`${BASE}/${request.params.id}`, 303);
      return showCredentials(request, reply, session, found.value.app, found.value.client_secret, 'rotated');
    },
  );

  app.get<{ Params: { id: string } }>(`${BASE}/:id/delete`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const found = await orNotFound(request, reply, session, NOT_FOUND, () =>
      getOAuthApp(deps, sessionTenant(session), request.params.id),
    );
    if (!found.found) return found.reply;
    return sendShell(request, reply, session, {
      title: 'Delete OAuth app',
      content: html`${integrationsHeader(BASE)}${confirmForm(session, {
        action: `${BASE}/${found.value.client_id}/delete`,
        title: `Delete “${found.value.name}”?`,
        warning:
          'Every user who connected the app loses the connection: its access and refresh tokens stop working at once. This cannot be undone.',
        button: 'Delete app',
        cancelHref: `${BASE}/${found.value.client_id}`,
      })}`,
    });
  });

  app.post<{ Params: { id: string } }>(`${BASE}/:id/delete`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    // Only an app of the environment on screen (the delete service is scoped by account only).
    const found = await orNotFound(request, reply, session, NOT_FOUND, async () => {
      const oauthApp = await getOAuthApp(deps, sessionTenant(session), request.params.id);
      return deleteOAuthApp(deps, sessionTenant(session), oauthApp.client_id);
    });
    if (!found.found) return found.reply;
    return reply.redirect(`${BASE}?deleted=1`, 303);
  });
}

function formValuesOf(app: OAuthAppView): AppFormValues {
  return {
    name: app.name,
    description: app.description,
    redirectUris: app.redirect_uris.join('\n'),
    environment: app.environment,
    clientType: app.client_type,
    scopes: app.scopes,
  };
}

function sendAppPage(
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  oauthApp: OAuthAppView,
  values: AppFormValues,
  options: { error?: { param?: string; message: string }; status?: number; saved?: boolean },
) {
  const id = oauthApp.client_id;
  return sendShell(request, reply, session, {
    title: oauthApp.name,
    status: options.status,
    content: html`${integrationsHeader(BASE)}
${options.saved ? html`<div class="alert success" role="status">Your changes were saved.</div>` : null}
<div class="grid-2">
  <section class="panel" aria-labelledby="credentials-title">
    <h2 id="credentials-title"><span class="app-name">${logo(oauthApp, 40)}${oauthApp.name}</span></h2>
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
          : html`<a class="button secondary" href="${BASE}/${id}/rotate-secret">Rotate secret</a>`
      }
      <a class="button link danger" href="${BASE}/${id}/delete">Delete app</a>
    </div>
  </section>
  ${appForm(session, values, { app: oauthApp, error: options.error })}
</div>`,
  });
}

function showCredentials(
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  oauthApp: OAuthAppView,
  secret: string | null,
  what: 'registered' | 'rotated',
) {
  const otherEnvironment = oauthApp.environment !== session.environment;
  return sendShell(request, reply, session, {
    title: what === 'registered' ? 'App registered' : 'New client secret',
    status: what === 'registered' ? 201 : 200,
    content: html`${integrationsHeader(BASE)}
<section class="panel" aria-labelledby="credentials-title">
  <h2 id="credentials-title">${what === 'registered' ? `“${oauthApp.name}” is registered` : `New client secret for “${oauthApp.name}”`}</h2>
  ${shownOnceSecret({ id: 'client-id-value', label: 'Client ID', value: oauthApp.client_id })}
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
  }
  <div class="actions"><a class="button" href="${otherEnvironment ? BASE : `${BASE}/${oauthApp.client_id}`}">Done</a></div>
</section>`,
  });
}
