// Per-credential fixed-window rate limits. Counters live in this process, or in Redis when
// REDIS_URL is set so that several instances share one budget.
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';

export interface RateLimitStore {
  /** Counts one request in the window and returns the count so far. */
  hit(key: string, windowMs: number): Promise<number>;
  /** Resolves once the store can count (false when it could not connect in time). */
  connect(): Promise<boolean>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private counts = new Map<string, number>();
  private currentWindow = '';

  async hit(key: string): Promise<number> {
    // Keys carry their window start; forget older windows as time moves on.
    const window = key.slice(key.lastIndexOf(':') + 1);
    if (window !== this.currentWindow) {
      for (const stored of this.counts.keys()) {
        if (!stored.endsWith(`:${window}`)) this.counts.delete(stored);
      }
      this.currentWindow = window;
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }

  async connect(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

export class RedisRateLimitStore implements RateLimitStore {
  private redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    this.redis.on('error', () => {}); // reported (throttled) by the hook below; the client reconnects
  }

  async hit(key: string, windowMs: number): Promise<number> {
    const result = await this.redis.multi().incr(key).pexpire(key, windowMs, 'NX').exec();
    const count = result?.[0]?.[1];
    if (typeof count !== 'number') throw new Error('Redis returned no count');
    return count;
  }

  /**
   * Commands fail at once while disconnected (no offline queue, so an outage never stalls
   * requests); waiting for the first connection before serving keeps a fresh instance from
   * letting its first requests through uncounted.
   */
  async connect(timeoutMs = 5000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        resolve(false);
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.redis.once('ready', onReady);
    });
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

export interface RateLimitOptions {
  max: number;
  windowSeconds: number;
  store: RateLimitStore;
  clock: Clock;
}

export function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): void {
  const { max, windowSeconds, store, clock } = options;
  const windowMs = windowSeconds * 1000;
  const policy = `"default";q=${max};w=${windowSeconds}`;

  app.addHook('onReady', async () => {
    if (!(await store.connect()))
      app.log.warn('rate limit store unreachable at start; requests are allowed until it is back');
  });

  // Runs after authentication (hooks run in order), so the budget is the credential's.
  app.addHook('onRequest', async (request, reply) => {
    const principal = request.principal;
    if (!principal) return;
    const now = clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const resetAt = windowStart + windowMs;
    let count: number;
    try {
      count = await store.hit(`fieldhand:rl:${principal.credential.id}:${windowStart}`, windowMs);
    } catch (error) {
      // A rate-limit store outage must not take the API down with it, nor flood the log: one
      // line per 10 s, with a count of the requests let through meanwhile.
      request.log.warn(
        { throttle: 'rate limit store unavailable', reason: (error as Error).message },
        'rate limit store unavailable; requests allowed',
      );
      return;
    }
    const remaining = Math.max(0, max - count);
    const resetSeconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
    reply.header('x-ratelimit-limit', String(max));
    reply.header('x-ratelimit-remaining', String(remaining));
    reply.header('x-ratelimit-reset', String(Math.ceil(resetAt / 1000)));
    reply.header('ratelimit-policy', policy);
    reply.header('ratelimit', `"default";r=${remaining};t=${resetSeconds}`);
    if (count > max) {
      throw new AppError(
        'rate_limit_exceeded',
        `Too many requests: the limit is ${max} per ${windowSeconds} seconds. Retry after ${resetSeconds} seconds.`,
        { headers: { 'retry-after': String(resetSeconds) } },
      );
    }
  });
}
