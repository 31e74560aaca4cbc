// Time-driven webhook behaviour on a ManualClock: rotation overlap, the retry schedule,
// Retry-After, 410 Gone and the 5-day disable. The test moves the clock, then makes the
// delivery worker's pass by hand.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.ts';
import { query, sql } from '../src/core/db.ts';
import { RETRY_DELAYS_MS } from '../src/modules/webhooks/retry-schedule.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from './helpers/app.ts';
import { type Receiver, startReceiver } from './helpers/webhooks.ts';

let t: TestApp;
let receiver: Receiver;
const clock = new ManualClock(new Date());
/** Path → the status (and headers) the receiver answers with. */
const answers = new Map<string, { status: number; headers?: Record<string, string> }>();

beforeAll(async () => {
  receiver = await startReceiver((request) => answers.get(request.path) ?? { status: 200 });
  t = await startTestApp({ clock, workers: false });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const arrivedAt = (path: string) => receiver.received.filter((r) => r.path === path);
/** One pass of the delivery worker: the attempts due by the test's clock, made and recorded. */
const deliverDue = () => t.app.workers.deliveries.runOnce();

async function setup(events: string[] = ['customer.*']) {
  const acct = await createTestAccount(t);
  const path = `/${Math.random()}`;
  const res = await acct.api.post('/v1/webhooks', { url: receiver.url + path, events });
  expect(res.status).toBe(201);
  return { acct, path, endpoint: res.body as { id: string; secret: string } };
}

let emails = 0;
const createCustomer = (acct: TestAccount) =>
  acct.api.post('/v1/customers', { first_name: 'A', last_name: 'B', email: `c${++emails}@example.com` });

async function deliveries(acct: TestAccount, endpointId: string) {
  const res = await acct.api.get(`/v1/webhooks/${endpointId}/deliveries?per_page=100`);
  expect(res.status).toBe(200);
  return res.body.data as {
    id: string;
    attempt: number;
    status: string;
    response_code: number | null;
    error: { type: string; message: string } | null;
    attempted_at: string | null;
    next_attempt_at: string | null;
  }[];
}

/** Makes the due attempts, then lists the endpoint's deliveries, `count` of them finished. */
async function settled(acct: TestAccount, endpointId: string, count: number) {
  await deliverDue();
  const list = await deliveries(acct, endpointId);
  expect(list.filter((d) => d.status !== 'pending').length).toBeGreaterThanOrEqual(count);
  return list;
}

describe('signing during a secret rotation', () => {
  it('sends both signatures for 24 hours after rotate_secret, then only the new one', async () => {
    const { acct, path, endpoint } = await setup();
    const rotated = await acct.api.post(`/v1/webhooks/${endpoint.id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.id).toBe(endpoint.id);

    await createCustomer(acct);
    await deliverDue();
    const during = arrivedAt(path)[0];
    if (!during) throw new Error('not delivered');
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    new Webhook(rotated.body.secret).verify(during.body, during.headers);
    new Webhook(endpoint.secret).verify(during.body, during.headers);

    clock.advance(24 * 3600_000 + 1_000);
    await createCustomer(acct);
    await deliverDue();
    const after = arrivedAt(path)[1];
    if (!after) throw new Error('not delivered');
    const id = after.headers['webhook-id'] ?? '';
    const at = new Date(Number(after.headers['webhook-timestamp']) * 1000);
    expect(after.headers['webhook-signature']).toBe(new Webhook(rotated.body.secret).sign(id, at, after.body));
  });
});

describe('retries', () => {
  it('retries a failing delivery after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (±10 %), then gives up', async () => {
    const { acct, path, endpoint } = await setup();
    answers.set(path, { status: 500 });
    await createCustomer(acct);
    await deliverDue();
    expect(arrivedAt(path)).toHaveLength(1);
    const eventId = arrivedAt(path)[0]?.headers['webhook-id'];

    const delays: number[] = [];
    for (let attempt = 1; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      const list = await settled(acct, endpoint.id, attempt);
      const failed = list.find((d) => d.attempt === attempt);
      expect(failed).toMatchObject({ status: 'failed', response_code: 500, error: { type: 'http_error' } });
      const pending = list.find((d) => d.attempt === attempt + 1);
      expect(pending).toMatchObject({ status: 'pending', attempted_at: null });
      const due = new Date(failed?.next_attempt_at ?? 0).getTime();
      expect(pending?.next_attempt_at).toBe(failed?.next_attempt_at);
      const delay = due - new Date(failed?.attempted_at ?? 0).getTime();
      const scheduled = RETRY_DELAYS_MS[attempt - 1] ?? 0;
      expect(delay).toBeGreaterThanOrEqual(scheduled * 0.9 - 1);
      expect(delay).toBeLessThanOrEqual(scheduled * 1.1 + 1);
      delays.push(delay);

      // not a moment early
      clock.set(new Date(due - 1));
      await deliverDue();
      expect(arrivedAt(path)).toHaveLength(attempt);

      clock.set(new Date(due));
      await deliverDue();
      expect(arrivedAt(path)).toHaveLength(attempt + 1);
      // the same event id on every retry, so the receiver can deduplicate
      expect(arrivedAt(path)[attempt]?.headers['webhook-id']).toBe(eventId);
    }
    expect(delays.some((delay, i) => delay !== RETRY_DELAYS_MS[i])).toBe(true); // jittered

    const final = await settled(acct, endpoint.id, 8);
    expect(final).toHaveLength(8);
    expect(final[0]).toMatchObject({ attempt: 8, status: 'failed', next_attempt_at: null });
    clock.advance(48 * 3600_000);
    await deliverDue();
    expect(arrivedAt(path)).toHaveLength(8);
  });

  it('honours Retry-After on 429 and 503', async () => {
    const { acct, path, endpoint } = await setup();
    answers.set(path, { status: 429, headers: { 'retry-after': '120' } });
    await createCustomer(acct);
    const first = (await settled(acct, endpoint.id, 1)).find((d) => d.attempt === 1);
    expect(first).toMatchObject({ status: 'failed', response_code: 429 });
    expect(new Date(first?.next_attempt_at ?? 0).getTime() - new Date(first?.attempted_at ?? 0).getTime()).toBe(
      120_000,
    );

    const retryAt = new Date(clock.now().getTime() + 3 * 3600_000);
    answers.set(path, { status: 503, headers: { 'retry-after': retryAt.toUTCString() } });
    clock.advance(120_000);
    const list = await settled(acct, endpoint.id, 2);
    const second = list.find((d) => d.attempt === 2);
    expect(second).toMatchObject({ status: 'failed', response_code: 503 });
    expect(Math.abs(new Date(second?.next_attempt_at ?? 0).getTime() - retryAt.getTime())).toBeLessThan(1_000);
  });

  it('disables the endpoint at once on 410 Gone, with no retry', async () => {
    const { acct, path, endpoint } = await setup();
    answers.set(path, { status: 410 });
    await createCustomer(acct);
    const [gone] = await settled(acct, endpoint.id, 1);
    expect(gone).toMatchObject({ status: 'failed', response_code: 410, next_attempt_at: null });
    const webhook = (await acct.api.get(`/v1/webhooks/${endpoint.id}`)).body;
    expect(webhook).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    await createCustomer(acct);
    await deliverDue();
    expect(arrivedAt(path)).toHaveLength(1);
    expect(await deliveries(acct, endpoint.id)).toHaveLength(1);
  });

  it('disables an endpoint failing for 5 days without a success and e-mails the admins', async () => {
    const failing = await setup();
    const recovering = await setup();
    for (const { path } of [failing, recovering]) answers.set(path, { status: 500 });
    await createCustomer(failing.acct);
    await createCustomer(recovering.acct);
    await settled(failing.acct, failing.endpoint.id, 1);
    await settled(recovering.acct, recovering.endpoint.id, 1);

    // day 3: the second endpoint answers once, which ends its failing streak
    clock.advance(3 * 24 * 3600_000);
    answers.set(recovering.path, { status: 200 });
    await createCustomer(recovering.acct);
    await deliverDue();
    expect((await deliveries(recovering.acct, recovering.endpoint.id)).some((d) => d.status === 'succeeded')).toBe(
      true,
    );
    answers.set(recovering.path, { status: 500 });

    // day 5 and a minute: both fail again
    clock.advance(2 * 24 * 3600_000 + 60_000);
    const before = (await deliveries(failing.acct, failing.endpoint.id)).filter((d) => d.status !== 'pending').length;
    await createCustomer(failing.acct);
    await createCustomer(recovering.acct);
    await settled(failing.acct, failing.endpoint.id, before + 1);
    const disabled = (await failing.acct.api.get(`/v1/webhooks/${failing.endpoint.id}`)).body;
    expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });
    expect((await recovering.acct.api.get(`/v1/webhooks/${recovering.endpoint.id}`)).body.status).toBe('active');

    const mails = await query<{ to_address: string; subject: string }>(
      t.database.sql,
      sql`select to_address, subject from emails where account_id = ${failing.acct.accountId} and kind = 'webhook_endpoint_disabled'`,
    );
    expect(mails).toEqual([{ to_address: failing.acct.adminEmail, subject: expect.stringContaining(receiver.url) }]);

    // re-enabled, it starts afresh and receives new events
    answers.set(failing.path, { status: 200 });
    const enabled = await failing.acct.api.patch(`/v1/webhooks/${failing.endpoint.id}`, { status: 'active' });
    expect(enabled.body).toMatchObject({ status: 'active', disabled_reason: null });
    const count = arrivedAt(failing.path).length;
    const created = (await createCustomer(failing.acct)).body;
    await deliverDue();
    expect(arrivedAt(failing.path).some((r) => r.json.data.object.id === created.id)).toBe(true);
    expect(arrivedAt(failing.path).length).toBeGreaterThan(count);
  });
});
