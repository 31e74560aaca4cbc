// Invoices: a list filtered by status and issue date, and each invoice with its line items,
// payments and refunds, read through the invoices module's own service functions (the same
// the API answers with, so statuses such as overdue read the same everywhere).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { choiceValue, dateValue, pageNumber } from '../../web/forms.ts';
import { getInvoice, listInvoices } from '../invoices/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { INVOICE_STATUSES, INVOICES, invoiceListView, invoiceTitle, invoiceView } from './invoices.view.ts';
import { sendShell } from './shell.ts';

const PER_PAGE = 25;

export function invoicePages(app: FastifyInstance, deps: Deps): void {
  app.get(INVOICES, { schema: { hide: true } }, async (request, reply) => {
    const filters = {
      status: choiceValue(request, 'status', INVOICE_STATUSES),
      from: dateValue(request, 'from'),
      to: dateValue(request, 'to'),
      page: pageNumber(request),
    };
    const list = await listInvoices(deps, sessionTenant(request.session), {
      page: filters.page,
      per_page: PER_PAGE,
      status: filters.status,
      ...(filters.from ? { date_from: filters.from } : {}),
      ...(filters.to ? { date_to: filters.to } : {}),
    });
    return sendShell(request, reply, {
      title: 'Invoices',
      content: invoiceListView(list, filters, request.session.environment),
    });
  });

  app.get<{ Params: { id: string } }>(
    `${INVOICES}/:id`,
    { schema: { hide: true }, config: { notFound: 'There is no such invoice.' } },
    async (request, reply) => {
      const invoice = await getInvoice(deps, sessionTenant(request.session), request.params.id);
      return sendShell(request, reply, { title: invoiceTitle(invoice), content: invoiceView(invoice) });
    },
  );
}
