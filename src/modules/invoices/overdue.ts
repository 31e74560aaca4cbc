// The overdue sweep as a background worker: every instance may run it (rows are claimed with
// SKIP LOCKED), and each invoice is marked, and announced, once.
import type { Deps } from '../../core/deps.ts';
import { loopWorker, type Worker } from '../../core/jobs.ts';
import { markOverdueInvoices } from './invoices.service.ts';

const BATCH = 100;

export function overdueInvoicesWorker(deps: Deps, everyMs = 60_000): Worker {
  return loopWorker({
    name: 'overdue-invoices',
    everyMs,
    log: deps.log,
    pass: async () => {
      const marked = await markOverdueInvoices(deps, { limit: BATCH });
      return { done: marked, more: marked === BATCH };
    },
  });
}
