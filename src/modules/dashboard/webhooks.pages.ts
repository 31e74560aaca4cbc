// Settings > Integrations > Webhooks: Add Endpoint (secret shown once), the list with status,
// and each endpoint's detail view with its recent deliveries, Send Test, redeliver, edit,
// rotate secret, disable/enable and delete. Every action is the webhooks module's own service
// function, as the /v1/webhooks routes use, so URL checks (https, public addresses) and event
// names are judged in one place and their errors shown on the form.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { EVENT_TYPES } from '../events/index.ts';
import {
  formField,
  html,
  requireFormSession,
  requireSession,
  type SafeHtml,
  type Session,
  sessionTenant,
} from '../sessions/index.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  subscribes,
  updateWebhook,
  type WebhookDeliveryView,
  type WebhookView,
} from '../webhooks/index.ts';
import { csrfField, integrationsHeader, queryValue, sendShell, when } from './dashboard.layout.ts';
import { confirmForm, formError, formValues, orNotFound, shownOnceSecret, validationError } from './forms.ts';

const BASE = '/dashboard/settings/integrations/webhooks';
const NOT_FOUND = 'There is no such webhook endpoint in this environment.';
const DELIVERIES_SHOWN = 25;

const RESOURCES: { name: string; label: string }[] = [
  { name: 'booking', label: 'Bookings' },
  { name: 'customer', label: 'Customers' },
  { name: 'invoice', label: 'Invoices' },
  { name: 'payment', label: 'Payments' },
];

interface EndpointFormValues {
  url: string;
  description: string;
  events: string[];
}

function statusBadge(webhook: WebhookView): SafeHtml {
  if (webhook.status === 'active') return html`<span class="badge ok">Active</span>`;
  const why: Record<string, string> = {
    manual: 'disabled by an admin',
    gone: 'the endpoint answered 410 Gone',
    failing: 'failing for 5 days',
  };
  return html`<span class="badge bad" title="${why[webhook.disabled_reason ?? ''] ?? ''}">Disabled</span>`;
}

function deliveryBadge(status: string): SafeHtml {
  const tone: Record<string, string> = { succeeded: 'ok', failed: 'bad', pending: 'warn' };
  const label: Record<string, string> = { succeeded: 'Succeeded', failed: 'Failed', pending: 'Pending' };
  return html`<span class="badge ${tone[status] ?? 'muted'}">${label[status] ?? status}</span>`;
}

function eventsSummary(events: string[]): string {
  if (events.includes('*')) return 'All events';
  return events.length > 3 ? `${events.slice(0, 3).join(', ')} and ${events.length - 3} more` : events.join(', ');
}

function endpointTable(endpoints: WebhookView[], session: Session): SafeHtml {
  if (endpoints.length === 0) {
    return html`<div class="table-wrap"><div class="empty"><strong>No ${session.environment} webhook endpoints yet</strong>
      Add an endpoint to be told when bookings, customers, invoices and payments change.</div></div>`;
  }
  const rows = endpoints.map(
    (endpoint) => html`<tr data-webhook-id="${endpoint.id}">
  <td class="url-cell"><a href="${BASE}/${endpoint.id}"><strong class="mono">${endpoint.url}</strong></a>${
    endpoint.description ? html`<div class="hint">${endpoint.description}</div>` : null
  }</td>
  <td class="hide-narrow">${eventsSummary(endpoint.events)}</td>
  <td>${statusBadge(endpoint)}</td>
  <td class="hide-narrow">${when(endpoint.created_at)}</td>
</tr>`,
  );
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">Webhook endpoints</caption>
  <thead><tr><th scope="col">Endpoint</th><th scope="col" class="hide-narrow">Events</th><th scope="col">Status</th>
    <th scope="col" class="hide-narrow">Created</th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}

function eventCheckbox(value: string, label: SafeHtml | string, checked: boolean): SafeHtml {
  return html`<label class="choice"><input type="checkbox" name="events" value="${value}" ${checked ? html`checked` : null}> <span>${label}</span></label>`;
}

