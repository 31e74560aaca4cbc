// The overdue sweep as a background loop: every instance may run it (rows are claimed with
// SKIP LOCKED), and each invoice is marked, and announced, once.
import type { AppContext } from '../../core/context.ts';
import { type Loop, startLoop } from '../../core/jobs.ts';
import { markOverdueInvoices } from './invoices.service.ts';

const BATCH = 100;

export function startOverdueInvoices(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>, everyMs = 60_000): Loop {
  return startLoop({
    name: 'overdue-invoices',
    everyMs,
    log: ctx.log,
    run: async () => (await markOverdueInvoices(ctx.db, ctx.clock, { limit: BATCH })) === BATCH,
  });
}
