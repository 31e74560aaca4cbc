// Settings > Zones: list, add, edit and archive zones through the catalog's zone services, the
// very functions /v1/zones calls, so a bad time zone or a ZIP another zone serves is judged
// once and shown next to its field.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { formField, formValues, queryValue } from '../../web/forms.ts';
import { bookingsHeldBy } from '../bookings/index.ts';
import { createZone, deleteZone, getZone, industryChoices, listZones, updateZone } from '../catalog/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { PAGE, recordRoute } from './pages.ts';
import { archiveStepPages, numberField, readHours, setupFieldError } from './setup-forms.ts';
import { sendShell } from './shell.ts';
import {
  ARCHIVE_ZONE,
  formValuesOf,
  NEW_ZONE,
  ZONES,
  type ZoneFormValues,
  zoneForm,
  zoneListView,
} from './zones.view.ts';

const ZONE_PAGE = recordRoute('There is no such zone in this environment.');

function postedValues(request: FastifyRequest): ZoneFormValues {
  return {
    name: formField(request, 'name').slice(0, 300),
    timezone: formField(request, 'timezone').trim().slice(0, 100),
    zips: formField(request, 'zips').slice(0, 30_000),
    industries: formValues(request, 'industries').slice(0, 100),
    hours: readHours(request),
    slot_interval_minutes: numberField(request, 'slot_interval_minutes'),
    travel_buffer_minutes: numberField(request, 'travel_buffer_minutes'),
    lead_time_minutes: numberField(request, 'lead_time_minutes'),
    price_adjustment_percent: numberField(request, 'price_adjustment_percent'),
    tax_rate: numberField(request, 'tax_rate'),
    is_active: formField(request, 'is_active') === 'true',
  };
}

/** The form as the zone services take it: the pasted ZIPs as a list, each once. */
function zoneInput(values: ZoneFormValues) {
  const zips = [...new Set(values.zips.split(/[\s,;]+/).filter(Boolean))];
  return { ...values, zips } as unknown as Parameters<typeof createZone>[2];
}

export function zonePages(app: FastifyInstance, deps: Deps): void {
  const formPage = async (
    request: FastifyRequest,
    values: ZoneFormValues,
    options: { zone?: Awaited<ReturnType<typeof getZone>>; error?: ReturnType<typeof setupFieldError> } = {},
  ) => {
    const industries = await industryChoices(deps, sessionTenant(request.session));
    return zoneForm(request.session, values, { ...options, industries });
  };

  app.get(ZONES, PAGE, async (request, reply) => {
    const tenant = sessionTenant(request.session);
    const zones = await listZones(deps, tenant, { page: 1, per_page: 100 });
    const content = zoneListView(zones.data, await industryChoices(deps, tenant), queryValue(request, 'done'));
    return sendShell(request, reply, { title: 'Zones', content });
  });

  app.get(`${ZONES}/new`, PAGE, async (request, reply) =>
    sendShell(request, reply, { title: 'Add zone', content: await formPage(request, NEW_ZONE) }),
  );

  app.post(ZONES, PAGE, async (request, reply) => {
    const values = postedValues(request);
    try {
      await createZone(deps, sessionTenant(request.session), zoneInput(values));
    } catch (error) {
      const content = await formPage(request, values, { error: setupFieldError(error) });
      return sendShell(request, reply, { title: 'Add zone', status: 400, content });
    }
    return reply.redirect(`${ZONES}?done=created`, 303);
  });

  app.get<{ Params: { id: string } }>(`${ZONES}/:id`, ZONE_PAGE, async (request, reply) => {
    const zone = await getZone(deps, sessionTenant(request.session), request.params.id);
    return sendShell(request, reply, {
      title: zone.name,
      content: await formPage(request, formValuesOf(zone), { zone }),
    });
  });

  app.post<{ Params: { id: string } }>(`${ZONES}/:id`, ZONE_PAGE, async (request, reply) => {
    const tenant = sessionTenant(request.session);
    const zone = await getZone(deps, tenant, request.params.id);
    const values = postedValues(request);
    try {
      await updateZone(deps, tenant, zone.id, zoneInput(values));
    } catch (error) {
      const content = await formPage(request, values, { zone, error: setupFieldError(error) });
      return sendShell(request, reply, { title: zone.name, status: 400, content });
    }
    return reply.redirect(`${ZONES}?done=saved`, 303);
  });

  archiveStepPages(app, ZONE_PAGE, {
    ...ARCHIVE_ZONE,
    find: (tenant, id) => getZone(deps, tenant, id),
    archive: (tenant, zone) => deleteZone(deps, tenant, zone.id, bookingsHeldBy),
  });
}
