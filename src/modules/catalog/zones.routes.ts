import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { resourceRoutes } from '../../core/http/resource-routes.ts';
import type { HeldBookings } from './held-bookings.ts';
import { NewZoneBody, UpdateZoneBody, Zone, ZoneList, ZoneListQuery } from './zones.schemas.ts';
import * as zones from './zones.service.ts';

const tags = ['Zones'];
const ZIP_RULE =
  'A ZIP is served for an industry by at most one active zone: a second is 409 resource_already_exists (param zips).';

export function zoneRoutes(app: FastifyInstance, deps: Deps, rules: { heldBookings: HeldBookings }) {
  resourceRoutes(app, deps, {
    path: '/v1/zones',
    tags,
    noun: ['zone', 'zones'],
    object: Zone,
    scopes: { read: 'services:read', write: 'catalog:write' },
    list: { description: 'Newest first.', query: ZoneListQuery, response: ZoneList, run: zones.listZones },
    create: {
      description: `Hours are local to \`timezone\`. ${ZIP_RULE}`,
      body: NewZoneBody,
      errors: [409],
      errorCodes: ['resource_already_exists'],
      run: zones.createZone,
    },
    retrieve: { run: zones.getZone },
    update: {
      description:
        'Fields sent replace the current ones (`zips`, `industries` and `hours` as a whole). Changes apply to ' +
        `slots and prices from the next request on; bookings already made keep their time, price and crew. ${ZIP_RULE}`,
      body: UpdateZoneBody,
      errors: [409],
      errorCodes: ['resource_already_exists', 'resource_in_use'],
      run: zones.updateZone,
    },
    remove: {
      description:
        'Archives the zone: 404 afterwards, gone from lists, availability and pricing; bookings keep its id. A zone ' +
        'with confirmed or in-progress bookings that are not over is 409 resource_in_use naming them.',
      errors: [409],
      errorCodes: ['resource_in_use'],
      run: (deps, tenant, id) => zones.deleteZone(deps, tenant, id, rules.heldBookings),
    },
  });
}
