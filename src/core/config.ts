// The only place that reads process.env: every setting has a name, a default and a check.

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  authUrl: string;
  databaseUrl: string | undefined;
  /**
   * The PostgreSQL server itself, for what needs a session (migrations, LISTEN) when
   * DATABASE_URL goes through PgBouncer in transaction mode; DATABASE_URL unless set.
   */
  databaseDirectUrl: string | undefined;
  /** Connections this instance keeps to PostgreSQL (DATABASE_URL only). */
  databasePoolSize: number;
  /** DATABASE_PREPARED_STATEMENTS: true, false, or undefined for auto (off when DATABASE_DIRECT_URL differs). */
  databasePreparedStatements: boolean | undefined;
  /** How long `serve` keeps trying to reach PostgreSQL at start before it gives up. */
  databaseConnectTimeoutSeconds: number;
  dataDir: string;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  emailFrom: string;
  webhookAllowPrivateUrls: boolean;
  logLevel: string;
  /** `pretty` (pino-pretty, for people) or `json` (one object a line, for machines). */
  logFormat: 'json' | 'pretty';
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  corsOrigins: string[];
  /**
   * Whose X-Forwarded-* headers to believe (Fastify's trustProxy): false, true (any peer), or
   * comma-separated addresses/CIDRs of the proxies.
   */
  trustProxy: boolean | string;
  /** Start background workers (webhook delivery, e-mail, overdue invoices) in this process. */
  runWorkers: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** A boolean setting whose default (unset, empty or "auto") is decided where it is used. */
function automatic(env: Env, name: string): boolean | undefined {
  const raw = env[name]?.trim().toLowerCase();
  return raw === undefined || raw === '' || raw === 'auto' ? undefined : boolean(env, name, false);
}

function trustProxy(env: Env): boolean | string {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (/^[0-9a-fA-F.:/, ]+$/.test(raw)) return raw;
  throw new ConfigError(`TRUST_PROXY must be true, false or the proxies' addresses, got "${raw}"`);
}

function databaseDirectUrl(env: Env): string | undefined {
  const raw = env.DATABASE_DIRECT_URL || undefined;
  if (raw === undefined) return env.DATABASE_URL || undefined;
  // a direct URL alone would leave the pool on the embedded database: surely a mistake
  if (!env.DATABASE_URL) throw new ConfigError('DATABASE_DIRECT_URL is set but DATABASE_URL is not');
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError('DATABASE_DIRECT_URL must be a postgres:// URL');
  }
  return raw;
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  try {
    return new URL(raw).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${raw}"`);
  }
}

/** LOG_FORMAT, or by default human-readable lines in a terminal and JSON lines otherwise. */
export function logFormat(env: Env, stdoutIsTerminal: boolean): 'json' | 'pretty' {
  const value = env.LOG_FORMAT || (stdoutIsTerminal ? 'pretty' : 'json');
  if (value !== 'json' && value !== 'pretty') {
    throw new ConfigError(`LOG_FORMAT must be "json" or "pretty", got "${value}"`);
  }
  return value;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000);
  const baseUrl = url(env, 'BASE_URL', `http://localhost:${port}`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl,
    authUrl: url(env, 'AUTH_URL', baseUrl),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: databaseDirectUrl(env),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1),
    databasePreparedStatements: automatic(env, 'DATABASE_PREPARED_STATEMENTS'),
    databaseConnectTimeoutSeconds: integer(env, 'DATABASE_CONNECT_TIMEOUT_S', 60),
    dataDir: env.DATA_DIR || './data',
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    emailFrom: env.EMAIL_FROM || 'Fieldhand <no-reply@fieldhand.local>',
    webhookAllowPrivateUrls: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormat(env, process.stdout.isTTY === true),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 100, 1),
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_S', 10, 1),
    corsOrigins: (env.CORS_ORIGINS || '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    runWorkers: boolean(env, 'RUN_WORKERS', true),
    trustProxy: trustProxy(env),
  };
}

/** Test settings live here too, so that nothing else reads the environment. */
export function testDatabaseUrl(env: Env = process.env): string | undefined {
  return env.TEST_DATABASE_URL || undefined;
}

/** The same server as TEST_DATABASE_URL without PgBouncer in between, when the run goes through one. */
export function testDatabaseDirectUrl(env: Env = process.env): string | undefined {
  return env.TEST_DATABASE_DIRECT_URL || undefined;
}
