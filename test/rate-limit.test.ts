import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { createTestAccount, startTestApp, type TestApp } from './helpers/app.ts';
import { openTestDatabase } from './helpers/database.ts';
import { testRedisUrl } from './helpers/env.ts';
import { apiClient } from './helpers/http.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('rate limits', () => {
  it('counts per credential with the limit headers, then answers 429 with Retry-After until the window ends', async () => {
    const clock = new ManualClock('2026-11-22T10:00:01.000Z');
    const t = await startTestApp({ clock, env: { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '10' } });
    apps.push(t);
    const acct = await createTestAccount(t);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await acct.api.get('/v1/customers');
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-22T10:00:10.000Z') / 1000));
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=5;w=10');
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    const limited = await acct.api.get('/v1/customers');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(limited.headers.get('retry-after')).toBe('9');
    expect(limited.headers.get('ratelimit')).toBe('"default";r=0;t=9');

    // another credential has its own budget
    expect((await acct.live.get('/v1/customers')).status).toBe(200);
    // unauthenticated requests are refused before counting
    expect((await apiClient(t.url).get('/v1/customers')).status).toBe(401);

    clock.advance(9_000);
    const next = await acct.api.get('/v1/customers');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it.skipIf(!testRedisUrl())('shares one budget between two instances through Redis', async () => {
    const env = { RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_S: '60', REDIS_URL: testRedisUrl() as string };
    const database = await openTestDatabase();
    // one clock for both, so the window cannot roll over between requests
    const clock = new ManualClock('2026-11-22T10:00:01.000Z');
    const first = await startTestApp({ env, database, clock });
    const second = await startTestApp({ env, database, clock });
    apps.push(first, second, { close: () => database.close() } as TestApp);
    const acct = await createTestAccount(first);
    const viaFirst = apiClient(first.url, acct.testKey);
    const viaSecond = apiClient(second.url, acct.testKey);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await viaFirst.get('/v1/customers')).status);
      statuses.push((await viaSecond.get('/v1/customers')).status);
    }
    // 8 requests, alternating between the instances, against one budget of 6
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });
});
