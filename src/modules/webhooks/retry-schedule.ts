// When a failed attempt is retried: the Svix schedule, with jitter so that an endpoint coming
// back after an outage is not hit by every retry in the same second.

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before retry n (index n-1) after the first attempt failed: 8 attempts in all. */
export const RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;

/** ±10 % */
export const JITTER = 0.1;

/** An endpoint failing this long without a single success is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;

const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * When to retry after attempt number `attempt` failed, or null when it was the last. A
 * Retry-After (429/503) replaces the scheduled delay; the attempt still counts.
 */
export function nextAttemptAt(
  attempt: number,
  failedAt: Date,
  options: { retryAfterMs?: number | null; random?: () => number } = {},
): Date | null {
  const scheduled = RETRY_DELAYS_MS[attempt - 1];
  if (scheduled === undefined) return null;
  if (options.retryAfterMs != null) {
    const delay = Math.min(Math.max(options.retryAfterMs, SECOND), MAX_RETRY_AFTER_MS);
    return new Date(failedAt.getTime() + delay);
  }
  const random = options.random ?? Math.random;
  const jitter = 1 + (random() * 2 - 1) * JITTER;
  return new Date(failedAt.getTime() + Math.round(scheduled * jitter));
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}
