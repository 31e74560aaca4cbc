// @fieldhand/client against a started server: the journey example run as an integrator runs it
// (a child process with FIELDHAND_URL and a test key), then the wrapper's own promises: an
// Idempotency-Key on POSTs kept across retries, 429/503 retried after Retry-After, and
// verifyWebhook on real deliveries. Failures are staged by the client's `fetch` option standing
// in for a proxy between client and server; the server and its database are the real ones.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFieldhandClient, verifyWebhook, WebhookVerificationError } from '../clients/typescript/src/index.ts';
import { ManualClock } from '../src/core/clock.ts';
import { createTestAccount, startTestApp, startWithAccount, type TestAccount, type TestApp } from './helpers/app.ts';
import { type Receiver, startReceiver } from './helpers/webhooks.ts';

let t: TestApp;
let acct: TestAccount;
let receiver: Receiver;
let webhookSecret: string;

beforeAll(async () => {
  ({ t, acct } = await startWithAccount({ workers: false }, { demo: true }));
  receiver = await startReceiver();
  const endpoint = await acct.api.post('/v1/webhooks', { url: `${receiver.url}/hooks`, events: ['*'] });
  expect(endpoint.status).toBe(201);
  webhookSecret = endpoint.body.secret;
  return async () => {
    await receiver.close();
    await t.close();
  };
});

const client = (options: { fetch?: (request: Request) => Promise<Response>; maxRetries?: number } = {}) =>
  createFieldhandClient({ baseUrl: t.url, apiKey: acct.testKey, ...options });

/** Runs `node examples/journey.ts` with the environment an integrator sets; its exit code and output. */
function runExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/journey.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the journey example', () => {
  it('runs availability → price → customer → card → booking → complete → invoice → refund → events', async () => {
    const run = await runExample({ FIELDHAND_URL: t.url, FIELDHAND_API_KEY: acct.testKey });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const steps = Object.fromEntries(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
    );
    expect(Object.keys(steps)).toEqual([
      'price',
      'availability',
      'customer',
      'card',
      'booking',
      'complete',
      'invoice',
      'refund',
      'events',
    ]);
    expect(steps.complete).toBe('completed');
    // Events made in one transaction share their time, so their order within it is not fixed.
    expect(steps.events!.split(', ').sort()).toEqual([
      'booking.completed',
      'booking.created',
      'booking.started',
      'invoice.created',
      'invoice.paid',
      'payment.refunded',
      'payment.succeeded',
    ]);

    // What it printed is what the server now holds.
    const bookingId = steps.booking!.split(' ')[0];
    const booking = (await acct.api.get(`/v1/bookings/${bookingId}`)).body;
    expect(booking).toMatchObject({ status: 'completed', invoices: [{ status: 'paid' }] });
    const invoice = (await acct.api.get(`/v1/invoices/${booking.invoices[0].id}`)).body;
    expect(steps.invoice).toBe(`${invoice.number} paid ${invoice.total} cents`);
    expect(invoice).toMatchObject({
      booking_id: bookingId,
      amount_paid: invoice.total,
      amount_refunded: invoice.total,
    });
    expect(steps.refund).toBe(`${invoice.refunds[0].id} ${invoice.total} cents`);
    expect(steps.customer).toBe(booking.customer.id);
  });

  it('exits non-zero with the API error when a call fails', async () => {
    const run = await runExample({ FIELDHAND_URL: t.url, FIELDHAND_API_KEY: 'svc_test_sk_not_a_key' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^products: HTTP 401 .*"code":"invalid_credentials"/);
  });
});

describe('Idempotency-Key on POSTs', () => {
  it('sends a fresh key on each POST, none on GETs, and keeps one the caller set', async () => {
    const keys: (string | null)[] = [];
    const api = client({
      fetch: (request) => {
        keys.push(request.headers.get('idempotency-key'));
        return fetch(request);
      },
    });
    const body = { first_name: 'Ida', last_name: 'Key', email: `ida-${Date.now()}@example.com` };
    const first = await api.POST('/v1/customers', { body });
    expect(first.response.status).toBe(201);
    await api.GET('/v1/customers/{id}', { params: { path: { id: first.data!.id } } });
    const own = await api.POST('/v1/customers', {
      body: { ...body, email: `ida2-${Date.now()}@example.com` },
      headers: { 'Idempotency-Key': 'caller-chosen-key' },
    });
    expect(own.response.status).toBe(201);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys.slice(1)).toEqual([null, 'caller-chosen-key']);
  });

  it('retries a POST whose answer was lost (503 Retry-After: 1) with the same key: the server replays, one customer', async () => {
    const seen: { key: string | null; at: number }[] = [];
    const api = client({
      // A proxy that forwards the first attempt, then loses the server's answer and says 503.
      fetch: async (request) => {
        seen.push({ key: request.headers.get('idempotency-key'), at: Date.now() });
        const response = await fetch(request);
        if (seen.length > 1) return response;
        await response.arrayBuffer();
        return new Response('{}', { status: 503, headers: { 'Retry-After': '1' } });
      },
    });
    const email = `lost-${Date.now()}@example.com`;
    const created = await api.POST('/v1/customers', { body: { first_name: 'Lo', last_name: 'St', email } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('idempotent-replayed')).toBe('true');
    expect(seen).toHaveLength(2);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(1000);
    const list = await api.GET('/v1/customers', { params: { query: { search: email } } });
    expect(list.data!.data.map((c) => c.id)).toEqual([created.data!.id]);
  });

  it('retries a POST after a network error with the same key, but not a PATCH', async () => {
    let calls = 0;
    const keys: (string | null)[] = [];
    const api = createFieldhandClient({
      baseUrl: t.url,
      apiKey: acct.testKey,
      maxRetryDelayMs: 50,
      // The request reaches the server; the connection drops before the answer.
      fetch: async (request) => {
        calls += 1;
        keys.push(request.headers.get('idempotency-key'));
        const response = await fetch(request);
        if (calls > 1 && request.method !== 'PATCH') return response;
        await response.arrayBuffer();
        throw new TypeError('fetch failed');
      },
    });
    const email = `net-${Date.now()}@example.com`;
    const created = await api.POST('/v1/customers', { body: { first_name: 'Ne', last_name: 'T', email } });
    expect(created.response.status).toBe(201);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    calls = 0;
    await expect(
      api.PATCH('/v1/customers/{id}', { params: { path: { id: created.data!.id } }, body: { first_name: 'Net' } }),
    ).rejects.toThrow('fetch failed');
    expect(calls).toBe(1);
  });
});

