// Settings > Integrations > OAuth Apps: list, register (logo upload, public or confidential;
// the client secret shown once), edit, rotate the secret (shown once) and delete, each through
// the OAuth module's own service functions (the CLI uses the same), whose errors are shown next
// to the field they name.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { invalidParameter } from '../../core/errors.ts';
import type { Environment } from '../../core/tenant.ts';
import { type FieldError, fieldError, formField, formValues, queryValue, UPLOAD_MAX_BYTES } from '../../web/forms.ts';
import {
  createOAuthApp,
  deleteOAuthApp,
  getOAuthApp,
  listOAuthApps,
  logoDataUrl,
  type OAuthAppView,
  rotateOAuthAppSecret,
  updateOAuthApp,
} from '../oauth/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import {
  type AppFormValues,
  appListView,
  appView,
  CONFIRMATIONS,
  credentialsView,
  formValuesOf,
  newAppValues,
  OAUTH_APPS,
  registerAppView,
} from './oauth-apps.view.ts';
import { PAGE, type RecordRequest, recordRoute } from './pages.ts';
import { type Confirmation, integrationsConfirmation, sendShell } from './shell.ts';

const APP_PAGE = recordRoute('There is no such OAuth app in this environment.');

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

/** The uploaded logo as the data: URL the service stores; undefined when none was chosen. */
function uploadedLogo(request: FastifyRequest): string | undefined {
  if (request.upload?.problem) throw invalidParameter('logo', request.upload.problem);
  const file = request.upload?.files.get('logo');
  if (!file) return undefined;
  if (file.tooLarge) throw invalidParameter('logo', `The logo must be at most ${UPLOAD_MAX_BYTES / 1024} KB.`);
  const dataUrl = logoDataUrl(file.bytes);
  if (!dataUrl) throw invalidParameter('logo', 'The logo must be a PNG, JPEG, GIF or WebP image.');
  return dataUrl;
}

export function oauthAppPages(app: FastifyInstance, deps: Deps): void {
  const appOf = (request: RecordRequest) => getOAuthApp(deps, sessionTenant(request.session), request.params.id);

  const sendAppPage = (
    request: RecordRequest,
    reply: FastifyReply,
    oauthApp: OAuthAppView,
    options: { saved?: boolean; error?: FieldError },
  ) =>
    sendShell(request, reply, {
      title: oauthApp.name,
      status: options.error ? 400 : 200,
      content: appView(request.session, oauthApp, formValuesOf(oauthApp), options),
    });

  /** A confirmation step (rotate secret, delete) for the app in the path. */
  const confirmation =
    (title: string, confirm: (oauthApp: OAuthAppView) => Confirmation) =>
    async (request: RecordRequest, reply: FastifyReply) => {
      const content = integrationsConfirmation(request.session, OAUTH_APPS, confirm(await appOf(request)));
      return sendShell(request, reply, { title, content });
    };

  app.get(OAUTH_APPS, PAGE, async (request, reply) => {
    const apps = await listOAuthApps(deps, sessionTenant(request.session));
    const deleted = Boolean(queryValue(request, 'deleted'));
    return sendShell(request, reply, {
      title: 'OAuth Apps',
      content: appListView(apps, request.session.environment, deleted, deps.config.authUrl),
    });
  });

  app.get(`${OAUTH_APPS}/new`, PAGE, async (request, reply) =>
    sendShell(request, reply, {
      title: 'Register an OAuth app',
      content: registerAppView(request.session, newAppValues(request.session.environment)),
    }),
  );

  app.post(OAUTH_APPS, PAGE, async (request, reply) => {
    const { session } = request;
    const values = postedValues(request, session.environment);
    try {
      const tenant = { accountId: session.accountId, environment: values.environment };
      const created = await createOAuthApp(deps, tenant, {
        name: values.name,
        description: values.description,
        redirectUris: redirectUriList(values.redirectUris),
        logoUrl: uploadedLogo(request) ?? null,
        public: values.clientType === 'public',
        scopes: values.scopes,
      });
      return sendShell(request, reply, {
        title: 'App registered',
        status: 201,
        content: credentialsView(session, created.app, created.client_secret, 'registered'),
      });
    } catch (error) {
      return sendShell(request, reply, {
        title: 'Register an OAuth app',
        status: 400,
        content: registerAppView(session, values, fieldError(error)),
      });
    }
  });

  app.get<{ Params: { id: string } }>(`${OAUTH_APPS}/:id`, APP_PAGE, async (request, reply) =>
    sendAppPage(request, reply, await appOf(request), { saved: queryValue(request, 'saved') === '1' }),
  );

  app.post<{ Params: { id: string } }>(`${OAUTH_APPS}/:id`, APP_PAGE, async (request, reply) => {
    const oauthApp = await appOf(request);
    const values = postedValues(request, request.session.environment);
    try {
      const logoUrl = uploadedLogo(request);
      await updateOAuthApp(deps, sessionTenant(request.session), oauthApp.client_id, {
        name: values.name,
        description: values.description,
        redirectUris: redirectUriList(values.redirectUris),
        logoUrl: logoUrl ?? (values.removeLogo ? null : undefined),
        scopes: values.scopes,
      });
    } catch (error) {
      return sendShell(request, reply, {
        title: oauthApp.name,
        status: 400,
        content: appView(request.session, oauthApp, values, { error: fieldError(error) }),
      });
    }
    return reply.redirect(`${OAUTH_APPS}/${oauthApp.client_id}?saved=1`, 303);
  });

  app.get(
    `${OAUTH_APPS}/:id/rotate-secret`,
    APP_PAGE,
    confirmation('Rotate client secret', CONFIRMATIONS.rotateSecret),
  );

  app.post<{ Params: { id: string } }>(`${OAUTH_APPS}/:id/rotate-secret`, APP_PAGE, async (request, reply) => {
    const oauthApp = await appOf(request);
    try {
      const tenant = sessionTenant(request.session);
      const rotated = await rotateOAuthAppSecret(deps, tenant, oauthApp.client_id);
      return sendShell(request, reply, {
        title: 'New client secret',
        content: credentialsView(request.session, rotated.app, rotated.client_secret, 'rotated'),
      });
    } catch (error) {
      // e.g. a public app, which has no secret: the service says so on the app's page
      return sendAppPage(request, reply, oauthApp, { error: fieldError(error) });
    }
  });

  app.get(`${OAUTH_APPS}/:id/delete`, APP_PAGE, confirmation('Delete OAuth app', CONFIRMATIONS.delete));

  app.post<{ Params: { id: string } }>(`${OAUTH_APPS}/:id/delete`, APP_PAGE, async (request, reply) => {
    // Only an app of the environment on screen (the delete service is scoped by account only).
    const oauthApp = await appOf(request);
    await deleteOAuthApp(deps, sessionTenant(request.session), oauthApp.client_id);
    return reply.redirect(`${OAUTH_APPS}?deleted=1`, 303);
  });
}
