// Settings > Team: the crew list, a member's form (zones, industries, hours, status) and the
// archive confirmation. Time off has its own views (time-off.view.ts).
import { errorNextTo, type FieldError, formError, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { StaffView, ZoneView } from '../catalog/index.ts';
import type { Session } from '../sessions/index.ts';
import {
  type ArchiveStep,
  checkboxes,
  doneNotice,
  formActions,
  HOURS_PARAMS,
  hoursFieldset,
  inputField,
  setupListHeader,
  type Week,
} from './setup-forms.ts';
import { csrfField } from './shell.ts';

export const TEAM = '/dashboard/settings/team';

export interface MemberFormValues {
  name: string;
  email: string;
  phone: string;
  zones: string[];
  industries: string[];
  hours: Week;
  status: 'active' | 'inactive' | string;
}

export const NEW_MEMBER: MemberFormValues = {
  name: '',
  email: '',
  phone: '',
  zones: [],
  industries: [],
  hours: {},
  status: 'active',
};

export function memberValuesOf(member: StaffView): MemberFormValues {
  return { ...member, email: member.email ?? '', phone: member.phone ?? '' };
}

export interface TeamChoices {
  zones: ZoneView[];
  industries: { slug: string; name: string }[];
}

const DONE: Record<string, string> = {
  created: 'Crew member added.',
  saved: 'Crew member saved.',
  archived: 'Crew member removed. Their bookings keep them.',
  time_off_added: 'Time off added.',
  time_off_removed: 'Time off removed.',
};

export function doneMessage(done: string): SafeHtml | null {
  return doneNotice(DONE, done);
}

export function teamListView(members: StaffView[], choices: TeamChoices, done: string): SafeHtml {
  const zoneNames = new Map(choices.zones.map((zone) => [zone.id, zone.name]));
  const industryNames = new Map(choices.industries.map((industry) => [industry.slug, industry.name]));
  const table =
    members.length === 0
      ? html`<div class="table-wrap"><div class="empty"><strong>No crew members yet</strong>
      Add the people who do the jobs: availability offers slots only when someone is free.</div></div>`
      : html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Crew members</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Zones</th><th scope="col" class="hide-narrow">Industries</th>
    <th scope="col">Status</th></tr></thead>
  <tbody>${[...members]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(
      (member) => html`<tr data-staff-id="${member.id}">
    <td><a href="${TEAM}/${member.id}"><strong>${member.name}</strong></a>${
      member.email ? html`<div class="hint">${member.email}</div>` : null
    }</td>
    <td>${member.zones.map((id) => zoneNames.get(id) ?? id).join(', ') || '—'}</td>
    <td class="hide-narrow">${member.industries.map((slug) => industryNames.get(slug) ?? slug).join(', ') || '—'}</td>
    <td>${member.status === 'active' ? html`<span class="badge ok">Active</span>` : html`<span class="badge muted">Inactive</span>`}</td>
  </tr>`,
    )}</tbody>
</table></div>`;
  return html`${setupListHeader({
    href: TEAM,
    title: 'Team',
    description: 'Your crew: where they work, in which industries, and when.',
    add: 'Add crew member',
  })}
${doneMessage(done)}
${table}`;
}

/** The add form (no member) or the edit form of `member`. */
export function memberForm(
  session: Session,
  values: MemberFormValues,
  options: { member?: StaffView; choices: TeamChoices; error?: FieldError },
): SafeHtml {
  const { member, error, choices } = options;
  const fields = ['name', 'email', 'phone', 'zones', 'industries', 'status'];
  return html`<form class="panel narrow-form" method="post" action="${member ? `${TEAM}/${member.id}` : TEAM}" id="member-form" novalidate>
  <h2>${member ? 'Details' : 'New crew member'}</h2>
  ${formError(error, [...fields, ...HOURS_PARAMS])}
  ${csrfField(session)}
  ${inputField({ name: 'name', label: 'Name', value: values.name, error, attributes: html`maxlength="200" required autocomplete="off"` })}
  ${inputField({ name: 'email', label: 'E-mail (optional)', value: values.email, error, type: 'email', attributes: html`maxlength="254" autocomplete="off"` })}
  ${inputField({ name: 'phone', label: 'Phone (optional)', value: values.phone, error, type: 'tel', attributes: html`maxlength="32" autocomplete="off"` })}
  ${checkboxes(
    'zones',
    'Zones',
    choices.zones.map((zone) => ({ value: zone.id, label: zone.name })),
    values.zones,
    error,
  )}
  ${checkboxes(
    'industries',
    'Industries',
    choices.industries.map((industry) => ({ value: industry.slug, label: industry.name })),
    values.industries,
    error,
  )}
  ${hoursFieldset(values.hours, error)}
  <div class="field">
    <label for="field-status">Status</label>
    <select id="field-status" name="status" ${invalidIf(error, 'status')}>
      <option value="active" ${values.status === 'active' ? html`selected` : null}>Active: gets new bookings</option>
      <option value="inactive" ${values.status === 'inactive' ? html`selected` : null}>Inactive: no new bookings</option>
    </select>
    ${errorNextTo(error, 'status')}
  </div>
  ${formActions(REMOVE_MEMBER, member, 'Add crew member')}
</form>`;
}

export const REMOVE_MEMBER: ArchiveStep<StaffView> = {
  list: { href: TEAM, label: 'Team' },
  title: (member) => `Remove ${member.name}`,
  confirmation: (member) => ({
    title: `Remove ${member.name} from the team?`,
    warning:
      'They get no new bookings from now on, and their time off goes with them. Bookings they did keep their name.',
    button: 'Remove crew member',
  }),
};
