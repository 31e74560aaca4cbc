import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { created, noContent, ok } from '../../core/http/operation.ts';
import { resourceRoutes } from '../../core/http/resource-routes.ts';
import { routesOf } from '../../core/http/routes.ts';
import { customersExamples } from './customers.examples.ts';
import {
  Address,
  Customer,
  CustomerList,
  CustomerListQuery,
  NewAddressBody,
  NewCustomerBody,
  UpdateCustomerBody,
} from './customers.schemas.ts';
import * as customers from './customers.service.ts';

const tags = ['Customers'];

export function customerRoutes(
  app: FastifyInstance,
  deps: Deps,
  rules: { hasOpenBookings?: customers.OpenBookingsCheck } = {},
) {
  app.addSchema(Address);
  resourceRoutes(app, deps, {
    path: '/v1/customers',
    tags,
    noun: ['customer', 'customers'],
    object: Customer,
    scopes: { read: 'customers:read', write: 'customers:write' },
    list: { query: CustomerListQuery, response: CustomerList, run: customers.listCustomers },
    create: {
      description:
        'Sends the customer an invitation e-mail. E-mail addresses are unique per environment (case-insensitive).',
      body: NewCustomerBody,
      errors: [409],
      errorCodes: ['resource_already_exists'],
      run: customers.createCustomer,
    },
    retrieve: { run: customers.getCustomer },
    update: {
      description:
        '`preferences` merges key by key. Status moves between active and inactive; use deactivate to deactivate.',
      body: UpdateCustomerBody,
      errors: [409],
      errorCodes: ['resource_already_exists'],
      run: customers.updateCustomer,
    },
  });

  const route = routesOf(app, deps, { tags, examples: customersExamples });
  route('POST /v1/customers/:id/deactivate', 'customers:write', {
    operationId: 'deactivateCustomer',
    summary: 'Deactivate a customer',
    description: 'A deactivated customer cannot make new bookings (409 customer_deactivated).',
    response: ok(Type.Ref('Customer')),
    run: customers.deactivateCustomer,
  });

  route('POST /v1/customers/:id/addresses', 'customers:write', {
    operationId: 'createCustomerAddress',
    summary: 'Add an address',
    description:
      'street, city, state and zip are required; label defaults to "Home". The first address, or one sent with is_default true, becomes the default.',
    body: NewAddressBody,
    response: created(Type.Ref('Address')),
    run: customers.addAddress,
  });

  route('DELETE /v1/customers/:id/addresses/:address_id', 'customers:write', {
    operationId: 'deleteCustomerAddress',
    summary: 'Remove an address',
    'x-error-codes': ['address_required'],
    description:
      'When the default goes, the newest remaining address becomes the default. The last address of a customer with open bookings cannot go (409 address_required).',
    response: noContent(409),
    run: (deps, tenant, id, addressId) => customers.removeAddress(deps, tenant, id, addressId, rules.hasOpenBookings),
  });
}
