// Catalog setup through the API (CONTRACT §11): industries, categories, products and extras.
// Writes need catalog:write, reads services:read. DELETE archives: the item leaves every list
// and read (404 afterwards) while bookings and invoices that name it keep resolving.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { created, noContent, ok, operation } from '../../core/http/operation.ts';
import { replyNoContent, replyWith } from '../../core/http/replies.ts';
import { SlugParams } from './catalog.schemas.ts';
import {
  CategoryChangesBody,
  CategoryObject,
  ExtraChangesBody,
  ExtraObject,
  IndustryChangesBody,
  ItemParams,
  NewCategoryBody,
  NewExtraBody,
  NewIndustryBody,
  NewProductBody,
  ProductChangesBody,
  ProductObject,
} from './industries.schemas.ts';
import * as industries from './industries.service.ts';
import * as items from './industry-items.service.ts';

const tags = ['Services'];
const SLUGS =
  ' Left out, `slug` is made from the name (lower-case, dashes; -2, -3 … when taken); given, it must be ' +
  'unique within the industry among items not archived (409 resource_already_exists, param slug).';
const POSITION = ' `position` (from 0) places the item in its list; new items go last.';
const ARCHIVES =
  'Archives it: 204, then 404 on every read and gone from lists, availability and prices. Bookings that ' +
  'name it keep their stored price and still read fine.';

