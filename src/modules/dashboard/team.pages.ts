// Settings > Team: crew members (zones, industries, hours, status) and each member's time off,
// through the catalog's staff services, the very functions /v1/staff calls. A change that would
// strand a booking is refused there and shown next to the field it is about.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isCalendarDate } from '../../core/dates.ts';
import type { Deps } from '../../core/deps.ts';
import { invalidParameter } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import { type FieldError, formField, formValues, queryValue } from '../../web/forms.ts';
import { html } from '../../web/html.ts';
import { instantOf, minutesOfDay } from '../availability/index.ts';
import { bookingsHeldBy } from '../bookings/index.ts';
import {
  createStaff,
  createTimeOff,
  deleteStaff,
  deleteTimeOff,
  getStaff,
  industryChoices,
  listStaff,
  listTimeOff,
  listZones,
  type StaffView,
  updateStaff,
} from '../catalog/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { PAGE, type RecordRequest, recordRoute } from './pages.ts';
import { archiveStepPages, readHours, setupFieldError } from './setup-forms.ts';
import { pageHeader, sendShell } from './shell.ts';
import {
  doneMessage,
  type MemberFormValues,
  memberForm,
  memberValuesOf,
  NEW_MEMBER,
  REMOVE_MEMBER,
  TEAM,
  type TeamChoices,
  teamListView,
} from './team.view.ts';
import {
  type MemberClock,
  NEW_TIME_OFF,
  removeTimeOffView,
  type TimeOffFormValues,
  timeOffSection,
} from './time-off.view.ts';

const MEMBER_PAGE = recordRoute('There is no such crew member in this environment.');

function postedMember(request: FastifyRequest): MemberFormValues {
  return {
    name: formField(request, 'name').slice(0, 300),
    email: formField(request, 'email').trim().slice(0, 300),
    phone: formField(request, 'phone').trim().slice(0, 100),
    zones: formValues(request, 'zones').slice(0, 100),
    industries: formValues(request, 'industries').slice(0, 100),
    hours: readHours(request),
    status: formField(request, 'status'),
  };
}

function memberInput(values: MemberFormValues) {
  return { ...values, email: values.email || null, phone: values.phone || null } as unknown as Parameters<
    typeof createStaff
  >[2];
}

async function choicesFor(deps: Deps, tenant: Tenant): Promise<TeamChoices> {
  const zones = await listZones(deps, tenant, { page: 1, per_page: 100 });
  return { zones: zones.data, industries: await industryChoices(deps, tenant) };
}

/** The member's first zone's clock: their time off is typed and shown in it. */
function clockOf(member: StaffView, choices: TeamChoices): MemberClock {
  const zone = choices.zones.find((candidate) => candidate.id === member.zones[0]);
  return zone ? { zoneName: zone.name, timezone: zone.timezone } : { zoneName: null, timezone: 'UTC' };
}

/** Local date and time fields as a UTC timestamp, or the field to blame. */
function instantFrom(date: string, time: string, timezone: string, prefix: 'start' | 'end'): string {
  if (!isCalendarDate(date)) throw invalidParameter(`${prefix}_date`, 'Enter a date.');
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) throw invalidParameter(`${prefix}_time`, 'Enter a time (HH:MM).');
  return new Date(instantOf(date, minutesOfDay(time), timezone)).toISOString();
}

