import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration from the environment', () => {
  it('has defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      databasePoolSize: 10,
      databaseConnectTimeoutSeconds: 60,
      dataDir: './data',
      rateLimitMax: 100,
      rateLimitWindowSeconds: 10,
      webhookAllowPrivateUrls: false,
      trustProxy: false,
      runWorkers: true,
      databasePreparedStatements: undefined,
    });
  });

  it('takes DATABASE_PREPARED_STATEMENTS as true, false or auto', () => {
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'auto' }).databasePreparedStatements).toBeUndefined();
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: '' }).databasePreparedStatements).toBeUndefined();
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'true' }).databasePreparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'sometimes' })).toThrow(
      'DATABASE_PREPARED_STATEMENTS must be true or false, got "sometimes"',
    );
  });

  it('reads numbers and refuses what is not one, naming the variable', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '8', PORT: '8080' })).toMatchObject({ databasePoolSize: 8, port: 8080 });
    // 0 = one attempt at start, no waiting
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_S: '0' }).databaseConnectTimeoutSeconds).toBe(0);
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_S: '5' }).databaseConnectTimeoutSeconds).toBe(5);
    for (const [name, value] of [
      ['DATABASE_POOL_SIZE', '0'],
      ['DATABASE_POOL_SIZE', 'many'],
      ['RATE_LIMIT_MAX', '-1'],
      ['DATABASE_CONNECT_TIMEOUT_S', '-5'],
      ['DATABASE_CONNECT_TIMEOUT_S', 'forever'],
    ]) {
      expect(() => loadConfig({ [name as string]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [name as string]: value })).toThrow(name as string);
    }
  });

  it('takes migrations and LISTEN straight to the server with DATABASE_DIRECT_URL, else DATABASE_URL', () => {
    const pooled = 'postgres://app:pw@pgbouncer:6432/fieldhand';
    const direct = 'postgres://app:pw@db:5432/fieldhand';
    expect(loadConfig({ DATABASE_URL: pooled }).databaseDirectUrl).toBe(pooled);
    expect(loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct }).databaseDirectUrl).toBe(direct);
    expect(loadConfig({}).databaseDirectUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_DIRECT_URL: direct })).toThrow(
      'DATABASE_DIRECT_URL is set but DATABASE_URL is not',
    );
    // refused without repeating the value, which may hold a password
    const bad = () => loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: 'db:5432 secret' });
    expect(bad).toThrow(ConfigError);
    expect(bad).not.toThrow('secret');
  });
});
