// Background loops: a named task run every interval, woken early when new work is written,
// stopped cleanly on shutdown. Each task claims its rows in the database (lease or
// FOR UPDATE SKIP LOCKED), so any number of instances can run the same loop.
import type { FastifyBaseLogger } from 'fastify';

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
      try {
        more = await run();
      } catch (error) {
        if (!stopped) log.error({ err: error, loop: name }, 'background task failed');
      }
      running = undefined;
      const again = more || wakeRequested;
      wakeRequested = false;
      schedule(again ? 0 : everyMs);
    })();
  };

  schedule(0);
  return {
    wake: () => schedule(0),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
