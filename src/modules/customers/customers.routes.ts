import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { documentExamples } from '../../core/http/openapi.ts';
import { created, noContent, ok, operation } from '../../core/http/operation.ts';
import { replyNoContent, replyWith } from '../../core/http/replies.ts';
import { resourceRoutes } from '../../core/http/resource-routes.ts';
import { IdParams } from '../../core/http/schemas.ts';
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
  documentExamples(app, customersExamples);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
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

  api.post(
    '/v1/customers/:id/deactivate',
    operation('customers:write', tags, {
      operationId: 'deactivateCustomer',
      summary: 'Deactivate a customer',
      description: 'A deactivated customer cannot make new bookings (409 customer_deactivated).',
      params: IdParams('id'),
      response: ok(Type.Ref('Customer')),
    }),
    async (request) => customers.deactivateCustomer(deps, tenantOf(request), request.params.id),
  );

  api.post(
    '/v1/customers/:id/addresses',
    operation('customers:write', tags, {
      operationId: 'createCustomerAddress',
      summary: 'Add an address',
      description:
        'street, city, state and zip are required; label defaults to "Home". The first address, or one sent with is_default true, becomes the default.',
      params: IdParams('id'),
      body: NewAddressBody,
      response: created(Type.Ref('Address')),
    }),
    async (request, reply) =>
      replyWith(reply, 201, customers.addAddress(deps, tenantOf(request), request.params.id, request.body)),
  );

  api.delete(
    '/v1/customers/:id/addresses/:address_id',
    operation('customers:write', tags, {
      operationId: 'deleteCustomerAddress',
      summary: 'Remove an address',
      'x-error-codes': ['address_required'],
      description:
        'When the default goes, the newest remaining address becomes the default. The last address of a customer with open bookings cannot go (409 address_required).',
      params: IdParams('id', 'address_id'),
      response: noContent(409),
    }),
    async (request, reply) => {
      const { id, address_id } = request.params;
      return replyNoContent(
        reply,
        customers.removeAddress(deps, tenantOf(request), id, address_id, rules.hasOpenBookings),
      );
    },
  );
}
