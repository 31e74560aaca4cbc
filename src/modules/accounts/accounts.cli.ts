// `fieldhand accounts create|list`, `users reset-password` and `api-keys create|revoke`: what an
// operator does for an account outside the dashboard (setting it up, finding its id, letting its
// admin back in).
import { type CliCommand, environmentOption, optionalText, requiredText } from '../../core/cli.ts';
import { migrate } from '../../core/migrate.ts';
import { seedDemoEnvironment } from '../demo/index.ts';
import { endUserSessions } from '../sessions/index.ts';
import { createAccount, listAccounts, resetPassword } from './accounts.service.ts';
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
  'accounts list': {
    options: {},
    run: async (_options, deps) => {
      await migrate(deps.db);
      return listAccounts(deps);
    },
  },
  'users reset-password': {
    options: { email: { type: 'string' }, password: { type: 'string' } },
    /** Prints the new password once; without --password a random one is made. */
    run: async (options, deps) => {
      const email = requiredText(options, 'email');
      await migrate(deps.db);
      return resetPassword(deps, { email, password: optionalText(options, 'password') }, endUserSessions);
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
