// Settings > Services: the industries (inactive ones marked), one industry with its categories,
// products and extras, each with edit, up/down and archive; the forms are services-forms.view.ts.
import { html, type SafeHtml } from '../../web/html.ts';
import { money } from '../../web/widgets.ts';
import type { ExtraObject, IndustryView, ProductObject } from '../catalog/index.ts';
import type { Session } from '../sessions/index.ts';
import {
  categoryForm,
  extraForm,
  type FormState,
  industryDetailsForm,
  newIndustryForm,
  productForm,
  SERVICES,
} from './services-forms.view.ts';
import { csrfField, pageHeader } from './shell.ts';

export { SERVICES };

const TYPES: Record<string, string> = {
  room_based: 'Bedrooms and bathrooms',
  item_based: 'Items',
  section_based: 'Sections',
};

/** Which add-form of a page was refused, with what was typed and why. */
export interface FailedForm extends FormState {
  form: 'industry' | 'details' | 'category' | 'product' | 'extra';
}

export const SAVED: Record<string, string> = {
  saved: 'Saved.',
  added: 'Added.',
  archived: 'Archived. Bookings made with it keep their price.',
  moved: 'Moved.',
};

function notice(done: string): SafeHtml | null {
  const text = SAVED[done];
  return text ? html`<div class="alert success" role="status">${text}</div>` : null;
}

/** Up and down buttons: small forms that post the new place, so they work without JavaScript. */
function moveButtons(session: Session, action: string, label: string, first: boolean, last: boolean): SafeHtml {
  const button = (direction: 'up' | 'down', text: string, disabled: boolean) =>
    html`<button type="submit" name="direction" value="${direction}" class="secondary small" aria-label="Move ${label} ${direction}" ${
      disabled ? html`disabled` : null
    }>${text}</button>`;
  return html`<form method="post" action="${action}/move" class="inline-form">${csrfField(session)}${button('up', '↑', first)}${button('down', '↓', last)}</form>`;
}

function industryRows(session: Session, industries: IndustryView[]): SafeHtml {
  if (industries.length === 0) {
    return html`<div class="table-wrap"><div class="empty"><strong>No industries yet</strong>
      Add the first thing you sell below, or import a catalog file.</div></div>`;
  }
  const rows = industries.map(
    (industry, index) => html`<tr data-industry="${industry.slug}">
  <td><a href="${SERVICES}/${industry.slug}"><strong>${industry.name}</strong></a><div class="hint mono">${industry.slug}</div></td>
  <td class="hide-narrow">${TYPES[industry.configuration_type]}</td>
  <td>${industry.is_active ? html`<span class="badge ok">Active</span>` : html`<span class="badge muted">Inactive</span>`}</td>
  <td>${moveButtons(session, `${SERVICES}/${industry.slug}`, industry.name, index === 0, index === industries.length - 1)}</td>
</tr>`,
  );
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Industries</caption>
  <thead><tr><th scope="col">Industry</th><th scope="col" class="hide-narrow">Priced by</th><th scope="col">Status</th><th scope="col">Order</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}

export function servicesView(session: Session, industries: IndustryView[], done: string, failed?: FailedForm) {
  const state = failed ?? { values: { configuration_type: 'item_based' } };
  return html`${pageHeader({
    title: 'Services',
    description:
      'What you sell: industries, and their categories, products and extras. Changes count from the next quote.',
    breadcrumbs: [{ href: SERVICES, label: 'Settings' }],
  })}
${notice(done)}
${industryRows(session, industries)}
${newIndustryForm(session, state)}`;
}

export interface IndustryPage {
  industry: IndustryView;
  currency: string;
  categories: { id: string; name: string; slug: string; position: number; products: ProductObject[] }[];
  extras: ExtraObject[];
}

function itemActions(session: Session, base: string, label: string, index: number, count: number, archive = true) {
  return html`<div class="actions">
    <a class="button secondary small" href="${base}" aria-label="Edit ${label}">Edit</a>
    ${moveButtons(session, base, label, index === 0, index === count - 1)}
    ${archive ? html`<a class="button secondary small" href="${base}/archive" aria-label="Archive ${label}">Archive</a>` : null}
  </div>`;
}

