// Entry point of `fieldhand serve`: open the database, migrate, seed a demo account on a new
// embedded database, listen, and shut down gracefully on SIGTERM/SIGINT.
import { pino } from 'pino';
import { buildApp } from './app.ts';
import { systemClock } from './core/clock.ts';
import { type Config, loadConfig } from './core/config.ts';
import { openDatabase } from './core/db.ts';
import { loggerOptions } from './core/logger.ts';
import { migrate } from './core/migrate.ts';
import { seedFirstRun } from './modules/demo/index.ts';

export async function serve(config: Config = loadConfig()): Promise<void> {
  // the app's logger exists only once the database is open; start-up logs with the same settings
  const startupLog = pino(loggerOptions(config.logLevel, config.logFormat));
  const giveUpAt = Date.now() + config.databaseConnectTimeoutSeconds * 1000;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    preparedStatements: config.databasePreparedStatements,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutSeconds * 1000,
    onConnectAttempt: (attempt) => {
      const left = Math.max(0, Math.round((giveUpAt - Date.now()) / 1000));
      startupLog.warn(
        { attempt: attempt.number, reason: attempt.reason, retryInMs: attempt.retryInMs },
        `database not reachable at ${attempt.where} (attempt ${attempt.number}): ${attempt.reason}; ` +
          `trying again for up to ${left} s`,
      );
    },
  });
  // straight to the server: migrations are DDL in one long transaction, not a pooler's business
  await database.direct(migrate);
  const app = await buildApp({ config, database, clock: systemClock });

  const firstRun = config.databaseUrl ? null : await seedFirstRun(app.deps);

  await app.server.listen({ port: config.port, host: config.host });
  if (config.runWorkers) app.startWorkers();

  if (firstRun) {
    const lines = [
      '',
      'Fieldhand is running with a new demo account (embedded database in ' + config.dataDir + ').',
      `  Dashboard:     ${config.baseUrl}/dashboard/login`,
      `  Admin login:   ${firstRun.email} / ${firstRun.password}`,
      `  Account id:    ${firstRun.accountId} (for the CLI's --account)`,
      `  Test API key:  ${firstRun.testKey}`,
      `  API docs:      ${config.baseUrl}/docs`,
      `  Try it:        curl -H "Authorization: Bearer ${firstRun.testKey}" ${config.baseUrl}/v1/customers`,
      'These credentials are shown only now.',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.server.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.server.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
