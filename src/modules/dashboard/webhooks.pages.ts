// Settings > Integrations > Webhooks: Add Endpoint (secret shown once), the list with status,
// and each endpoint's detail view with its recent deliveries, Send Test, redeliver, edit,
// rotate secret, disable/enable and delete. Every action is the webhooks module's own service
// function, as the /v1/webhooks routes use, so URL checks (https, public addresses) and event
// names are judged in one place and their errors shown on the form.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { fieldError, formError, formField, formValues, queryValue } from '../../web/forms.ts';
import { html } from '../../web/html.ts';
import { sessionTenant } from '../sessions/index.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  type WebhookView,
} from '../webhooks/index.ts';
import { PAGE, type RecordRequest, recordRoute } from './pages.ts';
import { type Confirmation, integrationsConfirmation, integrationsHeader, sendShell } from './shell.ts';
import {
  CONFIRMATIONS,
  DELIVERIES_SHOWN,
  type EndpointFormValues,
  endpointForm,
  WEBHOOKS,
  webhookListView,
  webhookSecretView,
  webhookView,
} from './webhooks.view.ts';

const ENDPOINT_PAGE = recordRoute('There is no such webhook endpoint in this environment.');

function postedValues(request: FastifyRequest): EndpointFormValues {
  return {
    url: formField(request, 'url').trim().slice(0, 4096),
    description: formField(request, 'description').slice(0, 1000),
    events: formValues(request, 'events').slice(0, 100),
  };
}

