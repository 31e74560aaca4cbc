// The log's rules: no SQL parameters or quoted values in serialised errors, and a repeated
// failure kind written once per window with the count of the repeats held back.
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../../test/helpers/database.ts';
import { sql } from './db.ts';
import { loggerOptions, THROTTLE_WINDOW_MS } from './logger.ts';

interface Line {
  msg?: string;
  attempt?: number;
  suppressed?: number;
  err?: { message: string; stack: string; cause?: object };
}

function capture() {
  const lines: Line[] = [];
  const log = pino(loggerOptions('info'), {
    write: (line: string) => {
      lines.push(JSON.parse(line));
    },
  });
  return { log, lines };
}

describe('errors in the log', () => {
  it('keep the query and the driver error, never the parameters or the value PostgreSQL quotes back', async () => {
    const database = await openTestDatabase();
    let failure: unknown;
    try {
      await database.sql.execute(sql`select ${'sk_live_secret_value'}::integer as n`);
    } catch (error) {
      failure = error;
    } finally {
      await database.close();
    }
    expect(String((failure as Error).message)).toContain('sk_live_secret_value');
    const { log, lines } = capture();
    log.error({ err: failure }, 'query failed');
    const text = JSON.stringify(lines);
    expect(text).not.toContain('sk_live_secret_value');
    expect(text).not.toContain('params:');
    expect(lines[0]?.err).toMatchObject({
      message: expect.stringContaining('Failed query: select $1::integer'),
      cause: { code: '22P02', message: 'invalid input syntax for type integer: [redacted]' },
    });
    expect(lines[0]?.err?.stack).toContain('Failed query: select $1::integer');
  });
});

describe('a failure that repeats', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is written once per window, then once more with the count of what was held back', () => {
    vi.useFakeTimers();
    const { log, lines } = capture();
    for (let i = 0; i < 50; i++)
      log.warn({ throttle: 'database unavailable: requests', attempt: i }, 'database unavailable');
    log.warn({ throttle: 'rate limit store unavailable' }, 'rate limit store unavailable');
    expect(lines.map((line) => [line.msg, line.attempt, line.suppressed])).toEqual([
      ['database unavailable', 0, undefined],
      ['rate limit store unavailable', undefined, undefined],
    ]);

    vi.advanceTimersByTime(THROTTLE_WINDOW_MS);
    // the last of the repeats, with how many there were
    expect(lines.slice(2).map((line) => [line.msg, line.attempt, line.suppressed])).toEqual([
      ['database unavailable', 49, 49],
    ]);

    // a quiet window ends the kind's throttling: the next one is written at once
    vi.advanceTimersByTime(THROTTLE_WINDOW_MS);
    expect(lines).toHaveLength(3);
    log.warn({ throttle: 'database unavailable: requests', attempt: 50 }, 'database unavailable');
    expect(lines).toHaveLength(4);
    // lines without a kind are never held back
    log.warn('plain');
    log.warn('plain');
    expect(lines.filter((line) => line.msg === 'plain')).toHaveLength(2);
  });
});
