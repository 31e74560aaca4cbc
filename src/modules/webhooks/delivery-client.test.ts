import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryClient } from './delivery-client.ts';
import { nextAttemptAt, parseRetryAfter, RETRY_DELAYS_MS } from './retry-schedule.ts';

let server: http.Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    req.resume();
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/elsewhere' }).end();
    } else if (req.url === '/slow') {
      setTimeout(() => res.writeHead(200).end(), 2_000).unref();
    } else if (req.url === '/busy') {
      res.writeHead(503, { 'retry-after': '30' }).end();
    } else {
      res.writeHead(204).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('DeliveryClient', () => {
  // a generous timeout for the answers that come at once (a loaded CI machine can take a few
  // hundred ms), and a short one only where the timeout itself is under test
  const open = new DeliveryClient({ allowPrivateUrls: true, timeoutMs: 5_000 });
  const impatient = new DeliveryClient({ allowPrivateUrls: true, timeoutMs: 300 });
  afterAll(() => {
    open.close();
    impatient.close();
  });

  it('counts any 2xx as success and reports the response time', async () => {
    const result = await open.post(`${base}/ok`, {}, '{}');
    expect(result).toMatchObject({ ok: true, responseCode: 204, error: null });
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0);
  });

  it('does not follow redirects', async () => {
    const result = await open.post(`${base}/redirect`, {}, '{}');
    expect(result).toMatchObject({ ok: false, responseCode: 302, error: { type: 'http_error' } });
    expect(seen).not.toContain('/elsewhere');
  });

  it('gives up when the whole exchange takes longer than the timeout', async () => {
    const result = await impatient.post(`${base}/slow`, {}, '{}');
    expect(result).toMatchObject({ ok: false, responseCode: null, error: { type: 'timeout' } });
    expect(result.responseTimeMs).toBeLessThan(1_500);
  });

  it('reports Retry-After and connection failures', async () => {
    expect(await open.post(`${base}/busy`, {}, '{}')).toMatchObject({ responseCode: 503, retryAfter: '30' });
    const refused = await open.post('http://127.0.0.1:1/x', {}, '{}');
    expect(refused).toMatchObject({ ok: false, error: { type: 'connection_error' } });
  });

  it('refuses private addresses at delivery unless they are allowed, before connecting', async () => {
    const guarded = new DeliveryClient({ allowPrivateUrls: false, timeoutMs: 1_000 });
    const before = seen.length;
    const port = (server.address() as AddressInfo).port;
    // the https scheme is needed first; then the literal or the resolved address is refused
    expect(await guarded.post(`${base}/ok`, {}, '{}')).toMatchObject({ error: { type: 'unsafe_url' } });
    expect(await guarded.post(`https://127.0.0.1:${port}/ok`, {}, '{}')).toMatchObject({
      error: { type: 'unsafe_url' },
    });
    expect(await guarded.post(`https://[::ffff:127.0.0.1]:${port}/ok`, {}, '{}')).toMatchObject({
      error: { type: 'unsafe_url' },
    });
    // a name: checked by the agent's lookup, on the address it connects to
    expect(await guarded.post(`https://localhost:${port}/ok`, {}, '{}')).toMatchObject({
      error: { type: 'unsafe_url' },
    });
    expect(seen.length).toBe(before);
    guarded.close();
  });
});

describe('retry schedule', () => {
  it('follows the Svix schedule within the jitter, and stops after the seventh retry', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    RETRY_DELAYS_MS.forEach((delay, i) => {
      expect(nextAttemptAt(i + 1, at, { random: () => 0 })?.getTime()).toBe(at.getTime() + delay * 0.9);
      expect(nextAttemptAt(i + 1, at, { random: () => 0.5 })?.getTime()).toBe(at.getTime() + delay);
      expect(nextAttemptAt(i + 1, at, { random: () => 0.999999 })?.getTime()).toBeLessThanOrEqual(
        at.getTime() + delay * 1.1,
      );
    });
    expect(nextAttemptAt(8, at)).toBeNull();
    expect(nextAttemptAt(8, at, { retryAfterMs: 1_000 })).toBeNull();
  });

  it('uses Retry-After instead, in seconds or as a date, within 1 s to 24 h', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', at)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 01:00:00 GMT', at)).toBe(3_600_000);
    expect(parseRetryAfter('soon', at)).toBeNull();
    expect(parseRetryAfter(undefined, at)).toBeNull();
    expect(nextAttemptAt(1, at, { retryAfterMs: 120_000 })?.getTime()).toBe(at.getTime() + 120_000);
    expect(nextAttemptAt(1, at, { retryAfterMs: 0 })?.getTime()).toBe(at.getTime() + 1_000);
    expect(nextAttemptAt(1, at, { retryAfterMs: 10 ** 10 })?.getTime()).toBe(at.getTime() + 24 * 3600_000);
  });
});