export function webhookPages(app: FastifyInstance, deps: Deps): void {
  const endpointOf = (request: RecordRequest) => getWebhook(deps, sessionTenant(request.session), request.params.id);

  /** A confirmation step (rotate secret, delete) for the endpoint in the path. */
  const confirmation =
    (title: string, confirm: (webhook: WebhookView) => Confirmation) =>
    async (request: RecordRequest, reply: FastifyReply) => {
      const webhook = await endpointOf(request);
      const content = integrationsConfirmation(request.session, WEBHOOKS, confirm(webhook));
      return sendShell(request, reply, { title, content });
    };

  app.get(WEBHOOKS, PAGE, async (request, reply) => {
    const list = await listWebhooks(deps, sessionTenant(request.session), { page: 1, per_page: 100 });
    const deleted = Boolean(queryValue(request, 'deleted'));
    return sendShell(request, reply, {
      title: 'Webhooks',
      content: webhookListView(request.session, list.data, deleted),
    });
  });

  app.get(`${WEBHOOKS}/new`, PAGE, async (request, reply) =>
    sendShell(request, reply, {
      title: 'Add Endpoint',
      content: endpointForm(request.session, { url: '', description: '', events: [] }, {}),
    }),
  );

  app.post(WEBHOOKS, PAGE, async (request, reply) => {
    const values = postedValues(request);
    try {
      const created = await createWebhook(deps, sessionTenant(request.session), {
        url: values.url,
        events: values.events,
        ...(values.description.trim() ? { description: values.description.trim() } : {}),
      });
      return sendShell(request, reply, {
        title: 'Endpoint added',
        status: 201,
        content: webhookSecretView(created, created.secret, 'created'),
      });
    } catch (error) {
      return sendShell(request, reply, {
        title: 'Add Endpoint',
        status: 400,
        content: endpointForm(request.session, values, { error: fieldError(error) }),
      });
    }
  });

  app.get<{ Params: { id: string } }>(`${WEBHOOKS}/:id`, ENDPOINT_PAGE, async (request, reply) => {
    const webhook = await endpointOf(request);
    const deliveries = await listDeliveries(deps, sessionTenant(request.session), webhook.id, {
      page: 1,
      per_page: DELIVERIES_SHOWN,
    });
    return sendShell(request, reply, {
      title: `Webhook ${webhook.url}`,
      content: webhookView(request.session, webhook, deliveries, queryValue(request, 'done')),
    });
  });

  app.get<{ Params: { id: string } }>(`${WEBHOOKS}/:id/edit`, ENDPOINT_PAGE, async (request, reply) => {
    const webhook = await endpointOf(request);
    const values = { url: webhook.url, description: webhook.description ?? '', events: webhook.events };
    return sendShell(request, reply, {
      title: 'Edit endpoint',
      content: endpointForm(request.session, values, { webhook }),
    });
  });

  app.post<{ Params: { id: string } }>(`${WEBHOOKS}/:id`, ENDPOINT_PAGE, async (request, reply) => {
    const webhook = await endpointOf(request);
    const values = postedValues(request);
    try {
      await updateWebhook(deps, sessionTenant(request.session), webhook.id, {
        url: values.url,
        events: values.events,
        description: values.description.trim() || null,
      });
    } catch (error) {
      return sendShell(request, reply, {
        title: 'Edit endpoint',
        status: 400,
        content: endpointForm(request.session, values, { webhook, error: fieldError(error) }),
      });
    }
    return reply.redirect(`${WEBHOOKS}/${webhook.id}?done=saved`, 303);
  });

  app.post<{ Params: { id: string } }>(`${WEBHOOKS}/:id/test`, ENDPOINT_PAGE, async (request, reply) => {
    const eventType = formField(request, 'event_type').slice(0, 64);
    try {
      const tenant = sessionTenant(request.session);
      await sendTestEvent(deps, tenant, request.params.id, eventType ? { event_type: eventType } : {});
    } catch (error) {
      return sendShell(request, reply, {
        title: 'Send Test',
        status: 400,
        content: html`${integrationsHeader(WEBHOOKS)}${formError(fieldError(error))}
<p><a href="${WEBHOOKS}/${request.params.id}">Back to the endpoint</a></p>`,
      });
    }
    return reply.redirect(`${WEBHOOKS}/${request.params.id}?done=tested`, 303);
  });

  app.post<{ Params: { id: string; deliveryId: string } }>(
    `${WEBHOOKS}/:id/deliveries/:deliveryId/retry`,
    { ...PAGE, config: { notFound: 'There is no such delivery in this environment.' } },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      await retryDelivery(deps, sessionTenant(request.session), id, deliveryId);
      return reply.redirect(`${WEBHOOKS}/${id}?done=redelivered`, 303);
    },
  );

  app.post<{ Params: { id: string } }>(`${WEBHOOKS}/:id/status`, ENDPOINT_PAGE, async (request, reply) => {
    const status = formField(request, 'status') === 'active' ? 'active' : 'disabled';
    await updateWebhook(deps, sessionTenant(request.session), request.params.id, { status });
    return reply.redirect(`${WEBHOOKS}/${request.params.id}?done=${status === 'active' ? 'enabled' : 'disabled'}`, 303);
  });

  app.get(
    `${WEBHOOKS}/:id/rotate-secret`,
    ENDPOINT_PAGE,
    confirmation('Rotate signing secret', CONFIRMATIONS.rotateSecret),
  );

  app.post<{ Params: { id: string } }>(`${WEBHOOKS}/:id/rotate-secret`, ENDPOINT_PAGE, async (request, reply) => {
    const rotated = await rotateWebhookSecret(deps, sessionTenant(request.session), request.params.id);
    return sendShell(request, reply, {
      title: 'New signing secret',
      content: webhookSecretView(rotated, rotated.secret, 'rotated'),
    });
  });

  app.get(`${WEBHOOKS}/:id/delete`, ENDPOINT_PAGE, confirmation('Delete endpoint', CONFIRMATIONS.delete));

  app.post<{ Params: { id: string } }>(`${WEBHOOKS}/:id/delete`, ENDPOINT_PAGE, async (request, reply) => {
    await deleteWebhook(deps, sessionTenant(request.session), request.params.id);
    return reply.redirect(`${WEBHOOKS}?deleted=1`, 303);
  });
}
