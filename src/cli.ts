// The `fieldhand` command. Every command prints JSON on success and exits non-zero with a
// one-line message on bad input.
import { parseArgs } from 'node:util';
import pino from 'pino';
import { type CliCommand, CliError, type CliOptions } from './core/cli.ts';
import { systemClock } from './core/clock.ts';
import { ConfigError, loadConfig } from './core/config.ts';
import { DatabaseBusyError, DatabaseUnreachableError, openDatabase } from './core/db.ts';
import { AppError } from './core/errors.ts';
import { migrate } from './core/migrate.ts';
import { buildDeps } from './deps.ts';
import { accountCommands } from './modules/accounts/accounts.cli.ts';
import { catalogCommands } from './modules/catalog/catalog.cli.ts';
import { oauthAppCommands } from './modules/oauth/oauth.cli.ts';

const USAGE = `Usage: fieldhand <command> [options]

Commands:
  serve                                   run the server (what npm start runs)
  migrate                                 apply database migrations
  accounts create --name NAME --admin-email E --admin-password P [--demo]
  accounts list                           every account's id, name and admins
  users reset-password --email E [--password P]   (no --password: a new random one, shown once)
  api-keys create --account ID --env test|live [--name N]
  api-keys revoke --id ID
  catalog export --account ID --env test|live [FILE]   (no FILE: print the catalog)
  catalog import --account ID --env test|live FILE     (see docs/catalog.md)
  oauth-apps create --account ID --env test|live --name N --redirect-uri URI [--redirect-uri URI…]
                    [--public] [--scope S…] [--description D] [--logo FILE]
  oauth-apps list --account ID [--env test|live]
  oauth-apps delete --id CLIENT_ID

Every command prints JSON. Settings come from the environment (see README).`;

const COMMANDS: Record<string, CliCommand> = {
  migrate: {
    options: {},
    run: async (_options, deps) => ({ applied: await deps.database.direct(migrate) }),
  },
  ...accountCommands,
  ...catalogCommands,
  ...oauthAppCommands,
};

const PARSE_ERRORS = new Set([
  'ERR_PARSE_ARGS_UNKNOWN_OPTION',
  'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
  'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL',
]);

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
    if (!command) throw new CliError(`Unknown command: ${name}\n\n${USAGE}`);
    const rest = argv.slice(name.split(' ').length);
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: command.positionals !== undefined,
    });
    const config = loadConfig();
    const db = await openDatabase({
      databaseUrl: config.databaseUrl,
      directUrl: config.databaseDirectUrl,
      preparedStatements: config.databasePreparedStatements,
      dataDir: config.dataDir,
      poolSize: 2,
    });
    // commands print JSON on stdout; anything logged goes to stderr
    const log = pino({ level: config.logLevel }, pino.destination(2));
    const deps = buildDeps({ config, database: db, clock: systemClock, log });
    try {
      const result = await command.run(values as CliOptions, deps, positionals);
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
    if (error instanceof CliError) {
      process.stderr.write(`fieldhand: ${error.message}\n`);
      return error.exitCode;
    }
    const code = (error as { code?: string }).code;
    if (code !== undefined && PARSE_ERRORS.has(code)) {
      process.stderr.write(`fieldhand: ${(error as Error).message}\n`);
      return 2;
    }
    const message =
      error instanceof ConfigError || error instanceof DatabaseBusyError
        ? error.message
        : error instanceof AppError
          ? `${error.message}${error.param ? ` (${error.param})` : ''}`
          : `Unexpected error: ${(error as Error).message}`;
    process.stderr.write(`fieldhand: ${message}\n`);
    return 1;
  }
}
