// Helpers for the webhook tests: a local receiver (plain http on 127.0.0.1, allowed by
// WEBHOOK_ALLOW_PRIVATE_URLS in tests), and polling.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  json: { id: string; type: string; test: boolean; environment: string; timestamp: string; data: { object: any } };
  path: string;
  at: number;
}

export type Responder = (request: Received) => { status: number; headers?: Record<string, string>; delayMs?: number };

export interface Receiver {
  url: string;
  received: Received[];
  respond: Responder;
  /** Requests being answered right now, by webhook-id. */
  inFlight: Map<string, number>;
  /** Ids that arrived while a request with the same id was still being answered. */
  overlaps: string[];
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    respond,
    inFlight: new Map(),
    overlaps: [],
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : (value ?? ''),
        ]),
      );
      const entry: Received = { headers, body, json: JSON.parse(body), path: req.url ?? '/', at: Date.now() };
      const id = headers['webhook-id'] ?? '';
      if (receiver.inFlight.has(id)) receiver.overlaps.push(id);
      receiver.inFlight.set(id, (receiver.inFlight.get(id) ?? 0) + 1);
      receiver.received.push(entry);
      const answer = receiver.respond(entry);
      const send = () => {
        const left = (receiver.inFlight.get(id) ?? 1) - 1;
        if (left === 0) receiver.inFlight.delete(id);
        else receiver.inFlight.set(id, left);
        res.writeHead(answer.status, answer.headers);
        res.end('ok');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/**
 * Polls `check` with real sleeps. Only for tests about real background behaviour (separate
 * processes, LISTEN wake-ups, outages); the others drive the workers with `runOnce()`.
 */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 10_000, everyMs = 20, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
