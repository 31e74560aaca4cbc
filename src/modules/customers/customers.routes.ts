import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { sendList } from '../../core/http/pagination.ts';
import { CommonErrors, errors, IdParams } from '../../core/http/schemas.ts';
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
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Address);
  app.addSchema(Customer);

  api.get(
    '/v1/customers',
    {
      config: { scope: 'customers:read' },
      schema: {
        tags,
        summary: 'List customers',
        querystring: CustomerListQuery,
        response: { 200: CustomerList, ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      const list = await customers.listCustomers(deps, tenantOf(request), request.query);
      return sendList(reply, list, request.query.fields);
    },
  );

  api.post(
    '/v1/customers',
    {
      config: { scope: 'customers:write' },
      schema: {
        tags,
        summary: 'Create a customer',
        description:
          'Sends the customer an invitation e-mail. E-mail addresses are unique per environment (case-insensitive).',
        body: NewCustomerBody,
        response: { 201: Type.Ref('Customer'), ...errors(...CommonErrors, 409) },
      },
    },
    async (request, reply) => {
      const customer = await customers.createCustomer(deps, tenantOf(request), request.body);
      return reply.code(201).send(customer);
    },
  );

  api.get(
    '/v1/customers/:id',
    {
      config: { scope: 'customers:read' },
      schema: {
        tags,
        summary: 'Retrieve a customer',
        params: IdParams('id'),
        response: { 200: Type.Ref('Customer'), ...errors(...CommonErrors) },
      },
    },
    async (request) => customers.getCustomer(deps, tenantOf(request), request.params.id),
  );

  api.patch(
    '/v1/customers/:id',
    {
      config: { scope: 'customers:write' },
      schema: {
        tags,
        summary: 'Update a customer',
        description:
          '`preferences` merges key by key. Status moves between active and inactive; use deactivate to deactivate.',
        params: IdParams('id'),
        body: UpdateCustomerBody,
        response: { 200: Type.Ref('Customer'), ...errors(...CommonErrors, 409) },
      },
    },
    async (request) => customers.updateCustomer(deps, tenantOf(request), request.params.id, request.body),
  );

  api.post(
    '/v1/customers/:id/deactivate',
    {
      config: { scope: 'customers:write' },
      schema: {
        tags,
        summary: 'Deactivate a customer',
        description: 'A deactivated customer cannot make new bookings (409 customer_deactivated).',
        params: IdParams('id'),
        response: { 200: Type.Ref('Customer'), ...errors(...CommonErrors) },
      },
    },
    async (request) => customers.deactivateCustomer(deps, tenantOf(request), request.params.id),
  );

  api.post(
    '/v1/customers/:id/addresses',
    {
      config: { scope: 'customers:write' },
      schema: {
        tags,
        summary: 'Add an address',
        description:
          'street, city, state and zip are required; label defaults to "Home". The first address, or one sent with is_default true, becomes the default.',
        params: IdParams('id'),
        body: NewAddressBody,
        response: { 201: Type.Ref('Address'), ...errors(...CommonErrors) },
      },
    },
    async (request, reply) => {
      const address = await customers.addAddress(deps, tenantOf(request), request.params.id, request.body);
      return reply.code(201).send(address);
    },
  );

  api.delete(
    '/v1/customers/:id/addresses/:address_id',
    {
      config: { scope: 'customers:write' },
      schema: {
        tags,
        summary: 'Remove an address',
        description:
          'When the default goes, the newest remaining address becomes the default. The last address of a customer with open bookings cannot go (409 address_required).',
        params: IdParams('id', 'address_id'),
        response: { 204: Type.Null(), ...errors(...CommonErrors, 409) },
      },
    },
    async (request, reply) => {
      const { id, address_id } = request.params;
      await customers.removeAddress(deps, tenantOf(request), id, address_id, rules.hasOpenBookings);
      return reply.code(204).send(null);
    },
  );
}
