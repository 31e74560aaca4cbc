// Customers: search and a detail view with addresses and stats, read through the customers
// module's own service functions (the same the API answers with).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { choiceValue, pageNumber, queryValue } from '../../web/forms.ts';
import { getCustomer, listCustomers } from '../customers/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { CUSTOMER_STATUSES, CUSTOMERS, customerListView, customerView, fullName } from './customers.view.ts';
import { sendShell } from './shell.ts';

const PER_PAGE = 25;

export function customerPages(app: FastifyInstance, deps: Deps): void {
  app.get(CUSTOMERS, { schema: { hide: true } }, async (request, reply) => {
    const filters = {
      search: queryValue(request, 'search').trim().slice(0, 200),
      status: choiceValue(request, 'status', CUSTOMER_STATUSES),
      page: pageNumber(request),
    };
    const list = await listCustomers(deps, sessionTenant(request.session), {
      page: filters.page,
      per_page: PER_PAGE,
      search: filters.search || undefined,
      status: filters.status,
    });
    return sendShell(request, reply, {
      title: 'Customers',
      content: customerListView(list, filters, request.session.environment),
    });
  });

  app.get<{ Params: { id: string } }>(
    `${CUSTOMERS}/:id`,
    { schema: { hide: true }, config: { notFound: 'There is no such customer.' } },
    async (request, reply) => {
      const customer = await getCustomer(deps, sessionTenant(request.session), request.params.id);
      return sendShell(request, reply, { title: fullName(customer), content: customerView(customer) });
    },
  );
}
