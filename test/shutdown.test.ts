// CONTRACT §12: after SIGTERM, requests still arriving on open connections answer 503 in the
// contract's shape with Request-Id and Connection: close, while the request and the webhook
// delivery in flight finish. And a rate-limit store (Redis) outage is logged once per 10 s, not
// once per request.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { query, sql, transaction } from '../src/core/db.ts';
import { onPostgres } from './helpers/database.ts';
import {
  applicationName,
  backendsOf,
  faultScene,
  faultServerEnv,
  namedDatabaseEnv,
  parseLogs,
} from './helpers/faults.ts';
import { apiClient } from './helpers/http.ts';
import { cleanUpAfterAll, exited, freePort, startServerProcess } from './helpers/processes.ts';
import { waitFor } from './helpers/webhooks.ts';

const cleanups = cleanUpAfterAll();

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** HTTP/1.1 responses read off one socket, in order (each with a Content-Length). */
function parseResponses(data: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine = '', ...headerLines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = end + 4;
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      body: rest.slice(bodyStart, bodyStart + length),
    });
    rest = rest.slice(bodyStart + length);
  }
  return responses;
}

describe.skipIf(!onPostgres())(
  'SIGTERM (PostgreSQL only: a row lock held from the test keeps a request in flight)',
  () => {
    it('answers later requests 503 with Request-Id and Connection: close; the request and delivery in flight finish', async () => {
      // deliveries take 3 s: one is in flight when the signal comes
      const { receiver, database, db, seeded } = await faultScene(cleanups, { receiverDelayMs: 3_000, smtp: false });
      const name = applicationName('sigterm');
      const server = await startServerProcess(faultServerEnv(namedDatabaseEnv(database, name), 4));
      const api = apiClient(server.url, seeded.key);
      const created = await api.post('/v1/customers', {
        first_name: 'Sam',
        last_name: 'Slow',
        email: 'sam@example.com',
      });
      expect(created.status).toBe(201);
      const customerId = created.body.id as string;
      await waitFor(() => receiver.inFlight.size > 0, { timeoutMs: 10_000, what: 'a delivery in flight' });
      const inFlightEvent = [...receiver.inFlight.keys()][0];

      // hold the customer's row, so that a PATCH of it waits in flight
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = transaction(db, async (tx) => {
        await query(tx, sql`select id from customers where id = ${customerId} for update`);
        locked();
        await held;
      });
      await lockTaken;

      let received = '';
      let closed: Promise<void> = Promise.resolve();
      try {
        const { port } = new URL(server.url);
        const socket = net.connect(Number(port), '127.0.0.1');
        socket.setEncoding('utf8').on('data', (chunk: string) => {
          received += chunk;
        });
        closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        const patch = JSON.stringify({ first_name: 'Finished' });
        socket.write(
          `PATCH /v1/customers/${customerId} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${seeded.key}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(patch)}\r\n\r\n${patch}`,
        );
        await waitFor(async () => (await backendsOf(db, name)).some((backend) => backend.wait_event_type === 'Lock'), {
          timeoutMs: 10_000,
          what: 'the PATCH waiting on the lock',
        });

        server.child.kill('SIGTERM');
        await waitFor(() => parseLogs(server.logs).some((line) => line.msg === 'shutting down'), {
          what: 'the server to start shutting down',
        });
        // a request arriving now, on the connection still open (pipelined behind the PATCH)
        socket.write(
          `GET /v1/customers/${customerId} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${seeded.key}\r\n\r\n`,
        );
        await waitFor(
          () =>
            parseLogs(server.logs).some(
              (line) => line.msg === 'incoming request' && (line.req as { method?: string })?.method === 'GET',
            ),
          { what: 'the late request to arrive' },
        );
        expect(server.child.exitCode).toBeNull();

        // the PATCH goes on once the lock is released; then both answers arrive, and the process exits
        release();
        await holder;
        await closed;
        await exited(server.child);
      } finally {
        release();
        await holder;
      }
      const [first, late] = parseResponses(received);
      expect(first?.status).toBe(200);
      expect(JSON.parse(first?.body ?? '{}').first_name).toBe('Finished');
      expect(late?.status).toBe(503);
      expect(JSON.parse(late?.body ?? '{}')).toEqual({
        error: { type: 'api_error', code: 'service_unavailable', message: expect.any(String) },
      });
      expect(late?.headers['request-id']).toMatch(/^req_/);
      expect(late?.headers.connection).toBe('close');
      expect(server.child.exitCode).toBe(0);

      // the delivery in flight at the signal was finished and recorded before the exit
      const deliveries = await query<{ status: string }>(
        db,
        sql`select status from webhook_deliveries where account_id = ${seeded.tenant.accountId}
            and event_id = ${inFlightEvent ?? ''}`,
      );
      expect(deliveries).toEqual([{ status: 'succeeded' }]);
    }, 120_000);
  },
);

describe('a rate-limit store outage', () => {
  it('is logged at most once per 10 s, not once per request', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldhand-redis-down-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    // nothing listens on this port: every counter update fails
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'info',
      RUN_WORKERS: 'false',
    });
    // the first start on an empty embedded database prints its test key
    const keyLine = await waitFor(() => server.logs.find((line) => line.includes('Test API key:')), {
      what: 'the first-run banner',
    });
    const key = /svc_test_sk_\w+/.exec(keyLine)?.[0];
    expect(key).toBeDefined();
    const api = apiClient(server.url, key);
    const startedAt = Date.now();
    const statuses: number[] = [];
    for (let batch = 0; batch < 30; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => api.get('/v1/customers?per_page=1')));
      statuses.push(...answers.map((res) => res.status));
    }
    const endedAt = Date.now();
    // requests are allowed while the store is down
    expect(statuses.every((status) => status === 200)).toBe(true);
    const warnings = parseLogs(server.logs).filter(
      (line) =>
        line.level >= 40 && line.time >= startedAt && line.time <= endedAt && /rate.limit/i.test(line.msg ?? ''),
    );
    console.log(
      `redis down: ${statuses.length} requests in ${endedAt - startedAt} ms, ${warnings.length} warning lines`,
    );
    expect(warnings.length).toBeLessThanOrEqual(Math.ceil((endedAt - startedAt) / 10_000));
  }, 120_000);
});
