// The `fieldhand` command. Every command prints JSON on success and exits non-zero with a
// one-line message on bad input.
import { parseArgs } from 'node:util';
import { systemClock } from './core/clock.ts';
import { ConfigError, loadConfig } from './core/config.ts';
import { type Database, DatabaseBusyError, DatabaseUnreachableError, openDatabase } from './core/db.ts';
import { AppError } from './core/errors.ts';
import { migrate } from './core/migrate.ts';
import type { Environment } from './core/tenant.ts';
import { createAccount, createApiKey, revokeApiKey } from './modules/accounts/index.ts';
import { catalogCommands } from './modules/catalog/index.ts';
import { seedDemoEnvironment } from './modules/demo/index.ts';
import { subscribeToEvents } from './modules/events/index.ts';
import { oauthAppCommands } from './modules/oauth/index.ts';
import { fanOutEvent } from './modules/webhooks/index.ts';

// Commands that publish events fan them out to webhooks too, as the server does.
subscribeToEvents(fanOutEvent);

class UsageError extends Error {}

const USAGE = `Usage: fieldhand <command> [options]

Commands:
  serve                                   run the server (what npm start runs)
  migrate                                 apply database migrations
  accounts create --name NAME --admin-email E --admin-password P [--demo]
  api-keys create --account ID --env test|live [--name N]
  api-keys revoke --id ID
  catalog export --account ID --env test|live [FILE]   (no FILE: print the catalog)
  catalog import --account ID --env test|live FILE     (see docs/catalog.md)
  oauth-apps create --account ID --env test|live --name N --redirect-uri URI [--redirect-uri URI…]
                    [--public] [--scope S…] [--description D] [--logo FILE]
  oauth-apps list --account ID [--env test|live]
  oauth-apps delete --id CLIENT_ID

Every command prints JSON. Settings come from the environment (see README).`;

type Options = Record<string, string | boolean | string[] | undefined>;

type Command = (options: Options, db: Database, positionals: string[]) => Promise<unknown>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function environment(options: Options): Environment {
  const env = required(options, 'env');
  if (env !== 'test' && env !== 'live') throw new UsageError('--env must be test or live');
  return env;
}

const COMMANDS: Record<
  string,
  {
    options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
    /** The name of the positional arguments the command takes, if any (e.g. FILE). */
    positionals?: string;
    run: Command;
  }
> = {
  ...catalogCommands,
  migrate: {
    options: {},
    run: async (_options, db) => ({ applied: await migrate(db.sql) }),
  },
  'accounts create': {
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      demo: { type: 'boolean' },
    },
    run: async (options, db) => {
      await migrate(db.sql);
      return createAccount(
        db.sql,
        {
          name: required(options, 'name'),
          adminEmail: required(options, 'admin-email'),
          adminPassword: required(options, 'admin-password'),
        },
        options.demo ? seedDemoEnvironment : undefined,
      );
    },
  },
  'api-keys create': {
    options: { account: { type: 'string' }, env: { type: 'string' }, name: { type: 'string' } },
    run: async (options, db) => {
      await migrate(db.sql);
      const key = await createApiKey(
        db.sql,
        { accountId: required(options, 'account'), environment: environment(options) },
        typeof options.name === 'string' ? options.name : '',
      );
      return { id: key.id, key: key.key, environment: key.environment };
    },
  },
  'api-keys revoke': {
    options: { id: { type: 'string' } },
    run: async (options, db) => {
      await migrate(db.sql);
      return revokeApiKey(db.sql, systemClock, required(options, 'id'));
    },
  },
  ...oauthAppCommands,
};

/** Other modules add their commands here (catalog, oauth-apps). */
export function registerCommand(name: string, command: (typeof COMMANDS)[string]): void {
  COMMANDS[name] = command;
}

export async function main(argv: string[]): Promise<number> {
  const [first, second] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return first ? 0 : 1;
  }
  try {
    if (first === 'serve') {
      const { serve } = await import('./server.ts');
      await serve(loadConfig());
      return 0;
    }
    const name = COMMANDS[first] ? first : `${first} ${second ?? ''}`.trim();
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`Unknown command: ${name}\n\n${USAGE}`);
    const rest = argv.slice(name.split(' ').length);
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: command.positionals !== undefined,
    });
    const config = loadConfig();
    const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
    try {
      const result = await command.run(values as Options, db, positionals);
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } finally {
      await db.close();
    }
    return 0;
  } catch (error) {
    if (error instanceof DatabaseUnreachableError) {
      // the contract's exact line (CONTRACT §12), for operators' scripts to match
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    const message =
      error instanceof UsageError || error instanceof ConfigError || error instanceof DatabaseBusyError
        ? error.message
        : error instanceof AppError
          ? `${error.message}${error.param ? ` (${error.param})` : ''}`
          : (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
              (error as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ||
              (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
            ? (error as Error).message
            : `Unexpected error: ${(error as Error).message}`;
    process.stderr.write(`fieldhand: ${message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
