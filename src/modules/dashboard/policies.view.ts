// Settings > Policies: frequency discounts and the cancellation policy of the environment.
import { errorNextTo, type FieldError, formError, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { SettingsView } from '../catalog/index.ts';
import type { Session } from '../sessions/index.ts';
import { csrfField, pageHeader } from './shell.ts';

export const POLICIES = '/dashboard/settings/policies';

export const FREQUENCIES = [
  ['one-time', 'One-time'],
  ['weekly', 'Weekly'],
  ['bi-weekly', 'Every two weeks'],
  ['monthly', 'Monthly'],
] as const;

export const CANCELLATION_FIELDS = [
  [
    'free_cancellation_hours',
    'Free cancellation up to (hours before)',
    'Cancelling at least this long before the visit costs nothing.',
  ],
  [
    'late_cancellation_fee_percent',
    'Late cancellation fee (% of the total)',
    'When a customer cancels later than that.',
  ],
  ['in_progress_fee_percent', 'Fee once the job has started (% of the total)', 'When a job in progress is cancelled.'],
] as const;

/** What the form shows: each field by its API name (`frequency_discounts.weekly`, …). */
export type PolicyValues = Record<string, string>;

export function policyValues(settings: SettingsView): PolicyValues {
  const values: PolicyValues = {};
  for (const [key] of FREQUENCIES) values[`frequency_discounts.${key}`] = String(settings.frequency_discounts[key]);
  for (const [key] of CANCELLATION_FIELDS)
    values[`cancellation_policy.${key}`] = String(settings.cancellation_policy[key]);
  return values;
}

function numberField(name: string, label: string, value: string, error: FieldError | undefined, hint?: string) {
  const id = name.replace(/\./g, '-');
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input id="${id}" name="${name}" type="text" inputmode="decimal" required value="${value}" ${invalidIf(error, name)}
      ${hint ? html`aria-describedby="${id}-hint"` : null}>
    ${errorNextTo(error, name)}
    ${hint ? html`<span class="hint" id="${id}-hint">${hint}</span>` : null}
  </div>`;
}

export function policiesView(
  session: Session,
  values: PolicyValues,
  options: { error?: FieldError; saved?: boolean },
): SafeHtml {
  const { error } = options;
  return html`${pageHeader({
    title: 'Policies',
    description:
      'Discounts for regular visits and what cancelling costs. Prices use them from the next quote; bookings keep the price they were made with.',
  })}
${options.saved ? html`<div class="alert success" role="status">Policies saved.</div>` : null}
<form class="panel narrow-form" method="post" action="${POLICIES}" id="policies-form">
  ${formError(error, Object.keys(values))}
  ${csrfField(session)}
  <fieldset>
    <legend>Frequency discounts (% off)</legend>
    <div class="grid-2">
    ${FREQUENCIES.map(([key, label]) => numberField(`frequency_discounts.${key}`, label, values[`frequency_discounts.${key}`] ?? '', error))}
    </div>
  </fieldset>
  <fieldset>
    <legend>Cancellation policy</legend>
    ${CANCELLATION_FIELDS.map(([key, label, hint]) =>
      numberField(`cancellation_policy.${key}`, label, values[`cancellation_policy.${key}`] ?? '', error, hint),
    )}
  </fieldset>
  <div class="actions"><button type="submit">Save policies</button></div>
</form>`;
}
