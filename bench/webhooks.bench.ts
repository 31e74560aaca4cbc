// Issues 7 and 16: 10,000 events fanned out to 3 endpoints on a local receiver, on PostgreSQL,
// twice: published as fast as possible (issue 16's target: >= 2,000 deliveries/s; issue 7's was
// 1,000), then paced at 1,000 deliveries/s (issue 7: p99 < 500 ms from commit to arrival). Throughput is deliveries per
// second from the first commit to the last arrival; latency is from each event's commit (as the
// publisher sees it) to its arrival at each endpoint.
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { systemClock } from '../src/core/clock.ts';
import { loadConfig } from '../src/core/config.ts';
import { transaction } from '../src/core/db.ts';
import { buildDeps } from '../src/deps.ts';
import type { EventType } from '../src/modules/events/index.ts';
import { createWebhook } from '../src/modules/webhooks/index.ts';
import { benchAccount, heading, startBenchServer } from './harness.ts';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS || 10_000);
const ENDPOINTS = 3;
const PUBLISHERS = 10;

/** Wall-clock milliseconds with sub-millisecond precision, comparable across threads. */
const now = () => performance.timeOrigin + performance.now();

const RECEIVER = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
let arrivals = [];
setInterval(() => { if (arrivals.length) { parentPort.postMessage(arrivals); arrivals = []; } }, 20).unref();
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrivals.push([String(req.headers['webhook-id']), performance.timeOrigin + performance.now()]);
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage('http://127.0.0.1:' + server.address().port));
`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

interface Round {
  /** Events per second to publish at; unset = as fast as the publishers can. */
  eventsPerSecond?: number;
}

export default async function run(): Promise<void> {
  heading(`webhooks: ${EVENTS} events x ${ENDPOINTS} endpoints on a local receiver, PostgreSQL`);
  let committedAt = new Map<string, number>();
  let latencies: number[] = [];
  let received = 0;
  let lastArrival = 0;
  let done: () => void = () => {};
  // The receiver runs on its own thread, as a real one would run elsewhere: its HTTP work must
  // not share the event loop of the server under test.
  const receiver = new Worker(RECEIVER, { eval: true });
  const receiverUrl = await new Promise<string>((resolve) => receiver.once('message', resolve));
  receiver.on('message', (arrivals: [string, number][]) => {
    for (const [id, at] of arrivals) {
      const committed = committedAt.get(id);
      // the publisher learns of its commit a moment after the worker may; never below zero
      if (committed !== undefined) latencies.push(Math.max(0, at - committed));
      lastArrival = Math.max(lastArrival, at);
    }
    received += arrivals.length;
    if (received >= EVENTS * ENDPOINTS) done();
  });

  const server = await startBenchServer();
  try {
    const account = await benchAccount(server);
    // this process publishes with deps built as the server's are, so events fan out to the
    // endpoints in the publishing transaction; the server process delivers them
    const deps = buildDeps({
      config: loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
      database: server.database,
      clock: systemClock,
      log: pino({ level: 'silent' }),
    });
    for (let i = 0; i < ENDPOINTS; i++) {
      await createWebhook(deps, account.tenant, { url: `${receiverUrl}/endpoint-${i}`, events: ['*'] });
    }
    const types: EventType[] = ['booking.created', 'customer.updated', 'invoice.paid', 'payment.succeeded'];
    const object = { id: 'bk_bench', status: 'confirmed', pricing: { subtotal: 14000, tax: 1120, total: 15120 } };

    const round = async (name: string, options: Round) => {
      committedAt = new Map();
      latencies = [];
      received = 0;
      lastArrival = 0;
      const allArrived = new Promise<void>((resolve) => {
        done = resolve;
      });
      let next = 0;
      const started = now();
      const publisher = async () => {
        while (next < EVENTS) {
          const n = next++;
          if (options.eventsPerSecond) {
            const due = started + (n * 1000) / options.eventsPerSecond;
            if (due > now()) await new Promise((resolve) => setTimeout(resolve, due - now()));
          }
          const id = await transaction(server.database.sql, async (tx) => {
            const event = await deps.events.publish(tx, account.tenant, types[n % types.length]!, object, new Date());
            return event.id;
          });
          committedAt.set(id, now());
        }
      };
      await Promise.all(Array.from({ length: PUBLISHERS }, publisher));
      const published = now();
      await Promise.race([
        allArrived,
        new Promise((_, reject) => setTimeout(() => reject(new Error('deliveries timed out')), 300_000)),
      ]);

      latencies.sort((a, b) => a - b);
      const seconds = (lastArrival - started) / 1000;
      const rate = Math.round((EVENTS * ENDPOINTS) / seconds);
      const p50 = Math.round(percentile(latencies, 50));
      const p99 = Math.round(percentile(latencies, 99));
      console.log(
        `${name}: published ${EVENTS} events in ${((published - started) / 1000).toFixed(1)} s (${PUBLISHERS} publishers)`,
      );
      console.log(
        `${'  deliveries'.padEnd(48)} ${String(rate).padStart(7)} del/s   p50 ${String(p50).padStart(4)} ms   p99 ${String(p99).padStart(4)} ms   (commit -> arrival)`,
      );
      return { rate, p99 };
    };

    // As fast as the publishers go: the throughput, with the latency of the backlog that
    // builds when events are published faster than they are delivered.
    const burst = await round('burst', {});
    // At the target rate (1,000 deliveries/s = 334 events/s to 3 endpoints): the latency an
    // integrator sees when the system keeps up.
    const paced = await round('paced at 1,000 deliveries/s', { eventsPerSecond: Math.ceil(1000 / ENDPOINTS) });
    console.log(
      `targets: >= 2000 deliveries/s ${burst.rate >= 2000 ? 'met' : 'MISSED'} (${burst.rate}), ` +
        `p99 < 500 ms ${paced.p99 < 500 ? 'met' : 'MISSED'} at 1,000/s (${paced.p99} ms; ${burst.p99} ms in the burst)`,
    );
  } finally {
    await server.close();
    await receiver.terminate();
  }
}
