// Settings > Services: the forms for an industry, a category, a product and an extra, used to
// add one (on the list pages) and to edit one (on its own page). Values are what was typed, so
// a refused form comes back as it was, with the service's error next to its field.
import { errorNextTo, type FieldError, formError, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { Session } from '../sessions/index.ts';
import { csrfField } from './shell.ts';

export const SERVICES = '/dashboard/settings/services';

export type FormValues = Record<string, string>;

export interface FormState {
  values: FormValues;
  error?: FieldError;
}

/** One labelled input; `param` is the API field its errors name (defaults to `name`). */
function input(
  state: FormState,
  options: { id: string; name: string; label: string; param?: string; type?: string; hint?: string; attrs?: SafeHtml },
): SafeHtml {
  const param = options.param ?? options.name;
  return html`<div class="field">
  <label for="${options.id}">${options.label}</label>
  <input id="${options.id}" name="${options.name}" type="${options.type ?? 'text'}" value="${state.values[options.name] ?? ''}" ${invalidIf(state.error, param)} ${options.attrs ?? null}>
  ${options.hint ? html`<span class="hint">${options.hint}</span>` : null}
  ${errorNextTo(state.error, param)}
</div>`;
}

const money = (state: FormState, id: string, name: string, param: string, label = 'Price') =>
  input(state, { id, name, param, label, hint: 'In dollars, e.g. 45.00', attrs: html`inputmode="decimal" required` });

const minutes = (state: FormState, id: string, name: string, param: string, label = 'Minutes') =>
  input(state, { id, name, param, label, hint: 'Minutes of work (per unit)', attrs: html`inputmode="numeric"` });

function textArea(state: FormState, id: string, name: string, label: string): SafeHtml {
  return html`<div class="field">
  <label for="${id}">${label}</label>
  <textarea id="${id}" name="${name}" rows="2" ${invalidIf(state.error, name)}>${state.values[name] ?? ''}</textarea>
  ${errorNextTo(state.error, name)}
</div>`;
}

function select(state: FormState, id: string, name: string, label: string, options: [string, string][]) {
  return html`<div class="field">
  <label for="${id}">${label}</label>
  <select id="${id}" name="${name}" ${invalidIf(state.error, name)}>${options.map(
    ([value, text]) =>
      html`<option value="${value}" ${state.values[name] === value ? html`selected` : null}>${text}</option>`,
  )}</select>
  ${errorNextTo(state.error, name)}
</div>`;
}

function checkbox(state: FormState, name: string, label: string): SafeHtml {
  return html`<label class="choice"><input type="checkbox" name="${name}" value="yes" ${
    state.values[name] === 'yes' ? html`checked` : null
  }> <span>${label}</span></label>`;
}

function formFrame(session: Session, action: string, title: string, button: string, body: SafeHtml, state: FormState) {
  return html`<form class="panel narrow-form" method="post" action="${action}">
  ${csrfField(session)}
  <h2>${title}</h2>
  ${formError(state.error, Object.keys(state.values).concat(ERROR_PARAMS))}
  ${body}
  <div class="actions"><button type="submit">${button}</button></div>
</form>`;
}

/** API params shown next to a field under another name (the room products' prices and minutes). */
const ERROR_PARAMS = ['base_price', 'price', 'unit_label', 'category_id', 'slug', 'room_products'].concat(
  ['visit', 'bedroom', 'bathroom'].flatMap((room) =>
    ['name', 'base_price', 'minutes'].map((field) => `room_products.${room}.${field}`),
  ),
);

export function newIndustryForm(session: Session, state: FormState): SafeHtml {
  const room = (key: 'visit' | 'bedroom' | 'bathroom', label: string) => html`<div class="room-row">
    ${input(state, { id: `${key}-name`, name: `${key}_name`, param: `room_products.${key}.name`, label: `${label} name` })}
    ${input(state, { id: `${key}-price`, name: `${key}_price`, param: `room_products.${key}.base_price`, label: `${label} price`, attrs: html`inputmode="decimal"` })}
    ${input(state, { id: `${key}-minutes`, name: `${key}_minutes`, param: `room_products.${key}.minutes`, label: `${label} minutes`, attrs: html`inputmode="numeric"` })}
  </div>`;
  const body = html`${input(state, { id: 'industry-name', name: 'name', label: 'Name', attrs: html`required` })}
  ${input(state, { id: 'industry-slug', name: 'slug', label: 'Slug (optional)', hint: 'Made from the name when left empty; fixed once created.' })}
  ${select(state, 'industry-type', 'configuration_type', 'Priced by', [
    ['item_based', 'Items (item based)'],
    ['section_based', 'Sections (section based)'],
    ['room_based', 'Bedrooms and bathrooms (room based)'],
  ])}
  ${input(state, { id: 'industry-icon', name: 'icon', label: 'Icon name (optional)' })}
  ${textArea(state, 'industry-description', 'description', 'Description (optional)')}
  <fieldset ${invalidIf(state.error, 'room_products')}>
    <legend>Room products (room based only)</legend>
    <p class="hint">A room-based price is one visit, plus each bedroom, plus each bathroom. Prices in
      dollars (e.g. 45.00), minutes of work per room.</p>
    ${errorNextTo(state.error, 'room_products')}
    ${room('visit', 'Visit')}${room('bedroom', 'Bedroom')}${room('bathroom', 'Bathroom')}
  </fieldset>`;
  return formFrame(session, SERVICES, 'Add an industry', 'Add industry', body, state);
}

export function industryDetailsForm(session: Session, slug: string, state: FormState): SafeHtml {
  const body = html`${input(state, { id: 'industry-name', name: 'name', label: 'Name', attrs: html`required` })}
  ${input(state, { id: 'industry-icon', name: 'icon', label: 'Icon name' })}
  ${textArea(state, 'industry-description', 'description', 'Description')}
  ${checkbox(state, 'is_active', 'Offered to customers (active)')}`;
  return formFrame(session, `${SERVICES}/${slug}`, 'Details', 'Save details', body, state);
}

export function categoryForm(session: Session, action: string, state: FormState, title: string, button: string) {
  const body = html`${input(state, { id: 'category-name', name: 'name', label: 'Name', attrs: html`required` })}
  ${input(state, { id: 'category-slug', name: 'slug', label: 'Slug (optional)', hint: 'Made from the name when left empty.' })}`;
  return formFrame(session, action, title, button, body, state);
}

export function productForm(
  session: Session,
  action: string,
  state: FormState,
  options: { title: string; button: string; categories: { id: string; name: string }[] },
): SafeHtml {
  const body = html`${select(
    state,
    'product-category',
    'category_id',
    'Category',
    options.categories.map((category) => [category.id, category.name]),
  )}
  ${input(state, { id: 'product-name', name: 'name', label: 'Name', attrs: html`required` })}
  ${money(state, 'product-price', 'price', 'base_price')}
  ${minutes(state, 'product-minutes', 'minutes', 'minutes')}
  ${input(state, { id: 'product-slug', name: 'slug', label: 'Slug (optional)', hint: 'Made from the name when left empty.' })}
  ${textArea(state, 'product-description', 'description', 'Description (optional)')}
  ${checkbox(state, 'in_catalog', 'Can be ordered as an item or section')}`;
  return formFrame(session, action, options.title, options.button, body, state);
}

export function extraForm(session: Session, action: string, state: FormState, title: string, button: string) {
  const body = html`${input(state, { id: 'extra-name', name: 'name', label: 'Name', attrs: html`required` })}
  ${money(state, 'extra-price', 'price', 'price')}
  ${select(state, 'extra-price-type', 'price_type', 'Charged', [
    ['flat', 'Once per visit (flat)'],
    ['per_unit', 'Per unit (per unit)'],
  ])}
  ${input(state, { id: 'extra-unit', name: 'unit_label', label: 'Unit (per unit only)', hint: 'e.g. window, room, flight of stairs' })}
  ${minutes(state, 'extra-minutes', 'minutes', 'minutes')}
  ${input(state, { id: 'extra-slug', name: 'slug', label: 'Slug (optional)', hint: 'Made from the name when left empty.' })}
  ${textArea(state, 'extra-description', 'description', 'Description (optional)')}`;
  return formFrame(session, action, title, button, body, state);
}
