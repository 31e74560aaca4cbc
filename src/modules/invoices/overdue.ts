// The overdue sweep as a background loop: every instance may run it (rows are claimed with
// SKIP LOCKED), and each invoice is marked, and announced, once.
import type { Deps } from '../../core/deps.ts';
import { type Loop, startLoop } from '../../core/jobs.ts';
import { markOverdueInvoices } from './invoices.service.ts';

const BATCH = 100;

export function startOverdueInvoices(deps: Deps, everyMs = 60_000): Loop {
  return startLoop({
    name: 'overdue-invoices',
    everyMs,
    log: deps.log,
    run: async () => (await markOverdueInvoices(deps, { limit: BATCH })) === BATCH,
  });
}
