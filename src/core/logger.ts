// The log's rules, in one place: secrets are redacted, errors are serialised without SQL
// parameters or the values PostgreSQL quotes back, and a failure that repeats (an outage) is
// written at most once per window with a count of the repeats held back.
import type { FastifyBaseLogger } from 'fastify';
import type { LogFn, Logger, LoggerOptions } from 'pino';
import { isDatabaseUnavailable, unavailableReason } from './db.ts';

/** One line per kind of repeated failure per window (CONTRACT §12). */
export const THROTTLE_WINDOW_MS = 10_000;

/**
 * pino settings: secrets never reach the log, whatever a request carries. `pretty` writes
 * through pino-pretty (redaction and the throttle apply before it, in this thread).
 */
export function loggerOptions(level: string, format: 'json' | 'pretty' = 'json'): LoggerOptions {
  return {
    level,
    ...(format === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["idempotency-key"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.client_secret',
        '*.refresh_token',
        '*.access_token',
        '*.card.number',
        '*.card.cvc',
        '*.secret',
      ],
      censor: '[redacted]',
    },
    serializers: { err: serializeError },
    hooks: { logMethod: throttledLogMethod(THROTTLE_WINDOW_MS) },
  };
}

/**
 * An error as logged: its type, message, code and stack, and the same for its causes. Drizzle
 * puts the query's parameters in its message (`params: …`) and on the error; PostgreSQL puts
 * row values in `detail` and, for bad input, in the message. None of that is kept.
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!error || typeof error !== 'object') return { message: String(error) };
  const source = error as Error & { code?: unknown; statusCode?: unknown; cause?: unknown };
  const message = safeMessage(source);
  const serialized: Record<string, unknown> = {
    type: source.name || source.constructor?.name || 'Error',
    message,
  };
  if (typeof source.code === 'string' || typeof source.code === 'number') serialized.code = source.code;
  if (typeof source.statusCode === 'number') serialized.statusCode = source.statusCode;
  if (typeof source.stack === 'string') {
    const frames = source.stack.indexOf('\n    at ');
    serialized.stack = `${serialized.type}: ${message}${frames >= 0 ? source.stack.slice(frames) : ''}`;
  }
  if (source.cause !== undefined && depth < 5) serialized.cause = serializeError(source.cause, depth + 1);
  return serialized;
}

function safeMessage(error: Error & { code?: unknown }): string {
  let message = typeof error.message === 'string' ? error.message : String(error);
  // drizzle: "Failed query: <sql>\nparams: <values>"
  const params = message.indexOf('\nparams:');
  if (params >= 0) message = message.slice(0, params);
  // PostgreSQL data exceptions (class 22) quote the offending value: `…: "value"`
  if (typeof error.code === 'string' && error.code.startsWith('22'))
    message = message.replace(/: ".*"$/s, ': [redacted]');
  return message;
}

/**
 * pino's logMethod hook: a call whose first argument has `throttle: '<kind>'` is written the
 * first time; repeats within the window are counted, and when the window ends with repeats the
 * last one is written with `suppressed: <count>` and a new window starts.
 */
function throttledLogMethod(windowMs: number) {
  const windows = new Map<
    string,
    { opened: number; suppressed: number; latest: { logger: Logger; method: LogFn; args: Parameters<LogFn> } }
  >();
  return function logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn) {
    const fields = args[0];
    const kind =
      fields && typeof fields === 'object' && typeof (fields as { throttle?: unknown }).throttle === 'string'
        ? (fields as { throttle: string }).throttle
        : undefined;
    if (kind === undefined) return method.apply(this, args);
    const open = windows.get(kind);
    if (open) {
      open.suppressed += 1;
      open.latest = { logger: this, method, args };
      return;
    }
    method.apply(this, args);
    const window = { opened: Date.now(), suppressed: 0, latest: { logger: this, method, args } };
    windows.set(kind, window);
    const close = () => {
      // timers may fire a millisecond early by the wall clock the log's times are taken from
      const early = window.opened + windowMs - Date.now();
      if (early > 0) {
        setTimeout(close, early).unref();
        return;
      }
      if (window.suppressed === 0) {
        windows.delete(kind);
        return;
      }
      const { logger, method: write, args: last } = window.latest;
      const [first, ...rest] = last;
      write.apply(logger, [{ ...(first as object), suppressed: window.suppressed }, ...rest] as Parameters<LogFn>);
      window.suppressed = 0;
      window.opened = Date.now();
      setTimeout(close, windowMs).unref();
    };
    setTimeout(close, windowMs).unref();
  };
}

/** Logs a database outage seen by `where` (throttled); a 503 of our own (shutdown) is not logged. */
export function logUnavailable(log: FastifyBaseLogger, where: string, error: unknown): void {
  if (isDatabaseUnavailable(error)) logFailure(log, where, error, 'database unavailable');
}

/**
 * Logs a failure of `where` (a request, a worker): a database outage as one throttled warning
 * per place with its reason (no stack: it says nothing more), anything else as an error.
 */
export function logFailure(
  log: FastifyBaseLogger,
  where: string,
  error: unknown,
  message: string,
  fields: Record<string, unknown> = {},
): void {
  if (isDatabaseUnavailable(error)) {
    log.warn(
      { ...fields, throttle: `database unavailable: ${where}`, reason: unavailableReason(error) },
      `database unavailable (${where})`,
    );
  } else {
    log.error({ ...fields, err: error }, message);
  }
}
