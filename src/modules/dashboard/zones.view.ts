// Settings > Zones: the list, the add/edit form (ZIPs pasted as a list, hours per weekday,
// interval, buffer, lead time, adjustment, tax) and the archive confirmation.
import { errorNextTo, type FieldError, formError, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { ZoneView } from '../catalog/index.ts';
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
import { csrfField, pageHeader } from './shell.ts';

export const ZONES = '/dashboard/settings/zones';

export interface ZoneFormValues {
  name: string;
  timezone: string;
  zips: string;
  industries: string[];
  hours: Week;
  slot_interval_minutes: number | string;
  travel_buffer_minutes: number | string;
  lead_time_minutes: number | string;
  price_adjustment_percent: number | string;
  tax_rate: number | string;
  is_active: boolean;
}

export const NEW_ZONE: ZoneFormValues = {
  name: '',
  timezone: 'America/New_York',
  zips: '',
  industries: [],
  hours: {},
  slot_interval_minutes: 60,
  travel_buffer_minutes: 30,
  lead_time_minutes: 120,
  price_adjustment_percent: 0,
  tax_rate: 0,
  is_active: true,
};

export function formValuesOf(zone: ZoneView): ZoneFormValues {
  return { ...zone, zips: zone.zips.join('\n') };
}

const DONE: Record<string, string> = {
  created: 'Zone added.',
  saved: 'Zone saved.',
  archived: 'Zone archived. Its bookings keep it; it no longer offers slots or prices.',
};

function zoneRows(zones: ZoneView[], industryNames: Map<string, string>): SafeHtml {
  if (zones.length === 0) {
    return html`<div class="table-wrap"><div class="empty"><strong>No zones yet</strong>
      Add a zone to offer slots and prices in its ZIP codes.</div></div>`;
  }
  const zipSummary = (zips: string[]) =>
    zips.length > 4 ? `${zips.slice(0, 4).join(', ')} +${zips.length - 4}` : zips.join(', ');
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Zones</caption>
  <thead><tr><th scope="col">Zone</th><th scope="col">ZIP codes</th><th scope="col" class="hide-narrow">Industries</th>
    <th scope="col" class="hide-narrow">Tax</th><th scope="col">Status</th></tr></thead>
  <tbody>${[...zones]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(
      (zone) => html`<tr data-zone-id="${zone.id}">
    <td><a href="${ZONES}/${zone.id}"><strong>${zone.name}</strong></a><div class="hint">${zone.timezone}</div></td>
    <td class="mono">${zipSummary(zone.zips)}</td>
    <td class="hide-narrow">${zone.industries.map((slug) => industryNames.get(slug) ?? slug).join(', ') || '—'}</td>
    <td class="hide-narrow num">${zone.tax_rate}%</td>
    <td>${zone.is_active ? html`<span class="badge ok">Active</span>` : html`<span class="badge muted">Inactive</span>`}</td>
  </tr>`,
    )}</tbody>
</table></div>`;
}

export function zoneListView(zones: ZoneView[], industries: { slug: string; name: string }[], done: string): SafeHtml {
  const names = new Map(industries.map((industry) => [industry.slug, industry.name]));
  return html`${setupListHeader({
    href: ZONES,
    title: 'Zones',
    description: 'Where you work, when, and what it costs there.',
    add: 'Add zone',
  })}
${doneNotice(DONE, done)}
${zoneRows(zones, names)}`;
}

/** The add form (no zone) or the edit form of `zone`. */
export function zoneForm(
  session: Session,
  values: ZoneFormValues,
  options: { zone?: ZoneView; industries: { slug: string; name: string }[]; error?: FieldError },
): SafeHtml {
  const { zone, error } = options;
  const fields = ['name', 'timezone', 'zips', 'industries', 'slot_interval_minutes', 'travel_buffer_minutes'];
  const number = (step = '1') => html`inputmode="decimal" step="${step}"`;
  return html`${pageHeader({
    title: zone ? zone.name : 'Add zone',
    breadcrumbs: [{ href: ZONES, label: 'Zones' }],
  })}
<form class="panel narrow-form" method="post" action="${zone ? `${ZONES}/${zone.id}` : ZONES}" id="zone-form" novalidate>
  ${formError(error, [...fields, 'lead_time_minutes', 'price_adjustment_percent', 'tax_rate', ...HOURS_PARAMS])}
  ${csrfField(session)}
  ${inputField({ name: 'name', label: 'Name', value: values.name, error, attributes: html`maxlength="200" required` })}
  ${inputField({
    name: 'timezone',
    label: 'Time zone',
    value: values.timezone,
    error,
    hint: 'An IANA name such as America/New_York. Hours and slots are in this time zone.',
    attributes: html`list="timezones" spellcheck="false" autocomplete="off" required`,
  })}
  <datalist id="timezones">${TIME_ZONES.map((name) => html`<option value="${name}"></option>`)}</datalist>
  <div class="field">
    <label for="field-zips">ZIP codes</label>
    <textarea id="field-zips" name="zips" rows="4" spellcheck="false" aria-describedby="field-zips-hint" ${invalidIf(error, 'zips')}>${values.zips}</textarea>
    ${errorNextTo(error, 'zips')}
    <span class="hint" id="field-zips-hint">Paste them: separated by commas, spaces or new lines.</span>
  </div>
  ${checkboxes(
    'industries',
    'Industries served',
    options.industries.map((industry) => ({ value: industry.slug, label: industry.name })),
    values.industries,
    error,
  )}
  ${hoursFieldset(values.hours, error, 'Opening hours')}
  <div class="grid-3">
    ${inputField({ name: 'slot_interval_minutes', label: 'Slot interval (min)', value: values.slot_interval_minutes, error, type: 'number', attributes: number() })}
    ${inputField({ name: 'travel_buffer_minutes', label: 'Travel buffer (min)', value: values.travel_buffer_minutes, error, type: 'number', attributes: number() })}
    ${inputField({ name: 'lead_time_minutes', label: 'Lead time (min)', value: values.lead_time_minutes, error, type: 'number', attributes: number() })}
    ${inputField({ name: 'price_adjustment_percent', label: 'Price adjustment (%)', value: values.price_adjustment_percent, error, type: 'number', attributes: number('0.001') })}
    ${inputField({ name: 'tax_rate', label: 'Tax rate (%)', value: values.tax_rate, error, type: 'number', attributes: number('0.001') })}
  </div>
  <label class="choice"><input type="checkbox" name="is_active" value="true" ${values.is_active ? html`checked` : null}> <span>Active: offers slots and prices</span></label>
  ${formActions(ARCHIVE_ZONE, zone, 'Add zone')}
</form>`;
}

export const ARCHIVE_ZONE: ArchiveStep<ZoneView> = {
  list: { href: ZONES, label: 'Zones' },
  title: (zone) => `Archive ${zone.name}`,
  confirmation: (zone) => ({
    title: `Archive the zone ${zone.name}?`,
    warning:
      'It stops offering slots and prices at once and its ZIP codes are free for another zone. Bookings made in it keep it. This cannot be undone here.',
    button: 'Archive zone',
  }),
};

const TIME_ZONES = Intl.supportedValuesOf('timeZone');
