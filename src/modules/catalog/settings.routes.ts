import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../core/deps.ts';
import { tenantOf } from '../../core/http/auth.ts';
import { ok, operation } from '../../core/http/operation.ts';
import { Settings, UpdateSettingsBody } from './settings.schemas.ts';
import { getSettings, type IssuedInvoices, updateSettings } from './settings.ts';

const tags = ['Settings'];

export function settingsRoutes(app: FastifyInstance, deps: Deps, rules: { issuedInvoices: IssuedInvoices }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Settings);

  api.get(
    '/v1/settings',
    operation('services:read', tags, {
      operationId: 'retrieveSettings',
      summary: "Retrieve the environment's settings",
      description: 'Business details, currency, frequency discounts and cancellation policy of this environment.',
      response: ok(Type.Ref('Settings')),
    }),
    async (request) => getSettings(deps, tenantOf(request)),
  );

  api.patch(
    '/v1/settings',
    operation('catalog:write', tags, {
      operationId: 'updateSettings',
      summary: "Update the environment's settings",
      'x-error-codes': ['resource_in_use'],
      description:
        'Merges key by key, nested objects too (`{"frequency_discounts":{"weekly":25}}` keeps the other three). ' +
        'Discounts and the cancellation policy apply to prices from the next request; bookings keep theirs. ' +
        '`currency` is fixed once the environment has an invoice (409 resource_in_use).',
      body: UpdateSettingsBody,
      response: ok(Type.Ref('Settings'), 409),
    }),
    async (request) => updateSettings(deps, tenantOf(request), request.body, rules.issuedInvoices),
  );
}
