// Settings > Business: the name, e-mail and phone customers see, and the currency of prices and
// invoices, per environment.
import { errorNextTo, type FieldError, formError, invalidIf } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import type { Session } from '../sessions/index.ts';
import { csrfField, pageHeader } from './shell.ts';

export const BUSINESS = '/dashboard/settings/business';

export interface BusinessValues {
  name: string;
  email: string;
  phone: string;
  currency: string;
}

const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency' });
const CURRENCIES = Intl.supportedValuesOf('currency').map((code) => ({
  code: code.toLowerCase(),
  label: `${code} — ${currencyNames.of(code) ?? code}`,
}));

function textField(
  name: keyof BusinessValues,
  label: string,
  value: string,
  error: FieldError | undefined,
  attributes: SafeHtml,
) {
  return html`<div class="field">
    <label for="business-${name}">${label}</label>
    <input id="business-${name}" name="${name}" value="${value}" ${attributes} ${invalidIf(error, `business.${name}`)}>
    ${errorNextTo(error, `business.${name}`)}
  </div>`;
}

export function businessView(
  session: Session,
  values: BusinessValues,
  options: { error?: FieldError; saved?: boolean; currencyFixed: boolean },
): SafeHtml {
  const { error } = options;
  return html`${pageHeader({
    title: 'Business',
    description: `How customers see your business in this environment (${session.environment}): on invoices and in e-mails.`,
  })}
${options.saved ? html`<div class="alert success" role="status">Business details saved.</div>` : null}
<form class="panel narrow-form" method="post" action="${BUSINESS}" id="business-form">
  ${formError(error, ['business.name', 'business.email', 'business.phone', 'currency'])}
  ${csrfField(session)}
  ${textField('name', 'Business name', values.name, error, html`type="text" required maxlength="200" autocomplete="organization"`)}
  ${textField('email', 'E-mail', values.email, error, html`type="email" maxlength="254" autocomplete="email"`)}
  ${textField('phone', 'Phone', values.phone, error, html`type="tel" maxlength="32" autocomplete="tel"`)}
  <div class="field">
    <label for="business-currency">Currency</label>
    <select id="business-currency" name="currency" ${invalidIf(error, 'currency')} aria-describedby="business-currency-hint">
      ${CURRENCIES.map(
        (currency) =>
          html`<option value="${currency.code}" ${currency.code === values.currency ? html`selected` : null}>${currency.label}</option>`,
      )}
    </select>
    ${errorNextTo(error, 'currency')}
    <span class="hint" id="business-currency-hint">${
      options.currencyFixed
        ? 'Fixed: this environment already has invoices in it.'
        : 'Prices and invoices use it. It is fixed once this environment has its first invoice.'
    }</span>
  </div>
  <div class="actions"><button type="submit">Save</button></div>
</form>`;
}
