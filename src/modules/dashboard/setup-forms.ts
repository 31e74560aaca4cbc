// Pieces the business-setup pages share (Settings > Zones, Team): the list's header and notices,
// weekly hours as a form, lists of checkboxes, numbers read from a form, and the services'
// refusals shown next to the field.
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { AppError } from '../../core/errors.ts';
import type { Tenant } from '../../core/tenant.ts';
import { errorNextTo, type FieldError, fieldError, formField, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { type Session, sessionTenant } from '../sessions/index.ts';
import { confirmationOn, confirmForm, formButtons, pageHeader, sendShell } from './shell.ts';

export const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** The params an hours fieldset shows its errors for. */
export const HOURS_PARAMS = ['hours', ...WEEK.map((day) => `hours.${day}`)];
export type Week = Partial<Record<(typeof WEEK)[number], { open: string; close: string } | null>>;

const DAY_NAMES: Record<(typeof WEEK)[number], string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

/** A setup list's header (Zones, Team): under Settings, with the button to the add form. */
export function setupListHeader(page: { href: string; title: string; description: string; add: string }): SafeHtml {
  return pageHeader({
    title: page.title,
    description: page.description,
    breadcrumbs: [{ href: page.href, label: 'Settings' }],
    actions: html`<a class="button" href="${page.href}/new">${page.add}</a>`,
  });
}

/** What the last change did, from `?done=` after its redirect: the page's message for it, if any. */
export function doneNotice(messages: Record<string, string>, done: string): SafeHtml | null {
  return messages[done] ? html`<div class="alert success" role="status">${messages[done]}</div>` : null;
}

/**
 * A service's refusal as the form shows it: conflicts (a ZIP another zone serves, a booking in
 * the way) too, and a param inside a field (`hours.monday.open`, `zips.0`) on the field itself.
 */
export function setupFieldError(error: unknown): FieldError {
  const refusal =
    error instanceof AppError && (error.code === 'resource_already_exists' || error.code === 'resource_in_use')
      ? { param: error.param, message: error.message }
      : fieldError(error);
  const param = refusal.param?.match(/^hours\.[a-z]+/)?.[0] ?? refusal.param?.replace(/\.\d+$/, '');
  return { ...refusal, param };
}

/** A number typed into a form, or what was typed when it is none (the schema then names the field). */
export function numberField(request: FastifyRequest, name: string): number | string {
  const value = formField(request, name).trim();
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/** Weekly hours from `<day>_open` / `<day>_close`; both empty is a day off. */
export function readHours(request: FastifyRequest): Week {
  return Object.fromEntries(
    WEEK.map((day) => {
      const open = formField(request, `${day}_open`).trim();
      const close = formField(request, `${day}_close`).trim();
      return [day, open || close ? { open, close } : null];
    }),
  ) as Week;
}

/** One row per weekday: opening and closing time, empty for a day off. */
export function hoursFieldset(hours: Week, error: FieldError | undefined, legend = 'Working hours'): SafeHtml {
  const rows = WEEK.map((day) => {
    const window = hours[day];
    const param = `hours.${day}`;
    return html`<div class="hours-row" ${invalidIf(error, param)}>
  <span class="hours-day" id="${day}-label">${DAY_NAMES[day]}</span>
  <label class="visually-hidden" for="${day}-open">${DAY_NAMES[day]} opens</label>
  <input type="time" id="${day}-open" name="${day}_open" value="${window?.open ?? ''}" aria-describedby="${day}-label">
  <span aria-hidden="true">to</span>
  <label class="visually-hidden" for="${day}-close">${DAY_NAMES[day]} closes</label>
  <input type="time" id="${day}-close" name="${day}_close" value="${window?.close ?? ''}" aria-describedby="${day}-label">
</div>${errorNextTo(error, param)}`;
  });
  return html`<fieldset class="hours" ${invalidIf(error, 'hours')}>
  <legend>${legend}</legend>
  ${errorNextTo(error, 'hours')}
  <p class="hint">Local time. Leave both times empty for a day off.</p>
  ${rows}
</fieldset>`;
}

/** A fieldset of checkboxes named `name`. */
export function checkboxes(
  name: string,
  legend: string,
  options: { value: string; label: string }[],
  selected: readonly string[],
  error: FieldError | undefined,
): SafeHtml {
  return html`<fieldset ${invalidIf(error, name)}>
  <legend>${legend}</legend>
  ${errorNextTo(error, name)}
  ${
    options.length === 0
      ? html`<p class="hint">None yet.</p>`
      : options.map(
          (option) =>
            html`<label class="choice"><input type="checkbox" name="${name}" value="${option.value}" ${
              selected.includes(option.value) ? html`checked` : null
            }> <span>${option.label}</span></label>`,
        )
  }
</fieldset>`;
}

/** A labelled input with its error and hint. */
export function inputField(options: {
  name: string;
  label: string;
  value: string | number;
  error: FieldError | undefined;
  type?: string;
  hint?: string;
  attributes?: SafeHtml;
}): SafeHtml {
  const id = `field-${options.name}`;
  return html`<div class="field">
  <label for="${id}">${options.label}</label>
  <input id="${id}" name="${options.name}" type="${options.type ?? 'text'}" value="${String(options.value)}" ${
    options.attributes ?? null
  } ${invalidIf(options.error, options.name)} ${options.hint ? html`aria-describedby="${id}-hint"` : null}>
  ${errorNextTo(options.error, options.name)}
  ${options.hint ? html`<span class="hint" id="${id}-hint">${options.hint}</span>` : null}
</div>`;
}

/** The confirmation step before archiving a zone or removing a crew member, in the words of its page. */
export interface ArchiveStep<Item extends { id: string; name: string }> {
  list: { href: string; label: string };
  title: (item: Item) => string;
  confirmation: (item: Item) => { title: string; warning: string; button: string };
}

export function archiveStepView<Item extends { id: string; name: string }>(
  session: Session,
  step: ArchiveStep<Item>,
  item: Item,
  error?: FieldError,
): SafeHtml {
  const page = `${step.list.href}/${item.id}`;
  return html`${pageHeader({ title: step.title(item), breadcrumbs: [step.list] })}
${error ? html`<div class="alert error" role="alert" id="form-error">${error.message}</div>` : null}
${confirmForm(session, confirmationOn(page, 'archive', step.confirmation(item)))}`;
}

/** A Settings form's buttons: add or save, back to the list, and for a saved item the way to its archive step. */
export function formActions<Item extends { id: string; name: string }>(
  step: ArchiveStep<Item>,
  item: Item | undefined,
  add: string,
): SafeHtml {
  return formButtons({
    editing: Boolean(item),
    add,
    cancel: step.list.href,
    more: item
      ? html`<a class="button link danger" href="${step.list.href}/${item.id}/archive">${step.confirmation(item).button}</a>`
      : null,
  });
}

/**
 * GET and POST `<list>/:id/archive`: the confirmation, then the archive and back to the list, or
 * the confirmation again with the service's refusal (409, e.g. bookings still held).
 */
export function archiveStepPages<Item extends { id: string; name: string }>(
  app: FastifyInstance,
  options: RouteShorthandOptions,
  step: ArchiveStep<Item> & {
    find: (tenant: Tenant, id: string) => Promise<Item>;
    archive: (tenant: Tenant, item: Item) => Promise<unknown>;
  },
): void {
  const path = `${step.list.href}/:id/archive`;
  app.get<{ Params: { id: string } }>(path, options, async (request, reply) => {
    const item = await step.find(sessionTenant(request.session), request.params.id);
    return sendShell(request, reply, {
      title: step.title(item),
      content: archiveStepView(request.session, step, item),
    });
  });
  app.post<{ Params: { id: string } }>(path, options, async (request, reply) => {
    const tenant = sessionTenant(request.session);
    const item = await step.find(tenant, request.params.id);
    try {
      await step.archive(tenant, item);
    } catch (error) {
      const content = archiveStepView(request.session, step, item, setupFieldError(error));
      return sendShell(request, reply, { title: step.title(item), status: 409, content });
    }
    return reply.redirect(`${step.list.href}?done=archived`, 303);
  });
}
