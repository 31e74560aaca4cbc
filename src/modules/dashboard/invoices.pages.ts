// Invoices: a list filtered by status and issue date, and each invoice with its line items,
// payments and refunds, read through the invoices module's own service functions (the same
// the API answers with, so statuses such as overdue read the same everywhere).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { choiceValue, dateValue, pageNumber } from '../../web/forms.ts';
import { getInvoice, listInvoices } from '../invoices/index.ts';
import { INVOICE_STATUSES, INVOICES, invoiceListView, invoiceTitle, invoiceView } from './invoices.view.ts';
import { listPage, PER_PAGE, recordPage } from './pages.ts';

export function invoicePages(app: FastifyInstance, deps: Deps): void {
  listPage(app, INVOICES, async (request, { tenant, session }) => {
    const filters = {
      status: choiceValue(request, 'status', INVOICE_STATUSES),
      from: dateValue(request, 'from'),
      to: dateValue(request, 'to'),
      page: pageNumber(request),
    };
    const list = await listInvoices(deps, tenant, {
      page: filters.page,
      per_page: PER_PAGE,
      status: filters.status,
      ...(filters.from ? { date_from: filters.from } : {}),
      ...(filters.to ? { date_to: filters.to } : {}),
    });
    return { title: 'Invoices', content: invoiceListView(list, filters, session.environment) };
  });

  recordPage(app, INVOICES, 'There is no such invoice.', async (id, { tenant }) => {
    const invoice = await getInvoice(deps, tenant, id);
    return { title: invoiceTitle(invoice), content: invoiceView(invoice) };
  });
}
