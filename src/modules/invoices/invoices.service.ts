// Reading invoices and moving them along: finalize (a draft gets its number), void, and the
// overdue sweep. How an invoice comes to be is create-invoice.service.ts; money taken and
// given back is collection.service.ts.
import { periodEnd, periodStart, utcDay } from '../../core/dates.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, notFound } from '../../core/errors.ts';
import { mergeMetadata, metadataFilter } from '../../core/metadata.ts';
import { pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import { businessProfile } from '../catalog/index.ts';
import { invoicePayments } from '../payments/index.ts';
import { queueInvoiceEmail } from './invoice-email.ts';
import * as repository from './invoices.repository.ts';
import type {
  CustomerInvoiceListQuery,
  FinalizeBody,
  InvoiceListQuery,
  InvoiceView,
  UpdateInvoiceBody,
  VoidBody,
} from './invoices.schemas.ts';
import { effectiveStatus, invoiceView } from './invoices.views.ts';

export async function requireInvoice(deps: Deps, tenant: Tenant, id: string, options: { forUpdate?: boolean } = {}) {
  return found(await repository.findInvoice(deps.db, tenant, id, options), 'invoice', id);
}

/** The invoice as the API returns it (with deps bound to a transaction: as that transaction sees it). */
export async function getInvoice(deps: Deps, tenant: Tenant, id: string): Promise<InvoiceView> {
  const row = await requireInvoice(deps, tenant, id);
  const { payments, refunds } = await invoicePayments(deps, tenant, [id]);
  return invoiceView(row, payments, refunds, deps.clock.now());
}

export async function finalizeInvoice(
  deps: Deps,
  tenant: Tenant,
  id: string,
  input: FinalizeBody,
): Promise<InvoiceView> {
  const now = deps.clock.now();
  const invoice = await inTransaction(deps, async (deps) => {
    const row = await requireInvoice(deps, tenant, id, { forUpdate: true });
    if (row.status !== 'draft') {
      throw new AppError('invalid_state_transition', `Only a draft can be finalized; this invoice is ${row.status}.`);
    }
    const zeroTotal = row.total === 0;
    await repository.numberInvoice(
      deps.db,
      tenant,
      id,
      { status: zeroTotal ? 'paid' : 'pending', issued_at: now, paid_at: zeroTotal ? now : undefined },
      now,
    );
    const view = await getInvoice(deps, tenant, id);
    await deps.events.publishAll(
      deps.db,
      tenant,
      [
        { type: 'invoice.finalized', object: view },
        ...(zeroTotal ? [{ type: 'invoice.paid' as const, object: view }] : []),
      ],
      now,
    );
    if (input.send_email ?? row.send_email) {
      await queueInvoiceEmail(deps, tenant, view, (await businessProfile(deps, tenant)).name);
    }
    return view;
  });
  deps.mailer.wake();
  return invoice;
}

/**
 * PATCH: the invoice's metadata, in any status (it is the integrator's, not the bill's). No event
 * names this change (CONTRACT §8 has no invoice.updated); later events carry the new metadata.
 */
export async function updateInvoice(
  deps: Deps,
  tenant: Tenant,
  id: string,
  input: UpdateInvoiceBody,
): Promise<InvoiceView> {
  const now = deps.clock.now();
  return inTransaction(deps, async (deps) => {
    const row = await requireInvoice(deps, tenant, id, { forUpdate: true });
    if (input.metadata !== undefined) {
      const metadata = mergeMetadata(row.metadata, input.metadata);
      await repository.updateInvoice(deps.db, tenant, id, { metadata }, now);
    }
    return getInvoice(deps, tenant, id);
  });
}

export async function voidInvoice(deps: Deps, tenant: Tenant, id: string, input: VoidBody): Promise<InvoiceView> {
  const now = deps.clock.now();
  return inTransaction(deps, async (deps) => {
    const row = await requireInvoice(deps, tenant, id, { forUpdate: true });
    if (row.status === 'void') throw new AppError('invalid_state_transition', 'This invoice is already void.');
    if (row.status === 'paid' || row.amount_paid > 0) {
      throw new AppError(
        'invoice_already_paid',
        'Money was collected on this invoice, so it cannot be voided; refund it instead.',
      );
    }
    // Charges capture at once, so there is no authorisation to release.
    await repository.updateInvoice(
      deps.db,
      tenant,
      id,
      { status: 'void', voided_at: now, void_reason: input.reason ?? null },
      now,
    );
    const view = await getInvoice(deps, tenant, id);
    await deps.events.publish(deps.db, tenant, 'invoice.voided', view, now);
    return view;
  });
}

export async function listInvoices(
  deps: Deps,
  tenant: Tenant,
  query: InvoiceListQuery | (CustomerInvoiceListQuery & { customer_id?: string }),
) {
  const now = deps.clock.now();
  const page = pageRequest(query);
  const filters = {
    status: query.status,
    customerId: query.customer_id,
    issuedFrom: periodStart(query.date_from),
    issuedBefore: periodEnd(query.date_to),
    minTotal: query.min_amount,
    maxTotal: query.max_amount,
    ids: parseIds(query.ids, 'inv'),
    metadata: metadataFilter(query),
  };
  const found = await repository.listInvoices(deps.db, tenant, filters, page, utcDay(now));
  const { payments, refunds } = await invoicePayments(
    deps,
    tenant,
    found.rows.map((row) => row.id),
  );
  return pageOf(page, found, (row) => invoiceView(row, payments, refunds, now));
}

export async function listCustomerInvoices(
  deps: Deps,
  tenant: Tenant,
  customerId: string,
  query: CustomerInvoiceListQuery,
) {
  if (!(await repository.findInvoiceParty(deps.db, tenant, customerId))) throw notFound('customer', customerId);
  return listInvoices(deps, tenant, { ...query, customer_id: customerId });
}

/**
 * One pass of the overdue sweep: persists `overdue` for pending invoices past due and
 * publishes invoice.overdue once per invoice. Returns how many it marked. `accountId` limits
 * the sweep to one account.
 */
/** Ids of invoices of the environment (up to 5): while there are any, its currency is fixed. */
export function issuedInvoiceIds(deps: Deps, tenant: Tenant): Promise<string[]> {
  return repository.findInvoiceIds(deps.db, tenant, 5);
}

export async function markOverdueInvoices(
  deps: Deps,
  options: { limit?: number; accountId?: string } = {},
): Promise<number> {
  const now = deps.clock.now();
  return inTransaction(deps, async (deps) => {
    const marked = await repository.markOverdue(deps.db, utcDay(now), now, options.limit ?? 100, options.accountId);
    for (const invoice of marked) {
      const tenant: Tenant = { accountId: invoice.account_id, environment: invoice.environment };
      await deps.events.publish(deps.db, tenant, 'invoice.overdue', await getInvoice(deps, tenant, invoice.id), now);
    }
    return marked.length;
  });
}

/** A booking's invoice references, as GET /v1/bookings/:id shows them. */
export async function bookingInvoices(deps: Deps, tenant: Tenant, bookingId: string) {
  const now = deps.clock.now();
  const rows = await repository.listBookingInvoices(deps.db, tenant, bookingId);
  return rows.map((row) => ({ id: row.id, number: row.number, status: effectiveStatus(row, now), total: row.total }));
}
