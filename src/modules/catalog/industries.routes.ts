import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { created, noContent, ok } from '../../core/http/operation.ts';
import { routesOf } from '../../core/http/routes.ts';
import { SlugParams } from './catalog.schemas.ts';
import {
  CategoryChangesBody,
  CategoryObject,
  ExtraChangesBody,
  ExtraObject,
  IndustryChangesBody,
  NewCategoryBody,
  NewExtraBody,
  NewIndustryBody,
  NewProductBody,
  ProductChangesBody,
  ProductObject,
} from './industries.schemas.ts';
import * as industries from './industries.service.ts';
import * as items from './industry-items.service.ts';

const SLUGS =
  ' Left out, `slug` is made from the name (lower-case, dashes; -2, -3 … when taken); given, it must be ' +
  'unique within the industry among items not archived (409 resource_already_exists, param slug).';
const POSITION = ' `position` (from 0) places the item in its list; new items go last.';
const ARCHIVES =
  'Archives it: 204, then 404 on every read and gone from lists, availability and prices. Bookings that ' +
  'name it keep their stored price and still read fine.';

export function industryRoutes(app: FastifyInstance, deps: Deps) {
  const route = routesOf(app, deps, { tags: ['Services'], schemas: [CategoryObject, ProductObject, ExtraObject] });
  const industry = Type.Ref('Industry');
  const category = Type.Ref('Category');
  const product = Type.Ref('ProductDetail');
  const extra = Type.Ref('ExtraDetail');

  route('POST /v1/services/industries', 'catalog:write', {
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
    run: industries.createIndustry,
  });

  route('PATCH /v1/services/industries/:slug', 'catalog:write', {
    operationId: 'updateIndustry',
    summary: 'Update an industry',
    description:
      'Name, description, icon, is_active (inactive industries are not offered) and position. Sending `slug` ' +
      'or `configuration_type` is 400 parameter_invalid: they are fixed after creation.',
    params: SlugParams,
    body: IndustryChangesBody,
    response: ok(industry),
    run: industries.updateIndustry,
  });

  route('POST /v1/services/industries/:slug/categories', 'catalog:write', {
    operationId: 'createProductCategory',
    summary: 'Create a product category',
    'x-error-codes': ['resource_already_exists'],
    description: `Inactive industries can be set up too.${SLUGS}${POSITION}`,
    params: SlugParams,
    body: NewCategoryBody,
    response: created(category, 409),
    run: industries.createCategory,
  });

  route('PATCH /v1/services/categories/:id', 'catalog:write', {
    operationId: 'updateProductCategory',
    summary: 'Update a product category',
    'x-error-codes': ['resource_already_exists'],
    description: `Name, slug and position.${SLUGS}`,
    body: CategoryChangesBody,
    response: ok(category, 409),
    run: industries.updateCategory,
  });

  route('DELETE /v1/services/categories/:id', 'catalog:write', {
    operationId: 'archiveProductCategory',
    summary: 'Archive a product category',
    'x-error-codes': ['resource_in_use'],
    description: `${ARCHIVES} A category that still has products is 409 resource_in_use naming up to 5 of them.`,
    response: noContent(409),
    run: industries.deleteCategory,
  });

  route('POST /v1/services/industries/:slug/products', 'catalog:write', {
    operationId: 'createProduct',
    summary: 'Create a product',
    'x-error-codes': ['resource_already_exists'],
    description:
      '`category_id` must be a category of this industry (else 400 resource_not_found, param category_id). ' +
      `\`room\` is read-only: only the room products made with a room_based industry have one.${SLUGS}${POSITION}`,
    params: SlugParams,
    body: NewProductBody,
    response: created(product, 409),
    run: items.createProduct,
  });

  route('GET /v1/services/products/:id', 'services:read', {
    operationId: 'retrieveProduct',
    summary: 'Retrieve a product',
    description: 'Returns a product by its id, archived or not.',
    response: ok(product),
    run: items.getProduct,
  });

  route('PATCH /v1/services/products/:id', 'catalog:write', {
    operationId: 'updateProduct',
    summary: 'Update a product',
    'x-error-codes': ['resource_already_exists', 'resource_in_use'],
    description:
      'A new `base_price` or `minutes` counts from the next price or availability request; bookings keep ' +
      `their stored price. \`category_id\` moves it to another category of the same industry.${SLUGS}`,
    body: ProductChangesBody,
    response: ok(product, 409),
    run: items.updateProduct,
  });

  route('DELETE /v1/services/products/:id', 'catalog:write', {
    operationId: 'archiveProduct',
    summary: 'Archive a product',
    'x-error-codes': ['resource_in_use'],
    description: `${ARCHIVES} The visit, bedroom or bathroom product of a room_based industry is 409 resource_in_use.`,
    response: noContent(409),
    run: items.deleteProduct,
  });

  route('POST /v1/services/industries/:slug/extras', 'catalog:write', {
    operationId: 'createExtra',
    summary: 'Create an extra',
    'x-error-codes': ['resource_already_exists'],
    description: `A per_unit extra needs \`unit_label\` (400 parameter_invalid otherwise).${SLUGS}${POSITION}`,
    params: SlugParams,
    body: NewExtraBody,
    response: created(extra, 409),
    run: items.createExtra,
  });

  route('GET /v1/services/extras/:id', 'services:read', {
    operationId: 'retrieveExtra',
    summary: 'Retrieve an extra',
    description: 'Returns an extra by its id, archived or not.',
    response: ok(extra),
    run: items.getExtra,
  });

  route('PATCH /v1/services/extras/:id', 'catalog:write', {
    operationId: 'updateExtra',
    summary: 'Update an extra',
    'x-error-codes': ['resource_already_exists'],
    description: `A per_unit extra needs \`unit_label\` after the change too.${SLUGS}`,
    body: ExtraChangesBody,
    response: ok(extra, 409),
    run: items.updateExtra,
  });

  route('DELETE /v1/services/extras/:id', 'catalog:write', {
    operationId: 'archiveExtra',
    summary: 'Archive an extra',
    description: ARCHIVES,
    response: noContent(),
    run: items.deleteExtra,
  });
}