describe('429 and Retry-After', () => {
  let limited: TestApp;
  afterAll(() => limited?.close());

  it("waits the server's Retry-After, then succeeds", async () => {
    const clock = new ManualClock('2026-11-22T10:00:00.000Z');
    limited = await startTestApp({ clock, workers: false, env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_S: '1' } });
    const account = await createTestAccount(limited);
    const answers: { status: number; retryAfter: string | null; at: number }[] = [];
    const api = createFieldhandClient({
      baseUrl: limited.url,
      apiKey: account.testKey,
      fetch: async (request) => {
        const response = await fetch(request);
        answers.push({ status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
        // The server's clock is the test's: the window the client waits out ends on it too.
        if (response.status === 429) clock.advance(Number(response.headers.get('retry-after')) * 1000);
        return response;
      },
    });
    expect((await api.GET('/v1/customers')).response.status).toBe(200);
    const second = await api.GET('/v1/customers');
    expect(second.response.status).toBe(200);
    expect(answers.map((a) => [a.status, a.retryAfter])).toEqual([
      [200, null],
      [429, '1'],
      [200, null],
    ]);
    expect(answers[2]!.at - answers[1]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('gives up after maxRetries with the last 429 as the answer', async () => {
    const clock = new ManualClock('2026-11-22T10:00:00.000Z');
    const t2 = await startTestApp({ clock, workers: false, env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_S: '1' } });
    try {
      const account = await createTestAccount(t2);
      let calls = 0;
      const api = createFieldhandClient({
        baseUrl: t2.url,
        apiKey: account.testKey,
        maxRetries: 2,
        maxRetryDelayMs: 10,
        fetch: (request) => {
          calls += 1;
          return fetch(request);
        },
      });
      await api.GET('/v1/customers');
      calls = 0;
      const answer = await api.GET('/v1/customers');
      expect(answer.response.status).toBe(429);
      expect(answer.error).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
      expect(calls).toBe(3);
    } finally {
      await t2.close();
    }
  });
});

describe('verifyWebhook', () => {
  it("accepts the server's real deliveries and refuses tampered ones", async () => {
    // A delivery of its own, so the test stands alone; the ones before it are checked too.
    expect(
      (
        await client().POST('/v1/customers', {
          body: { first_name: 'We', last_name: 'Bhook', email: `hook-${Date.now()}@example.com` },
        })
      ).response.status,
    ).toBe(201);
    await t.app.workers.deliveries.runOnce();
    expect(receiver.received.length).toBeGreaterThan(0);
    for (const delivery of receiver.received) {
      expect(verifyWebhook(webhookSecret, delivery.headers, delivery.body)).toEqual(delivery.json);
    }
    const [delivery] = receiver.received;
    const { headers, body } = delivery!;
    const refused = (h: Record<string, string>, b: string, now?: Date) => () => verifyWebhook(webhookSecret, h, b, now);
    expect(refused(headers, body.replace('"test"', '"live"'))).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32).toString('base64')}`, headers, body)).toThrow(
      WebhookVerificationError,
    );
    expect(refused({ ...headers, 'webhook-id': 'evt_other' }, body)).toThrow(WebhookVerificationError);
    const sentAt = Number(headers['webhook-timestamp']) * 1000;
    expect(refused(headers, body, new Date(sentAt + 6 * 60_000))).toThrow(/too far/);
    expect(verifyWebhook(webhookSecret, new Headers(headers), body, new Date(sentAt + 4 * 60_000))).toEqual(
      delivery!.json,
    );
    // During a rotation two signatures come; one matching is enough.
    const rotated = {
      ...headers,
      'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}`,
    };
    expect(verifyWebhook(webhookSecret, rotated, body)).toEqual(delivery!.json);
  });
});