function endpointForm(
  session: Session,
  values: EndpointFormValues,
  options: { webhook?: WebhookView; error?: { param?: string; message: string } },
): SafeHtml {
  const { webhook, error } = options;
  const selected = new Set(values.events);
  const invalid = (param: string) =>
    error?.param === param ? html`aria-invalid="true" aria-errormessage="form-error"` : null;
  return html`<form class="panel narrow-form" method="post" action="${webhook ? `${BASE}/${webhook.id}` : BASE}" id="endpoint-form">
  <h2>${webhook ? 'Edit endpoint' : 'Add Endpoint'}</h2>
  ${formError(error?.message)}
  ${csrfField(session)}
  <div class="field">
    <label for="endpoint-url">Endpoint URL</label>
    <input id="endpoint-url" name="url" type="url" maxlength="2048" required placeholder="https://example.com/webhooks/fieldhand"
      value="${values.url}" ${invalid('url')} aria-describedby="endpoint-url-hint" spellcheck="false">
    <span class="hint" id="endpoint-url-hint">An https URL on the public Internet that answers 2xx within 30 seconds.</span>
  </div>
  <div class="field">
    <label for="endpoint-description">Description</label>
    <input id="endpoint-description" name="description" type="text" maxlength="500" value="${values.description}" ${invalid('description')}>
  </div>
  <fieldset class="events" ${invalid('events')}>
    <legend>Events to send</legend>
    ${eventCheckbox('*', html`<strong>All events</strong> <code>*</code>`, selected.has('*'))}
    <div class="event-groups">
    ${RESOURCES.map(
      (resource) => html`<fieldset>
      <legend>${resource.label}</legend>
      ${eventCheckbox(`${resource.name}.*`, html`All ${resource.name} events <code>${resource.name}.*</code>`, selected.has(`${resource.name}.*`))}
      ${EVENT_TYPES.filter((type) => type.startsWith(`${resource.name}.`)).map((type) =>
        eventCheckbox(type, html`<code>${type}</code>`, selected.has(type)),
      )}
    </fieldset>`,
    )}
    </div>
  </fieldset>
  <div class="actions">
    <button type="submit">${webhook ? 'Save changes' : 'Create'}</button>
    <a class="button secondary" href="${webhook ? `${BASE}/${webhook.id}` : BASE}">Cancel</a>
  </div>
</form>`;
}

function postedValues(request: FastifyRequest): EndpointFormValues {
  return {
    url: formField(request, 'url').trim().slice(0, 4096),
    description: formField(request, 'description').slice(0, 1000),
    events: formValues(request, 'events').slice(0, 100),
  };
}

function endpointProblem(values: EndpointFormValues): { param: string; message: string } | null {
  if (!values.url) return { param: 'url', message: 'Enter the URL to send events to.' };
  if (values.url.length > 2048) return { param: 'url', message: 'The URL can be at most 2048 characters.' };
  if (values.events.length === 0) return { param: 'events', message: 'Choose at least one event.' };
  if (values.description.length > 500) {
    return { param: 'description', message: 'The description can be at most 500 characters.' };
  }
  return null;
}

function deliveryRows(webhook: WebhookView, deliveries: WebhookDeliveryView[], session: Session): SafeHtml {
  if (deliveries.length === 0) {
    return html`<div class="table-wrap"><div class="empty"><strong>No deliveries yet</strong>
      Use Send Test to send a sample event now.</div></div>`;
  }
  const rows = deliveries.map(
    (delivery) => html`<tr data-delivery-id="${delivery.id}">
  <td><code title="Event ${delivery.event_id}">${delivery.event_type}</code></td>
  <td class="num hide-narrow">${delivery.attempt}</td>
  <td>${deliveryBadge(delivery.status)}</td>
  <td class="num" data-label="Response code">${delivery.response_code ?? '—'}</td>
  <td class="num hide-narrow">${delivery.response_time_ms === null ? '—' : `${delivery.response_time_ms} ms`}</td>
  <td class="error-cell">${
    delivery.error
      ? html`<strong>${delivery.error.type}</strong><div class="hint">${delivery.error.message}</div>`
      : html`<span class="hint">—</span>`
  }${delivery.next_attempt_at ? html`<div class="hint">Next attempt ${when(delivery.next_attempt_at)}</div>` : null}</td>
  <td class="hide-narrow">${when(delivery.attempted_at, 'Not yet')}</td>
  <td class="num">${
    delivery.status === 'pending'
      ? null
      : html`<form method="post" action="${BASE}/${webhook.id}/deliveries/${delivery.id}/retry">${csrfField(session)}
      <button type="submit" class="link small" aria-label="Redeliver ${delivery.event_type} (attempt ${delivery.attempt})">Redeliver</button></form>`
  }</td>
</tr>`,
  );
  return html`<div class="table-wrap"><table class="deliveries">
  <caption class="visually-hidden">Recent deliveries</caption>
  <thead><tr><th scope="col">Event</th><th scope="col" class="num hide-narrow">Attempt</th><th scope="col">Status</th>
    <th scope="col" class="num">Response</th><th scope="col" class="num hide-narrow">Time</th><th scope="col">Error</th>
    <th scope="col" class="hide-narrow">Attempted</th><th scope="col" class="num"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`;
}

