// `fieldhand accounts create` and `fieldhand api-keys create|revoke`: setting up an account
// before anyone can sign in.
import { type CliCommand, environmentOption, optionalText, requiredText } from '../../core/cli.ts';
import { migrate } from '../../core/migrate.ts';
import { seedDemoEnvironment } from '../demo/index.ts';
import { createAccount } from './accounts.service.ts';
import { createApiKey, revokeApiKeyById } from './api-keys.service.ts';

export const accountCommands: Record<string, CliCommand> = {
  'accounts create': {
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      demo: { type: 'boolean' },
    },
    run: async (options, deps) => {
      const input = {
        name: requiredText(options, 'name'),
        adminEmail: requiredText(options, 'admin-email'),
        adminPassword: requiredText(options, 'admin-password'),
      };
      await migrate(deps.db);
      return createAccount(deps, input, options.demo ? seedDemoEnvironment : undefined);
    },
  },
  'api-keys create': {
    options: { account: { type: 'string' }, env: { type: 'string' }, name: { type: 'string' } },
    run: async (options, deps) => {
      const tenant = {
        accountId: requiredText(options, 'account'),
        environment: environmentOption(optionalText(options, 'env')),
      };
      await migrate(deps.db);
      const key = await createApiKey(deps, tenant, optionalText(options, 'name') ?? '');
      return { id: key.id, key: key.key, environment: key.environment };
    },
  },
  'api-keys revoke': {
    options: { id: { type: 'string' } },
    run: async (options, deps) => {
      const id = requiredText(options, 'id');
      await migrate(deps.db);
      return revokeApiKeyById(deps, id);
    },
  },
};
