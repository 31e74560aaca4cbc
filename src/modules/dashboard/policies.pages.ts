// Settings > Policies: the environment's frequency discounts and cancellation policy, saved
// through the same settings service as PATCH /v1/settings.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { fieldError, formField, queryValue } from '../../web/forms.ts';
import { getSettings, updateSettings } from '../catalog/index.ts';
import { issuedInvoiceIds } from '../invoices/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { PAGE } from './pages.ts';
import {
  CANCELLATION_FIELDS,
  FREQUENCIES,
  POLICIES,
  type PolicyValues,
  policiesView,
  policyValues,
} from './policies.view.ts';
import { sendShell } from './shell.ts';

/** A number as typed, or the text itself: the service's schema then refuses it by name. */
const numberOf = (text: string) => (/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text);

export function policyPages(app: FastifyInstance, deps: Deps): void {
  app.get(POLICIES, PAGE, async (request, reply) => {
    const settings = await getSettings(deps, sessionTenant(request.session));
    return sendShell(request, reply, {
      title: 'Policies',
      content: policiesView(request.session, policyValues(settings), { saved: queryValue(request, 'saved') === '1' }),
    });
  });

  app.post(POLICIES, PAGE, async (request, reply) => {
    const values: PolicyValues = {};
    const frequency_discounts: Record<string, number | string> = {};
    const cancellation_policy: Record<string, number | string> = {};
    for (const [key] of FREQUENCIES) {
      values[`frequency_discounts.${key}`] = formField(request, `frequency_discounts.${key}`).trim().slice(0, 30);
      frequency_discounts[key] = numberOf(values[`frequency_discounts.${key}`] as string);
    }
    for (const [key] of CANCELLATION_FIELDS) {
      values[`cancellation_policy.${key}`] = formField(request, `cancellation_policy.${key}`).trim().slice(0, 30);
      cancellation_policy[key] = numberOf(values[`cancellation_policy.${key}`] as string);
    }
    try {
      const changes = { frequency_discounts, cancellation_policy } as Parameters<typeof updateSettings>[2];
      await updateSettings(deps, sessionTenant(request.session), changes, issuedInvoiceIds);
    } catch (error) {
      return sendShell(request, reply, {
        title: 'Policies',
        status: 400,
        content: policiesView(request.session, values, { error: fieldError(error) }),
      });
    }
    return reply.redirect(`${POLICIES}?saved=1`, 303);
  });
}
