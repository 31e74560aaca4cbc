// A crew member's time off on their Team page: the list, the add form (local date and time in
// the member's first zone, named) and the removal confirmation.
import { errorNextTo, type FieldError, formError, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { when } from '../../web/widgets.ts';
import type { StaffView, TimeOffView } from '../catalog/index.ts';
import type { Session } from '../sessions/index.ts';
import { confirmationOn, confirmForm, csrfField, pageHeader } from './shell.ts';
import { TEAM } from './team.view.ts';

/** Where a member's time off is read and shown: their first zone's time zone, or UTC. */
export interface MemberClock {
  zoneName: string | null;
  timezone: string;
}

export interface TimeOffFormValues {
  start_date: string;
  start_time: string;
  end_date: string;
  end_time: string;
  reason: string;
}

export const NEW_TIME_OFF: TimeOffFormValues = {
  start_date: '',
  start_time: '08:00',
  end_date: '',
  end_time: '18:00',
  reason: '',
};

function clockName(clock: MemberClock): string {
  return clock.zoneName ? `${clock.zoneName} time (${clock.timezone})` : 'UTC (the member has no zone)';
}

function input(
  name: keyof TimeOffFormValues,
  label: string,
  type: string,
  values: TimeOffFormValues,
  error?: FieldError,
) {
  const id = `time-off-${name}`;
  return html`<div class="field">
  <label for="${id}">${label}</label>
  <input id="${id}" name="${name}" type="${type}" value="${values[name]}" ${invalidIf(error, name)} ${
    type === 'text' ? html`maxlength="500"` : html`required`
  }>
  ${errorNextTo(error, name)}
</div>`;
}

export function timeOffSection(
  session: Session,
  member: StaffView,
  entries: TimeOffView[],
  clock: MemberClock,
  values: TimeOffFormValues,
  error?: FieldError,
): SafeHtml {
  const list =
    entries.length === 0
      ? html`<p class="hint">No time off recorded.</p>`
      : html`<ul class="plain time-off-list">${entries.map(
          (entry) => html`<li data-time-off-id="${entry.id}">
    <span>${when(entry.starts_at, '', clock.timezone)} – ${when(entry.ends_at, '', clock.timezone)}${
      entry.reason ? html` <span class="hint">${entry.reason}</span>` : null
    }</span>
    <a class="button link danger small" href="${TEAM}/${member.id}/time-off/${entry.id}/remove">Remove<span class="visually-hidden"> time off from ${entry.starts_at}</span></a>
  </li>`,
        )}</ul>`;
  return html`<section class="panel narrow-form" aria-labelledby="time-off-heading" id="time-off">
  <h2 id="time-off-heading">Time off</h2>
  <p class="hint">Times in ${clockName(clock)}. No slot is offered inside time off; time off over a booking is refused.</p>
  ${list}
  <form method="post" action="${TEAM}/${member.id}/time-off" id="time-off-form" novalidate>
    <h3>Add time off</h3>
    ${formError(error, ['start_date', 'start_time', 'end_date', 'end_time', 'reason'])}
    ${csrfField(session)}
    <div class="grid-3">
      ${input('start_date', 'From date', 'date', values, error)}
      ${input('start_time', 'From time', 'time', values, error)}
      ${input('end_date', 'Until date', 'date', values, error)}
      ${input('end_time', 'Until time', 'time', values, error)}
    </div>
    ${input('reason', 'Reason (optional)', 'text', values, error)}
    <div class="actions"><button type="submit">Add time off</button></div>
  </form>
</section>`;
}

export function removeTimeOffView(session: Session, member: StaffView, entry: TimeOffView, clock: MemberClock) {
  return html`${pageHeader({
    title: `Remove time off`,
    breadcrumbs: [
      { href: TEAM, label: 'Team' },
      { href: `${TEAM}/${member.id}`, label: member.name },
    ],
  })}
${confirmForm(
  session,
  confirmationOn(`${TEAM}/${member.id}`, `time-off/${entry.id}/remove`, {
    title: `Remove ${member.name}'s time off?`,
    warning: html`${when(entry.starts_at, '', clock.timezone)} – ${when(entry.ends_at, '', clock.timezone)} (${clockName(clock)}) becomes bookable again at once.`,
    button: 'Remove time off',
  }),
)}`;
}
