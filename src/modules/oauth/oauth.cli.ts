// `fieldhand oauth-apps create|list|delete`: registering apps before (and besides) the dashboard.
import fs from 'node:fs';
import { type CliCommand, CliError, environmentOption, optionalText, requiredText, textList } from '../../core/cli.ts';
import { migrate } from '../../core/migrate.ts';
import { ENVIRONMENTS } from '../../core/tenant.ts';
import { createOAuthApp, deleteOAuthAppById, listOAuthApps, logoDataUrl } from './apps.service.ts';

/** --logo FILE: a PNG, JPEG, GIF or WebP file, stored as the app's logo. */
function logoFromFile(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path);
  } catch {
    throw new CliError(`--logo: cannot read ${path}`);
  }
  const dataUrl = logoDataUrl(bytes);
  if (!dataUrl) throw new CliError('--logo must be a PNG, JPEG, GIF or WebP image');
  return dataUrl;
}

export const oauthAppCommands: Record<string, CliCommand> = {
  'oauth-apps create': {
    options: {
      account: { type: 'string' },
      env: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      logo: { type: 'string' },
      public: { type: 'boolean' },
      scope: { type: 'string', multiple: true },
    },
    run: async (options, deps) => {
      await migrate(deps.db);
      const tenant = {
        accountId: requiredText(options, 'account'),
        environment: environmentOption(optionalText(options, 'env')),
      };
      const redirectUris = textList(options, 'redirect-uri');
      if (redirectUris.length === 0) throw new CliError('--redirect-uri is required');
      const scopes = textList(options, 'scope');
      const created = await createOAuthApp(deps, tenant, {
        name: requiredText(options, 'name'),
        description: optionalText(options, 'description'),
        redirectUris,
        logoUrl: logoFromFile(optionalText(options, 'logo')),
        public: options.public === true,
        scopes: scopes.length > 0 ? scopes : undefined,
      });
      return created.client_secret === null
        ? { client_id: created.app.client_id }
        : { client_id: created.app.client_id, client_secret: created.client_secret };
    },
  },
  'oauth-apps list': {
    options: { account: { type: 'string' }, env: { type: 'string' } },
    run: async (options, deps) => {
      await migrate(deps.db);
      const accountId = requiredText(options, 'account');
      const env = optionalText(options, 'env');
      const environments = env === undefined ? ENVIRONMENTS : [environmentOption(env)];
      const apps = [];
      for (const each of environments) apps.push(...(await listOAuthApps(deps, { accountId, environment: each })));
      return apps;
    },
  },
  'oauth-apps delete': {
    options: { id: { type: 'string' } },
    run: async (options, deps) => {
      await migrate(deps.db);
      return deleteOAuthAppById(deps, requiredText(options, 'id'));
    },
  },
};
