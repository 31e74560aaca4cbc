// Settings > Coupons: the list (code, discount, validity, redemptions), the add and edit form,
// and the archive confirmation. Dates are whole UTC days in the form (valid from the start of
// the first day, until the end of the last).
import { errorNextTo, type FieldError, formError, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { money, pager } from '../../web/widgets.ts';
import type { CouponView } from '../catalog/index.ts';
import type { Session } from '../sessions/index.ts';
import { type Confirmation, confirmationOn, csrfField, pageHeader } from './shell.ts';

export const COUPONS = '/dashboard/settings/coupons';
const FIELDS = ['code', 'description', 'percent_off', 'amount_off', 'valid_from', 'valid_until', 'max_redemptions'];

export interface CouponFormValues {
  code: string;
  description: string;
  percent_off: string;
  amount_off: string;
  valid_from: string;
  valid_until: string;
  max_redemptions: string;
  industries: string[];
  is_active: boolean;
}

export const EMPTY_COUPON: CouponFormValues = {
  code: '',
  description: '',
  percent_off: '',
  amount_off: '',
  valid_from: '',
  valid_until: '',
  max_redemptions: '',
  industries: [],
  is_active: true,
};

export function couponFormValues(coupon: CouponView): CouponFormValues {
  return {
    code: coupon.code,
    description: coupon.description,
    percent_off: coupon.percent_off === null ? '' : String(coupon.percent_off),
    amount_off: coupon.amount_off === null ? '' : (coupon.amount_off / 100).toFixed(2),
    valid_from: coupon.valid_from?.slice(0, 10) ?? '',
    valid_until: coupon.valid_until?.slice(0, 10) ?? '',
    max_redemptions: coupon.max_redemptions === null ? '' : String(coupon.max_redemptions),
    industries: coupon.industries ?? [],
    is_active: coupon.is_active,
  };
}

export function discountOf(coupon: CouponView, currency: string): string {
  return coupon.percent_off !== null ? `${coupon.percent_off}% off` : `${money(coupon.amount_off ?? 0, currency)} off`;
}

function validity(coupon: CouponView): string {
  const day = (iso: string) => iso.slice(0, 10);
  if (coupon.valid_from && coupon.valid_until) return `${day(coupon.valid_from)} to ${day(coupon.valid_until)}`;
  if (coupon.valid_from) return `From ${day(coupon.valid_from)}`;
  if (coupon.valid_until) return `Until ${day(coupon.valid_until)}`;
  return 'Always';
}

function couponTable(coupons: CouponView[], currency: string): SafeHtml {
  if (coupons.length === 0) {
    return html`<div class="table-wrap"><div class="empty"><strong>No coupons yet</strong>
      Add one below; customers and your booking site can use its code from then on.</div></div>`;
  }
  const rows = coupons.map(
    (coupon) => html`<tr data-coupon-id="${coupon.id}">
  <td><a href="${COUPONS}/${coupon.id}"><strong class="mono">${coupon.code}</strong></a>
    ${coupon.description ? html`<div class="hint">${coupon.description}</div>` : null}</td>
  <td>${discountOf(coupon, currency)}</td>
  <td class="hide-narrow">${validity(coupon)}${coupon.industries ? html`<div class="hint">${coupon.industries.join(', ')}</div>` : null}</td>
  <td class="num">${coupon.times_redeemed}${coupon.max_redemptions === null ? '' : ` / ${coupon.max_redemptions}`}</td>
  <td>${coupon.is_active ? html`<span class="badge ok">Active</span>` : html`<span class="badge muted">Inactive</span>`}</td>
  <td class="num"><a class="button link small" href="${COUPONS}/${coupon.id}" aria-label="Edit ${coupon.code}">Edit</a></td>
</tr>`,
  );
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Coupons</caption>
  <thead><tr><th scope="col">Code</th><th scope="col">Discount</th><th scope="col" class="hide-narrow">Valid (UTC)</th>
    <th scope="col" class="num">Redeemed</th><th scope="col">Status</th>
    <th scope="col" class="num"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}

/** The add form (no coupon yet) or the edit form of `coupon`. */
export function couponForm(
  session: Session,
  values: CouponFormValues,
  options: { coupon?: CouponView; industries: { slug: string; name: string }[]; currency: string; error?: FieldError },
): SafeHtml {
  const { coupon, error } = options;
  const action = coupon ? `${COUPONS}/${coupon.id}` : COUPONS;
  const input = (
    name: keyof CouponFormValues,
    label: string,
    attributes: SafeHtml,
    hint?: string,
  ) => html`<div class="field">
    <label for="coupon-${name}">${label}</label>
    <input id="coupon-${name}" name="${name}" value="${values[name] as string}" ${attributes} ${invalidIf(error, name)}
      ${hint ? html`aria-describedby="coupon-${name}-hint"` : null}>
    ${errorNextTo(error, name)}
    ${hint ? html`<span class="hint" id="coupon-${name}-hint">${hint}</span>` : null}
  </div>`;
  const chosen = new Set(values.industries);
  return html`<form class="panel narrow-form" method="post" action="${action}" id="coupon-form">
  <h2>${coupon ? `Edit ${coupon.code}` : 'Add a coupon'}</h2>
  ${formError(error, [...FIELDS, 'industries'])}
  ${csrfField(session)}
  ${input('code', 'Code', html`type="text" required maxlength="40" autocapitalize="characters" spellcheck="false"`, '2-40 letters, digits, _ or -; customers type it in any case.')}
  ${input('description', 'Description', html`type="text" maxlength="2000"`)}
  <div class="grid-2">
    ${input('percent_off', 'Percent off', html`type="text" inputmode="decimal"`, 'e.g. 10 or 12.5')}
    ${input('amount_off', `Amount off (${options.currency.toUpperCase()})`, html`type="text" inputmode="decimal"`, 'e.g. 20.00; fill in one of the two.')}
  </div>
  ${coupon && coupon.times_redeemed > 0 ? html`<p class="hint">Redeemed ${coupon.times_redeemed} time(s): the discount can no longer change. Make a new coupon for a different one.</p>` : null}
  <div class="grid-2">
    ${input('valid_from', 'Valid from (UTC day)', html`type="date"`)}
    ${input('valid_until', 'Valid until (UTC day, inclusive)', html`type="date"`)}
  </div>
  ${input('max_redemptions', 'Maximum redemptions', html`type="text" inputmode="numeric"`, 'Empty: no limit.')}
  <fieldset ${invalidIf(error, 'industries')}>
    <legend>Industries</legend>
    <span class="hint">None chosen: every industry.</span>
    ${errorNextTo(error, 'industries')}
    ${options.industries.map(
      (industry) =>
        html`<label class="choice"><input type="checkbox" name="industries" value="${industry.slug}" ${chosen.has(industry.slug) ? html`checked` : null}> <span>${industry.name}</span></label>`,
    )}
  </fieldset>
  ${coupon ? html`<label class="choice"><input type="checkbox" name="is_active" value="1" ${values.is_active ? html`checked` : null}> <span>Active (can be used)</span></label>` : null}
  <div class="actions">
    <button type="submit">${coupon ? 'Save changes' : 'Add coupon'}</button>
    ${
      coupon
        ? html`<a class="button secondary" href="${COUPONS}">Cancel</a>
    <a class="button danger" href="${COUPONS}/${coupon.id}/archive">Archive…</a>`
        : null
    }
  </div>
</form>`;
}

export function couponsView(
  session: Session,
  list: { data: CouponView[]; pagination: { total: number; page: number; total_pages: number } },
  form: {
    values: CouponFormValues;
    industries: { slug: string; name: string }[];
    currency: string;
    error?: FieldError;
  },
  notice?: string,
): SafeHtml {
  return html`${pageHeader({ title: 'Coupons', description: 'Codes customers can use for a discount.' })}
${notice ? html`<div class="alert success" role="status">${notice}</div>` : null}
${couponTable(list.data, form.currency)}
${pager({ noun: 'coupon', total: list.pagination.total, page: list.pagination.page, totalPages: list.pagination.total_pages, link: (page) => `${COUPONS}?page=${page}` })}
${couponForm(session, form.values, form)}`;
}

export function editCouponView(
  session: Session,
  coupon: CouponView,
  values: CouponFormValues,
  options: { industries: { slug: string; name: string }[]; currency: string; error?: FieldError; saved?: boolean },
): SafeHtml {
  return html`${pageHeader({ title: coupon.code, breadcrumbs: [{ href: COUPONS, label: 'Coupons' }] })}
${options.saved ? html`<div class="alert success" role="status">Saved.</div>` : null}
${couponForm(session, values, { ...options, coupon })}`;
}

export function archiveConfirmation(coupon: CouponView): Confirmation {
  return confirmationOn(`${COUPONS}/${coupon.id}`, 'archive', {
    title: `Archive ${coupon.code}?`,
    warning: `Customers can no longer use ${coupon.code}, and it leaves the list. Bookings that used it keep their discount. Its code may then be given to a new coupon.`,
    button: 'Archive coupon',
  });
}
