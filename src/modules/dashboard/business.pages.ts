// Settings > Business: name, e-mail, phone and currency, through the same settings service as
// PATCH /v1/settings (which refuses a currency change once an invoice exists).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { type FieldError, fieldError, formField, queryValue } from '../../web/forms.ts';
import { getSettings, type SettingsView, updateSettings } from '../catalog/index.ts';
import { issuedInvoiceIds } from '../invoices/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { BUSINESS, type BusinessValues, businessView } from './business.view.ts';
import { PAGE } from './pages.ts';
import { sendShell } from './shell.ts';

function valuesOf(settings: SettingsView): BusinessValues {
  return {
    name: settings.business.name,
    email: settings.business.email ?? '',
    phone: settings.business.phone ?? '',
    currency: settings.currency,
  };
}

export function businessPages(app: FastifyInstance, deps: Deps): void {
  const send = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: BusinessValues,
    options: { error?: FieldError; saved?: boolean } = {},
  ) => {
    const invoices = await issuedInvoiceIds(deps, sessionTenant(request.session));
    return sendShell(request, reply, {
      title: 'Business',
      status: options.error ? 400 : 200,
      content: businessView(request.session, values, { ...options, currencyFixed: invoices.length > 0 }),
    });
  };

  app.get(BUSINESS, PAGE, async (request, reply) => {
    const settings = await getSettings(deps, sessionTenant(request.session));
    return send(request, reply, valuesOf(settings), { saved: queryValue(request, 'saved') === '1' });
  });

  app.post(BUSINESS, PAGE, async (request, reply) => {
    const values: BusinessValues = {
      name: formField(request, 'name').trim().slice(0, 300),
      email: formField(request, 'email').trim().slice(0, 300),
      phone: formField(request, 'phone').trim().slice(0, 100),
      currency: formField(request, 'currency').trim().toLowerCase().slice(0, 10),
    };
    try {
      await updateSettings(
        deps,
        sessionTenant(request.session),
        {
          business: { name: values.name, email: values.email || null, phone: values.phone || null },
          currency: values.currency,
        },
        issuedInvoiceIds,
      );
    } catch (error) {
      return send(request, reply, values, { error: fieldError(error) });
    }
    return reply.redirect(`${BUSINESS}?saved=1`, 303);
  });
}
