// Customers: search and a detail view with addresses and stats, read through the customers
// module's own service functions (the same the API answers with).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { choiceValue, pageNumber, queryValue } from '../../web/forms.ts';
import { getCustomer, listCustomers } from '../customers/index.ts';
import { CUSTOMER_STATUSES, CUSTOMERS, customerListView, customerView, fullName } from './customers.view.ts';
import { listPage, PER_PAGE, recordPage } from './pages.ts';

export function customerPages(app: FastifyInstance, deps: Deps): void {
  listPage(app, CUSTOMERS, async (request, { tenant, session }) => {
    const filters = {
      search: queryValue(request, 'search').trim().slice(0, 200),
      status: choiceValue(request, 'status', CUSTOMER_STATUSES),
      page: pageNumber(request),
    };
    const list = await listCustomers(deps, tenant, {
      page: filters.page,
      per_page: PER_PAGE,
      search: filters.search || undefined,
      status: filters.status,
    });
    return { title: 'Customers', content: customerListView(list, filters, session.environment) };
  });

  recordPage(app, CUSTOMERS, 'There is no such customer.', async (id, { tenant }) => {
    const customer = await getCustomer(deps, tenant, id);
    return { title: fullName(customer), content: customerView(customer) };
  });
}