export function teamPages(app: FastifyInstance, deps: Deps): void {
  const memberPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    member: StaffView,
    options: { values?: MemberFormValues; error?: FieldError; timeOff?: TimeOffFormValues; timeOffError?: FieldError },
  ) => {
    const tenant = sessionTenant(request.session);
    const choices = await choicesFor(deps, tenant);
    const entries = await listTimeOff(deps, tenant, member.id, { page: 1, per_page: 100 });
    const content = html`${pageHeader({ title: member.name, breadcrumbs: [{ href: TEAM, label: 'Team' }] })}
${doneMessage(queryValue(request, 'done'))}
<div class="grid-2">
${memberForm(request.session, options.values ?? memberValuesOf(member), { member, choices, error: options.error })}
${timeOffSection(request.session, member, entries.data, clockOf(member, choices), options.timeOff ?? NEW_TIME_OFF, options.timeOffError)}
</div>`;
    const status = options.error || options.timeOffError ? 400 : 200;
    return sendShell(request, reply, { title: member.name, status, content });
  };

  app.get(TEAM, PAGE, async (request, reply) => {
    const tenant = sessionTenant(request.session);
    const members = await listStaff(deps, tenant, { page: 1, per_page: 100 });
    const content = teamListView(members.data, await choicesFor(deps, tenant), queryValue(request, 'done'));
    return sendShell(request, reply, { title: 'Team', content });
  });

  app.get(`${TEAM}/new`, PAGE, async (request, reply) => {
    const choices = await choicesFor(deps, sessionTenant(request.session));
    const content = html`${pageHeader({ title: 'Add crew member', breadcrumbs: [{ href: TEAM, label: 'Team' }] })}
${memberForm(request.session, NEW_MEMBER, { choices })}`;
    return sendShell(request, reply, { title: 'Add crew member', content });
  });

  app.post(TEAM, PAGE, async (request, reply) => {
    const tenant = sessionTenant(request.session);
    const values = postedMember(request);
    let created: StaffView;
    try {
      created = await createStaff(deps, tenant, memberInput(values));
    } catch (error) {
      const choices = await choicesFor(deps, tenant);
      const content = html`${pageHeader({ title: 'Add crew member', breadcrumbs: [{ href: TEAM, label: 'Team' }] })}
${memberForm(request.session, values, { choices, error: setupFieldError(error) })}`;
      return sendShell(request, reply, { title: 'Add crew member', status: 400, content });
    }
    return reply.redirect(`${TEAM}/${created.id}?done=created`, 303);
  });

  app.get<{ Params: { id: string } }>(`${TEAM}/:id`, MEMBER_PAGE, async (request: RecordRequest, reply) => {
    const member = await getStaff(deps, sessionTenant(request.session), request.params.id);
    return memberPage(request, reply, member, {});
  });

  app.post<{ Params: { id: string } }>(`${TEAM}/:id`, MEMBER_PAGE, async (request: RecordRequest, reply) => {
    const tenant = sessionTenant(request.session);
    const member = await getStaff(deps, tenant, request.params.id);
    const values = postedMember(request);
    try {
      await updateStaff(deps, tenant, member.id, memberInput(values), bookingsHeldBy);
    } catch (error) {
      return memberPage(request, reply, member, { values, error: setupFieldError(error) });
    }
    return reply.redirect(`${TEAM}/${member.id}?done=saved`, 303);
  });

  archiveStepPages(app, MEMBER_PAGE, {
    ...REMOVE_MEMBER,
    find: (tenant, id) => getStaff(deps, tenant, id),
    archive: (tenant, member) => deleteStaff(deps, tenant, member.id, bookingsHeldBy),
  });

  app.post<{ Params: { id: string } }>(`${TEAM}/:id/time-off`, MEMBER_PAGE, async (request: RecordRequest, reply) => {
    const tenant = sessionTenant(request.session);
    const member = await getStaff(deps, tenant, request.params.id);
    const values: TimeOffFormValues = {
      start_date: formField(request, 'start_date').trim().slice(0, 20),
      start_time: formField(request, 'start_time').trim().slice(0, 10),
      end_date: formField(request, 'end_date').trim().slice(0, 20),
      end_time: formField(request, 'end_time').trim().slice(0, 10),
      reason: formField(request, 'reason').slice(0, 600),
    };
    try {
      const { timezone } = clockOf(member, await choicesFor(deps, tenant));
      await createTimeOff(deps, tenant, member.id, {
        starts_at: instantFrom(values.start_date, values.start_time, timezone, 'start'),
        ends_at: instantFrom(values.end_date, values.end_time, timezone, 'end'),
        reason: values.reason.trim() || null,
      });
    } catch (error) {
      const refusal = setupFieldError(error);
      const param = { starts_at: 'start_date', ends_at: 'end_date' }[refusal.param ?? ''] ?? refusal.param;
      return memberPage(request, reply, member, { timeOff: values, timeOffError: { ...refusal, param } });
    }
    return reply.redirect(`${TEAM}/${member.id}?done=time_off_added#time-off`, 303);
  });

  const removal = `${TEAM}/:id/time-off/:time_off_id/remove`;
  type RemovalRequest = FastifyRequest<{ Params: { id: string; time_off_id: string } }>;
  const removalTarget = async (request: RemovalRequest) => {
    const tenant = sessionTenant(request.session);
    const member = await getStaff(deps, tenant, request.params.id);
    const entries = await listTimeOff(deps, tenant, member.id, {
      page: 1,
      per_page: 1,
      ids: request.params.time_off_id,
    });
    const entry = entries.data[0];
    return { tenant, member, entry, clock: clockOf(member, await choicesFor(deps, tenant)) };
  };

  app.get<{ Params: { id: string; time_off_id: string } }>(removal, MEMBER_PAGE, async (request, reply) => {
    const { member, entry, clock } = await removalTarget(request);
    if (!entry) return reply.redirect(`${TEAM}/${member.id}#time-off`, 303);
    const content = removeTimeOffView(request.session, member, entry, clock);
    return sendShell(request, reply, { title: 'Remove time off', content });
  });

  app.post<{ Params: { id: string; time_off_id: string } }>(removal, MEMBER_PAGE, async (request, reply) => {
    const { tenant, member, entry } = await removalTarget(request);
    if (entry) await deleteTimeOff(deps, tenant, member.id, entry.id);
    return reply.redirect(`${TEAM}/${member.id}?done=time_off_removed#time-off`, 303);
  });
}