export function industryRoutes(app: FastifyInstance, deps: Deps) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const schema of [CategoryObject, ProductObject, ExtraObject]) app.addSchema(schema);
  const industry = Type.Ref('Industry');
  const category = Type.Ref('Category');
  const product = Type.Ref('ProductDetail');
  const extra = Type.Ref('ExtraDetail');

  api.post(
    '/v1/services/industries',
    operation('catalog:write', tags, {
      operationId: 'createIndustry',
      summary: 'Create an industry',
      'x-error-codes': ['resource_already_exists'],
      description:
        'A room_based industry needs `room_products` (its visit, bedroom and bathroom products, created in a ' +
        'category "Rooms"); the other types refuse them. `slug` and `configuration_type` are fixed afterwards.' +
        SLUGS.replace(' within the industry', ' in this environment') +
        POSITION,
      body: NewIndustryBody,
      response: created(industry, 409),
    }),
    async (request, reply) => replyWith(reply, 201, industries.createIndustry(deps, tenantOf(request), request.body)),
  );

  api.patch(
    '/v1/services/industries/:slug',
    operation('catalog:write', tags, {
      operationId: 'updateIndustry',
      summary: 'Update an industry',
      description:
        'Name, description, icon, is_active (inactive industries are not offered) and position. Sending `slug` ' +
        'or `configuration_type` is 400 parameter_invalid: they are fixed after creation.',
      params: SlugParams,
      body: IndustryChangesBody,
      response: ok(industry),
    }),
    async (request) => industries.updateIndustry(deps, tenantOf(request), request.params.slug, request.body),
  );

  api.post(
    '/v1/services/industries/:slug/categories',
    operation('catalog:write', tags, {
      operationId: 'createProductCategory',
      summary: 'Create a product category',
      'x-error-codes': ['resource_already_exists'],
      description: `Inactive industries can be set up too.${SLUGS}${POSITION}`,
      params: SlugParams,
      body: NewCategoryBody,
      response: created(category, 409),
    }),
    async (request, reply) =>
      replyWith(reply, 201, industries.createCategory(deps, tenantOf(request), request.params.slug, request.body)),
  );

  api.patch(
    '/v1/services/categories/:id',
    operation('catalog:write', tags, {
      operationId: 'updateProductCategory',
      summary: 'Update a product category',
      'x-error-codes': ['resource_already_exists'],
      description: `Name, slug and position.${SLUGS}`,
      params: ItemParams,
      body: CategoryChangesBody,
      response: ok(category, 409),
    }),
    async (request) => industries.updateCategory(deps, tenantOf(request), request.params.id, request.body),
  );

  api.delete(
    '/v1/services/categories/:id',
    operation('catalog:write', tags, {
      operationId: 'archiveProductCategory',
      summary: 'Archive a product category',
      'x-error-codes': ['resource_in_use'],
      description: `${ARCHIVES} A category that still has products is 409 resource_in_use naming up to 5 of them.`,
      params: ItemParams,
      response: noContent(409),
    }),
    async (request, reply) =>
      replyNoContent(reply, industries.deleteCategory(deps, tenantOf(request), request.params.id)),
  );

  api.post(
    '/v1/services/industries/:slug/products',
    operation('catalog:write', tags, {
      operationId: 'createProduct',
      summary: 'Create a product',
      'x-error-codes': ['resource_already_exists'],
      description:
        '`category_id` must be a category of this industry (else 400 resource_not_found, param category_id). ' +
        `\`room\` is read-only: only the room products made with a room_based industry have one.${SLUGS}${POSITION}`,
      params: SlugParams,
      body: NewProductBody,
      response: created(product, 409),
    }),
    async (request, reply) =>
      replyWith(reply, 201, items.createProduct(deps, tenantOf(request), request.params.slug, request.body)),
  );

  api.get(
    '/v1/services/products/:id',
    operation('services:read', tags, {
      operationId: 'retrieveProduct',
      summary: 'Retrieve a product',
      description: 'Returns a product by its id, archived or not.',
      params: ItemParams,
      response: ok(product),
    }),
    async (request) => items.getProduct(deps, tenantOf(request), request.params.id),
  );

  api.patch(
    '/v1/services/products/:id',
    operation('catalog:write', tags, {
      operationId: 'updateProduct',
      summary: 'Update a product',
      'x-error-codes': ['resource_already_exists', 'resource_in_use'],
      description:
        'A new `base_price` or `minutes` counts from the next price or availability request; bookings keep ' +
        `their stored price. \`category_id\` moves it to another category of the same industry.${SLUGS}`,
      params: ItemParams,
      body: ProductChangesBody,
      response: ok(product, 409),
    }),
    async (request) => items.updateProduct(deps, tenantOf(request), request.params.id, request.body),
  );

  api.delete(
    '/v1/services/products/:id',
    operation('catalog:write', tags, {
      operationId: 'archiveProduct',
      summary: 'Archive a product',
      'x-error-codes': ['resource_in_use'],
      description: `${ARCHIVES} The visit, bedroom or bathroom product of a room_based industry is 409 resource_in_use.`,
      params: ItemParams,
      response: noContent(409),
    }),
    async (request, reply) => replyNoContent(reply, items.deleteProduct(deps, tenantOf(request), request.params.id)),
  );

  api.post(
    '/v1/services/industries/:slug/extras',
    operation('catalog:write', tags, {
      operationId: 'createExtra',
      summary: 'Create an extra',
      'x-error-codes': ['resource_already_exists'],
      description: `A per_unit extra needs \`unit_label\` (400 parameter_invalid otherwise).${SLUGS}${POSITION}`,
      params: SlugParams,
      body: NewExtraBody,
      response: created(extra, 409),
    }),
    async (request, reply) =>
      replyWith(reply, 201, items.createExtra(deps, tenantOf(request), request.params.slug, request.body)),
  );

  api.get(
    '/v1/services/extras/:id',
    operation('services:read', tags, {
      operationId: 'retrieveExtra',
      summary: 'Retrieve an extra',
      description: 'Returns an extra by its id, archived or not.',
      params: ItemParams,
      response: ok(extra),
    }),
    async (request) => items.getExtra(deps, tenantOf(request), request.params.id),
  );

  api.patch(
    '/v1/services/extras/:id',
    operation('catalog:write', tags, {
      operationId: 'updateExtra',
      summary: 'Update an extra',
      'x-error-codes': ['resource_already_exists'],
      description: `A per_unit extra needs \`unit_label\` after the change too.${SLUGS}`,
      params: ItemParams,
      body: ExtraChangesBody,
      response: ok(extra, 409),
    }),
    async (request) => items.updateExtra(deps, tenantOf(request), request.params.id, request.body),
  );

  api.delete(
    '/v1/services/extras/:id',
    operation('catalog:write', tags, {
      operationId: 'archiveExtra',
      summary: 'Archive an extra',
      description: ARCHIVES,
      params: ItemParams,
      response: noContent(),
    }),
    async (request, reply) => replyNoContent(reply, items.deleteExtra(deps, tenantOf(request), request.params.id)),
  );
}