export function webhookPages(app: FastifyInstance, deps: Deps): void {
  const load = (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, session: Session) =>
    orNotFound(request, reply, session, NOT_FOUND, () => getWebhook(deps, sessionTenant(session), request.params.id));

  app.get(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const list = await listWebhooks(deps, sessionTenant(session), { page: 1, per_page: 100 });
    const deleted = queryValue(request, 'deleted');
    return sendShell(request, reply, session, {
      title: 'Webhooks',
      content: html`${integrationsHeader(BASE, html`<a class="button" href="${BASE}/new">Add Endpoint</a>`)}
${deleted ? html`<div class="alert success" role="status">The endpoint was deleted. No more events are sent to it.</div>` : null}
<p class="hint">Fieldhand POSTs an event to each endpoint subscribed to it, signed as the
  <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specification says, and retries for up to three days.</p>
${endpointTable(list.data, session)}`,
    });
  });

  app.get(`${BASE}/new`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    return sendShell(request, reply, session, {
      title: 'Add Endpoint',
      content: html`${integrationsHeader(BASE)}${endpointForm(session, { url: '', description: '', events: [] }, {})}`,
    });
  });

  app.post(BASE, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const values = postedValues(request);
    const showError = (error: { param?: string; message: string }) =>
      sendShell(request, reply, session, {
        title: 'Add Endpoint',
        status: 400,
        content: html`${integrationsHeader(BASE)}${endpointForm(session, values, { error })}`,
      });
    const problem = endpointProblem(values);
    if (problem) return showError(problem);
    try {
      const created = await createWebhook(deps, sessionTenant(session), {
        url: values.url,
        events: values.events,
        ...(values.description.trim() ? { description: values.description.trim() } : {}),
      });
      return showSecret(request, reply, session, created, created.secret, 'created');
    } catch (error) {
      const failure = validationError(error);
      if (failure) return showError(failure);
      throw error;
    }
  });

  app.get<{ Params: { id: string } }>(`${BASE}/:id`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const found = await load(request, reply, session);
    if (!found.found) return found.reply;
    const webhook = found.value;
    const deliveries = await listDeliveries(deps, sessionTenant(session), webhook.id, {
      page: 1,
      per_page: DELIVERIES_SHOWN,
    });
    const notices: Record<string, string> = {
      tested: 'A test event was queued; its delivery appears below within seconds (refresh to update).',
      redelivered: 'The event was queued for redelivery.',
      saved: 'Your changes were saved.',
      disabled: 'The endpoint is disabled: no events are sent to it until you enable it.',
      enabled: 'The endpoint is enabled again.',
    };
    const notice = notices[queryValue(request, 'done')];
    const active = webhook.status === 'active';
    return sendShell(request, reply, session, {
      title: `Webhook ${webhook.url}`,
      content: html`${integrationsHeader(BASE)}
<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="${BASE}">Webhooks</a> / <span class="mono">${webhook.id}</span></nav>
${notice ? html`<div class="alert success" role="status">${notice}</div>` : null}
<section class="panel" aria-labelledby="endpoint-title">
  <h2 id="endpoint-title" class="mono url-heading">${webhook.url}</h2>
  <dl class="details">
    <dt>Status</dt><dd>${statusBadge(webhook)}</dd>
    ${webhook.description ? html`<dt>Description</dt><dd>${webhook.description}</dd>` : null}
    <dt>Events</dt><dd>${webhook.events.map((event) => html`<code class="tag">${event}</code> `)}</dd>
    <dt>Created</dt><dd>${when(webhook.created_at)}</dd>
    <dt>ID</dt><dd class="mono">${webhook.id}</dd>
  </dl>
  <div class="actions">
    <form class="send-test" method="post" action="${BASE}/${webhook.id}/test">${csrfField(session)}
      <label class="visually-hidden" for="test-event-type">Test event</label>
      <select id="test-event-type" name="event_type">${EVENT_TYPES.filter((type) =>
        subscribes(webhook.events, type),
      ).map((type) => html`<option value="${type}">${type}</option>`)}</select>
      <button type="submit">Send Test</button></form>
    <a class="button secondary" href="${BASE}/${webhook.id}/edit">Edit</a>
    <a class="button secondary" href="${BASE}/${webhook.id}/rotate-secret">Rotate secret</a>
    <form method="post" action="${BASE}/${webhook.id}/status">${csrfField(session)}
      <input type="hidden" name="status" value="${active ? 'disabled' : 'active'}">
      <button type="submit" class="secondary">${active ? 'Disable' : 'Enable'}</button></form>
    <a class="button link danger" href="${BASE}/${webhook.id}/delete">Delete</a>
  </div>
</section>
<div class="section-header">
  <h2 id="deliveries-title">Recent deliveries</h2>
  <a class="button secondary small" href="${BASE}/${webhook.id}">Refresh</a>
</div>
<p class="hint">One row per attempt, newest first${
        deliveries.pagination.total > DELIVERIES_SHOWN
          ? ` (the latest ${DELIVERIES_SHOWN} of ${deliveries.pagination.total})`
          : ''
      }.</p>
${deliveryRows(webhook, deliveries.data, session)}`,
    });
  });

  app.get<{ Params: { id: string } }>(`${BASE}/:id/edit`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const found = await load(request, reply, session);
    if (!found.found) return found.reply;
    const webhook = found.value;
    const values = { url: webhook.url, description: webhook.description ?? '', events: webhook.events };
    return sendShell(request, reply, session, {
      title: 'Edit endpoint',
      content: html`${integrationsHeader(BASE)}${endpointForm(session, values, { webhook })}`,
    });
  });

  app.post<{ Params: { id: string } }>(`${BASE}/:id`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const found = await load(request, reply, session);
    if (!found.found) return found.reply;
    const webhook = found.value;
    const values = postedValues(request);
    const showError = (error: { param?: string; message: string }) =>
      sendShell(request, reply, session, {
        title: 'Edit endpoint',
        status: 400,
        content: html`${integrationsHeader(BASE)}${endpointForm(session, values, { webhook, error })}`,
      });
    const problem = endpointProblem(values);
    if (problem) return showError(problem);
    try {
      await updateWebhook(deps, sessionTenant(session), webhook.id, {
        url: values.url,
        events: values.events,
        description: values.description.trim() || null,
      });
    } catch (error) {
      const failure = validationError(error);
      if (failure) return showError(failure);
      throw error;
    }
    return reply.redirect(`${BASE}/${webhook.id}?done=saved`, 303);
  });

  app.post<{ Params: { id: string } }>(`${BASE}/:id/test`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const eventType = formField(request, 'event_type').slice(0, 64);
    try {
      const found = await orNotFound(request, reply, session, NOT_FOUND, () =>
        sendTestEvent(deps, sessionTenant(session), request.params.id, eventType ? { event_type: eventType } : {}),
      );
      if (!found.found) return found.reply;
    } catch (error) {
      const failure = validationError(error);
      if (!failure) throw error;
      return sendShell(request, reply, session, {
        title: 'Send Test',
        status: 400,
        content: html`${integrationsHeader(BASE)}${formError(failure.message)}
<p><a href="${BASE}/${request.params.id}">Back to the endpoint</a></p>`,
      });
    }
    return reply.redirect(`${BASE}/${request.params.id}?done=tested`, 303);
  });

  app.post<{ Params: { id: string; deliveryId: string } }>(
    `${BASE}/:id/deliveries/:deliveryId/retry`,
    { schema: { hide: true } },
    async (request, reply) => {
      const session = await requireFormSession(deps, request, reply);
      if (!session) return reply;
      const found = await orNotFound(request, reply, session, 'There is no such delivery in this environment.', () =>
        retryDelivery(deps, sessionTenant(session), request.params.id, request.params.deliveryId),
      );
      if (!found.found) return found.reply;
      return reply.redirect(`${BASE}/${request.params.id}?done=redelivered`, 303);
    },
  );

  app.post<{ Params: { id: string } }>(`${BASE}/:id/status`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const status = formField(request, 'status') === 'active' ? 'active' : 'disabled';
    const found = await orNotFound(request, reply, session, NOT_FOUND, () =>
      updateWebhook(deps, sessionTenant(session), request.params.id, { status }),
    );
    if (!found.found) return found.reply;
    return reply.redirect(`${BASE}/${request.params.id}?done=${status === 'active' ? 'enabled' : 'disabled'}`, 303);
  });

  app.get<{ Params: { id: string } }>(
    `${BASE}/:id/rotate-secret`,
    { schema: { hide: true } },
    async (request, reply) => {
      const session = await requireSession(deps, request, reply);
      if (!session) return reply;
      const found = await load(request, reply, session);
      if (!found.found) return found.reply;
      return sendShell(request, reply, session, {
        title: 'Rotate signing secret',
        content: html`${integrationsHeader(BASE)}${confirmForm(session, {
          action: `${BASE}/${found.value.id}/rotate-secret`,
          title: `Rotate the signing secret of ${found.value.url}?`,
          warning:
            'A new secret is issued. For the next 24 hours every event carries signatures with both the old and the new secret, so you can switch your receiver over without missing events.',
          button: 'Rotate secret',
          cancelHref: `${BASE}/${found.value.id}`,
        })}`,
      });
    },
  );

  app.post<{ Params: { id: string } }>(
    `${BASE}/:id/rotate-secret`,
    { schema: { hide: true } },
    async (request, reply) => {
      const session = await requireFormSession(deps, request, reply);
      if (!session) return reply;
      const found = await orNotFound(request, reply, session, NOT_FOUND, () =>
        rotateWebhookSecret(deps, sessionTenant(session), request.params.id),
      );
      if (!found.found) return found.reply;
      return showSecret(request, reply, session, found.value, found.value.secret, 'rotated');
    },
  );

  app.get<{ Params: { id: string } }>(`${BASE}/:id/delete`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const found = await load(request, reply, session);
    if (!found.found) return found.reply;
    return sendShell(request, reply, session, {
      title: 'Delete endpoint',
      content: html`${integrationsHeader(BASE)}${confirmForm(session, {
        action: `${BASE}/${found.value.id}/delete`,
        title: `Delete the endpoint ${found.value.url}?`,
        warning: 'No more events are sent to it, and its delivery history is removed. This cannot be undone.',
        button: 'Delete endpoint',
        cancelHref: `${BASE}/${found.value.id}`,
      })}`,
    });
  });

  app.post<{ Params: { id: string } }>(`${BASE}/:id/delete`, { schema: { hide: true } }, async (request, reply) => {
    const session = await requireFormSession(deps, request, reply);
    if (!session) return reply;
    const found = await orNotFound(request, reply, session, NOT_FOUND, () =>
      deleteWebhook(deps, sessionTenant(session), request.params.id),
    );
    if (!found.found) return found.reply;
    return reply.redirect(`${BASE}?deleted=1`, 303);
  });
}

function showSecret(
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  webhook: WebhookView,
  secret: string,
  what: 'created' | 'rotated',
) {
  return sendShell(request, reply, session, {
    title: what === 'created' ? 'Endpoint added' : 'New signing secret',
    status: what === 'created' ? 201 : 200,
    content: html`${integrationsHeader(BASE)}
<section class="panel" aria-labelledby="secret-title">
  <h2 id="secret-title">${what === 'created' ? 'Endpoint added' : 'New signing secret'}: <span class="mono">${webhook.url}</span></h2>
  <div class="alert warning" role="status">Copy the signing secret now and keep it with your receiver: you need it to
    verify the <code>webhook-signature</code> header. For your security it will not be shown again.</div>
  ${shownOnceSecret({ id: 'webhook-secret-value', label: 'Signing secret', value: secret, dataId: webhook.id })}
  ${
    what === 'rotated'
      ? html`<p class="hint">The old secret keeps signing alongside the new one for 24 hours.</p>`
      : null
  }
  <div class="actions"><a class="button" href="${BASE}/${webhook.id}">Done</a></div>
</section>`,
  });
}
