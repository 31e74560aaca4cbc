import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { ok } from '../../core/http/operation.ts';
import { routesOf } from '../../core/http/routes.ts';
import { errors } from '../../core/http/schemas.ts';
import { catalogExamples } from './catalog.examples.ts';
import {
  Availability,
  AvailabilityQuery,
  Category,
  Extra,
  ExtraList,
  Industry,
  IndustryList,
  Pricing,
  PricingBody,
  Product,
  ProductCatalog,
  SlugParams,
} from './catalog.schemas.ts';
import * as catalog from './catalog.service.ts';
import { IndustryListQuery } from './industries.schemas.ts';
import { listIndustries } from './industries.service.ts';

export function catalogRoutes(app: FastifyInstance, deps: Deps) {
  const route = routesOf(app, deps, {
    tags: ['Services'],
    examples: catalogExamples,
    schemas: [Industry, Product, Category, Extra, Availability, Pricing],
  });

  route('GET /v1/services/industries', 'services:read', {
    operationId: 'listIndustries',
    summary: 'List industries',
    description: 'The active industries of this environment; with `include_inactive=true` the inactive ones too.',
    query: IndustryListQuery,
    response: { 200: IndustryList, ...errors(400, 401, 403, 429) },
    run: listIndustries,
  });

  route('GET /v1/services/industries/:slug/products', 'services:read', {
    operationId: 'listIndustryProducts',
    summary: "List an industry's products by category",
    description: "The industry's active products, grouped by their categories in the categories' order.",
    params: SlugParams,
    response: ok(ProductCatalog),
    run: catalog.listProducts,
  });

  route('GET /v1/services/industries/:slug/extras', 'services:read', {
    operationId: 'listIndustryExtras',
    summary: "List an industry's extras",
    description: "The industry's active extras, the add-ons a booking or a price calculation can name.",
    params: SlugParams,
    response: ok(ExtraList),
    run: catalog.listExtras,
  });

  route('GET /v1/services/availability', 'services:read', {
    operationId: 'checkAvailability',
    summary: 'Check availability',
    description:
      "Slots of `duration` minutes on `date` (the zone's local date) in the zone covering `zip` and serving " +
      '`industry`. Outside every zone: zone null and no slots. Times are local to the zone; `starts_at` and ' +
      '`ends_at` are UTC and `starts_at` can be sent as a booking scheduled_at.',
    query: AvailabilityQuery,
    response: ok(Type.Ref('Availability')),
    run: catalog.getAvailability,
  });

  route('POST /v1/services/pricing', 'services:read', {
    operationId: 'calculatePrice',
    summary: 'Calculate a price',
    'x-error-codes': ['invalid_coupon'],
    description:
      'subtotal = base_price + zone_adjustment + extras_total; discount = frequency discount of the subtotal, ' +
      'then the coupon on the rest; tax = round((subtotal - discount) x tax_rate / 100); ' +
      'total = subtotal - discount + tax. A ZIP outside every zone is 400 parameter_invalid (zip); an ' +
      'unusable coupon is 400 invalid_coupon.',
    body: PricingBody,
    response: ok(Type.Ref('Pricing')),
    run: catalog.calculatePrice,
  });
}
