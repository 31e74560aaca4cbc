// A background loop that finds the database away tries again within 2 s, whatever its interval
// (the overdue sweep runs every minute), and says so once per 10 s rather than once per pass.
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { startLoop } from './jobs.ts';
import { loggerOptions } from './logger.ts';

afterEach(() => {
  vi.useRealTimers();
});

it('retries an unreachable database after 250 ms, 500 ms, 1 s, 2 s…, then keeps its own interval', async () => {
  vi.useFakeTimers();
  const lines: { msg: string; suppressed?: number }[] = [];
  const log = pino(loggerOptions('info'), { write: (line: string) => void lines.push(JSON.parse(line)) });
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const passes: number[] = [];
  let failuresLeft = 5;
  const loop = startLoop({
    name: 'overdue-invoices',
    everyMs: 60_000,
    log: log as unknown as FastifyBaseLogger,
    run: async () => {
      passes.push(Date.now());
      if (failuresLeft-- > 0) throw refused;
      return false;
    },
  });
  await vi.advanceTimersByTimeAsync(0);
  await vi.advanceTimersByTimeAsync(250 + 500 + 1_000 + 2_000 + 2_000);
  const gaps = passes.slice(1).map((at, i) => at - (passes[i] as number));
  expect(gaps).toEqual([250, 500, 1_000, 2_000, 2_000]);
  // back to the minute once the database answers
  await vi.advanceTimersByTimeAsync(59_000);
  expect(passes).toHaveLength(6);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(passes).toHaveLength(7);
  await loop.stop();

  // the first failure at once, the recovery, and when the 10 s window closes the count of the rest
  expect(lines.map((line) => [line.msg, line.suppressed])).toEqual([
    ['database unavailable (overdue-invoices)', undefined],
    ['background task reached the database again', undefined],
    ['database unavailable (overdue-invoices)', 4],
  ]);
});
