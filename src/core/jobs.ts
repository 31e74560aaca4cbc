// Background loops: a named task run every interval, woken early when new work is written,
// stopped cleanly on shutdown. Each task claims its rows in the database (lease or
// FOR UPDATE SKIP LOCKED), so any number of instances can run the same loop.
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, reconnectDelay } from './db.ts';
import { logFailure } from './logger.ts';

export interface Loop {
  /** Runs the task soon, without waiting for the interval. */
  wake(): void;
  /** Waits for a running pass to finish, then stops. */
  stop(): Promise<void>;
}

export interface LoopOptions {
  name: string;
  everyMs: number;
  /** One pass; returns true when there may be more work right away. */
  run: () => Promise<boolean>;
  log: FastifyBaseLogger;
}

export function startLoop({ name, everyMs, run, log }: LoopOptions): Loop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wakeRequested = false;
  /** Passes in a row that found the database unreachable. */
  let outage = 0;

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
    timer.unref?.();
  };

  const tick = () => {
    if (running) {
      wakeRequested = true;
      return;
    }
    running = (async () => {
      let more = false;
      let unavailable = false;
      try {
        more = await run();
        if (outage > 0) log.info({ loop: name, failedPasses: outage }, 'background task reached the database again');
        outage = 0;
      } catch (error) {
        unavailable = isDatabaseUnavailable(error);
        if (unavailable) outage += 1;
        if (!stopped) logFailure(log, name, error, 'background task failed', { loop: name });
      }
      running = undefined;
      const again = more || wakeRequested;
      wakeRequested = false;
      // while the database is away, try again soon (whatever the interval): work resumes within
      // about 2 s of it coming back
      schedule(unavailable ? reconnectDelay(outage) : again ? 0 : everyMs);
    })();
  };

  // the first pass begins now, so a stop right after the start waits for it
  tick();
  return {
    wake: () => schedule(0),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * A background worker: `start()` runs it as a loop, `runOnce()` makes one pass by hand (tests
 * drive workers this way instead of waiting for the loop) and says how much it did.
 */
export interface Worker {
  /** One pass: claims what is due, does it, and returns how many it did. */
  runOnce(): Promise<number>;
  start(): void;
  /** Runs a pass soon, if started. */
  wake(): void;
  /** Waits for a running pass to finish, then stops. */
  stop(): Promise<void>;
}

export interface PassResult {
  done: number;
  /** There may be more work right away. */
  more: boolean;
}

/** A worker whose pass runs in a `startLoop` once started. */
export function loopWorker(options: {
  name: string;
  everyMs: number;
  log: FastifyBaseLogger;
  pass: () => Promise<PassResult>;
}): Worker {
  let loop: Loop | undefined;
  return {
    runOnce: async () => (await options.pass()).done,
    start() {
      loop ??= startLoop({ ...options, run: async () => (await options.pass()).more });
    },
    wake: () => loop?.wake(),
    stop: async () => {
      await loop?.stop();
    },
  };
}