function productRows(session: Session, page: IndustryPage, category: IndustryPage['categories'][number]) {
  const base = `${SERVICES}/${page.industry.slug}/products`;
  if (category.products.length === 0) return html`<p class="hint">No products in this category yet.</p>`;
  const roomBased = page.industry.configuration_type === 'room_based';
  const rows = category.products.map(
    (product, index) => html`<tr data-product-id="${product.id}">
  <td><strong>${product.name}</strong>${product.room ? html` <span class="badge muted">${product.room}</span>` : null}</td>
  <td class="num">${money(product.base_price, page.currency)}</td>
  <td class="num hide-narrow">${product.minutes} min</td>
  <td>${itemActions(session, `${base}/${product.id}`, product.name, index, category.products.length, !(roomBased && product.room))}</td>
</tr>`,
  );
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Products in ${category.name}</caption>
  <thead><tr><th scope="col">Product</th><th scope="col" class="num">Price</th><th scope="col" class="num hide-narrow">Time</th><th scope="col">Actions</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}

function extraRows(session: Session, page: IndustryPage): SafeHtml {
  const base = `${SERVICES}/${page.industry.slug}/extras`;
  if (page.extras.length === 0) return html`<p class="hint">No extras yet.</p>`;
  const rows = page.extras.map(
    (extra, index) => html`<tr data-extra-id="${extra.id}">
  <td><strong>${extra.name}</strong></td>
  <td class="num">${money(extra.price, page.currency)}${extra.price_type === 'per_unit' ? html` per ${extra.unit_label ?? 'unit'}` : ' flat'}</td>
  <td class="num hide-narrow">${extra.minutes} min</td>
  <td>${itemActions(session, `${base}/${extra.id}`, extra.name, index, page.extras.length)}</td>
</tr>`,
  );
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Extras</caption>
  <thead><tr><th scope="col">Extra</th><th scope="col" class="num">Price</th><th scope="col" class="num hide-narrow">Time</th><th scope="col">Actions</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}

const blank = (form: FailedForm['form'], failed: FailedForm | undefined, values: FormState['values']): FormState =>
  failed?.form === form ? failed : { values };

export function industryPageView(session: Session, page: IndustryPage, done: string, failed?: FailedForm): SafeHtml {
  const { industry } = page;
  const base = `${SERVICES}/${industry.slug}`;
  const details = {
    name: industry.name,
    icon: industry.icon,
    description: industry.description,
    is_active: industry.is_active ? 'yes' : '',
  };
  const categorySections = page.categories.map(
    (category, index) => html`<section class="panel" aria-labelledby="category-${category.id}">
  <div class="section-header"><h2 id="category-${category.id}">${category.name}</h2>
    ${itemActions(session, `${base}/categories/${category.id}`, category.name, index, page.categories.length)}</div>
  ${productRows(session, page, category)}
</section>`,
  );
  return html`${pageHeader({
    title: industry.name,
    description: `${TYPES[industry.configuration_type]} · slug ${industry.slug}${industry.is_active ? '' : ' · inactive: not offered'}`,
    breadcrumbs: [
      { href: SERVICES, label: 'Settings' },
      { href: SERVICES, label: 'Services' },
    ],
  })}
${notice(done)}
<h2>Categories and products</h2>
${categorySections.length ? categorySections : html`<p class="hint">Add a category first, then its products.</p>`}
<div class="grid-2">
${
  page.categories.length
    ? productForm(session, `${base}/products`, blank('product', failed, { in_catalog: 'yes' }), {
        title: 'Add a product',
        button: 'Add product',
        categories: page.categories,
      })
    : null
}
${categoryForm(session, `${base}/categories`, blank('category', failed, {}), 'Add a category', 'Add category')}
</div>
<h2>Extras</h2>
${extraRows(session, page)}
${extraForm(session, `${base}/extras`, blank('extra', failed, { price_type: 'flat' }), 'Add an extra', 'Add extra')}
${industryDetailsForm(session, industry.slug, blank('details', failed, details))}`;
}

/** The page of one category, product or extra: its edit form. */
export function itemPageView(industry: IndustryView, title: string, form: SafeHtml): SafeHtml {
  return html`${pageHeader({
    title,
    breadcrumbs: [
      { href: SERVICES, label: 'Services' },
      { href: `${SERVICES}/${industry.slug}`, label: industry.name },
    ],
  })}${form}`;
}
