// `fieldhand oauth-apps create|list|delete`: registering apps before (and besides) the dashboard.
import fs from 'node:fs';
import type { registerCommand } from '../../cli.ts';
import { systemClock } from '../../core/clock.ts';
import { AppError } from '../../core/errors.ts';
import { migrate } from '../../core/migrate.ts';
import { ENVIRONMENTS, type Environment } from '../../core/tenant.ts';
import { createOAuthApp, deleteOAuthApp, listOAuthApps, logoDataUrl } from './apps.service.ts';

type CliCommand = Parameters<typeof registerCommand>[1];
type Options = Parameters<CliCommand['run']>[0];

function text(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function required(options: Options, name: string): string {
  const value = text(options, name);
  if (value === undefined) throw new AppError('missing_required_field', `--${name} is required`);
  return value;
}

function list(options: Options, name: string): string[] {
  const value = options[name];
  const values = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return values.flatMap((item) => item.split(/[\s,]+/)).filter(Boolean);
}

/** --logo FILE: a PNG, JPEG, GIF or WebP file, stored as the app's logo. */
function logoFromFile(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path);
  } catch {
    throw new AppError('parameter_invalid', `--logo: cannot read ${path}`);
  }
  const dataUrl = logoDataUrl(bytes);
  if (!dataUrl) throw new AppError('parameter_invalid', '--logo must be a PNG, JPEG, GIF or WebP image');
  return dataUrl;
}

function environment(value: string | undefined): Environment {
  if (value !== 'test' && value !== 'live') throw new AppError('parameter_invalid', '--env must be test or live');
  return value;
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
    run: async (options, db) => {
      await migrate(db.sql);
      const tenant = { accountId: required(options, 'account'), environment: environment(required(options, 'env')) };
      const redirectUris = list(options, 'redirect-uri');
      if (redirectUris.length === 0) throw new AppError('missing_required_field', '--redirect-uri is required');
      const scopes = list(options, 'scope');
      const created = await createOAuthApp(db.sql, systemClock, tenant, {
        name: required(options, 'name'),
        description: text(options, 'description'),
        redirectUris,
        logoUrl: logoFromFile(text(options, 'logo')),
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
    run: async (options, db) => {
      await migrate(db.sql);
      const accountId = required(options, 'account');
      const env = text(options, 'env');
      const environments = env === undefined ? ENVIRONMENTS : [environment(env)];
      const apps = [];
      for (const each of environments) apps.push(...(await listOAuthApps(db.sql, { accountId, environment: each })));
      return apps;
    },
  },
  'oauth-apps delete': {
    options: { id: { type: 'string' } },
    run: async (options, db) => {
      await migrate(db.sql);
      return deleteOAuthApp(db.sql, systemClock, required(options, 'id'));
    },
  },
};
