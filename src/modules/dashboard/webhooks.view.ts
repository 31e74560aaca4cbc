// Settings > Integrations > Webhooks: the endpoint list, the Add/Edit form (with the events to
// choose from), an endpoint with its recent deliveries and actions, the signing secret shown once.
import type { Pagination } from '../../core/paging.ts';
import { errorNextTo, type FieldError, formError, invalidIf, shownOnceSecret } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { when } from '../../web/widgets.ts';
import { EVENT_TYPES } from '../events/index.ts';
import type { Session } from '../sessions/index.ts';
import { subscribes, type WebhookDeliveryView, type WebhookView } from '../webhooks/index.ts';
import { confirmationOn, csrfField, formButtons, integrationsHeader, shownOncePage } from './shell.ts';

export const WEBHOOKS = '/dashboard/settings/integrations/webhooks';
export const DELIVERIES_SHOWN = 25;

const RESOURCES: { name: string; label: string }[] = [
  { name: 'booking', label: 'Bookings' },
  { name: 'customer', label: 'Customers' },
  { name: 'invoice', label: 'Invoices' },
  { name: 'payment', label: 'Payments' },
];

export interface EndpointFormValues {
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
  <td class="url-cell"><a href="${WEBHOOKS}/${endpoint.id}"><strong class="mono">${endpoint.url}</strong></a>${
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

/** Add Endpoint (no webhook yet) or the edit form of `webhook`, with a service's error if any. */
export function endpointForm(
  session: Session,
  values: EndpointFormValues,
  options: { webhook?: WebhookView; error?: FieldError },
): SafeHtml {
  const { webhook, error } = options;
  const selected = new Set(values.events);
  return html`${integrationsHeader(WEBHOOKS)}
<form class="panel narrow-form" method="post" action="${webhook ? `${WEBHOOKS}/${webhook.id}` : WEBHOOKS}" id="endpoint-form">
  <h2>${webhook ? 'Edit endpoint' : 'Add Endpoint'}</h2>
  ${formError(error, ['url', 'description', 'events'])}
  ${csrfField(session)}
  <div class="field">
    <label for="endpoint-url">Endpoint URL</label>
    <input id="endpoint-url" name="url" type="url" maxlength="2048" required placeholder="https://example.com/webhooks/fieldhand"
      value="${values.url}" ${invalidIf(error, 'url')} aria-describedby="endpoint-url-hint" spellcheck="false">
    ${errorNextTo(error, 'url')}
    <span class="hint" id="endpoint-url-hint">An https URL on the public Internet that answers 2xx within 30 seconds.</span>
  </div>
  <div class="field">
    <label for="endpoint-description">Description</label>
    <input id="endpoint-description" name="description" type="text" maxlength="500" value="${values.description}" ${invalidIf(error, 'description')}>
    ${errorNextTo(error, 'description')}
  </div>
  <fieldset class="events" ${invalidIf(error, 'events')}>
    <legend>Events to send</legend>
    ${errorNextTo(error, 'events')}
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
  ${formButtons({ editing: Boolean(webhook), add: 'Create', cancel: webhook ? `${WEBHOOKS}/${webhook.id}` : WEBHOOKS })}
</form>`;
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
      : html`<form method="post" action="${WEBHOOKS}/${webhook.id}/deliveries/${delivery.id}/retry">${csrfField(session)}
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

export function webhookListView(session: Session, endpoints: WebhookView[], deleted: boolean): SafeHtml {
  return html`${integrationsHeader(WEBHOOKS, html`<a class="button" href="${WEBHOOKS}/new">Add Endpoint</a>`)}
${deleted ? html`<div class="alert success" role="status">The endpoint was deleted. No more events are sent to it.</div>` : null}
<p class="hint">Fieldhand POSTs an event to each endpoint subscribed to it, signed as the
  <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specification says, and retries for up to three days.</p>
${endpointTable(endpoints, session)}`;
}

const NOTICES: Record<string, string> = {
  tested: 'A test event was queued; its delivery appears below within seconds (refresh to update).',
  redelivered: 'The event was queued for redelivery.',
  saved: 'Your changes were saved.',
  disabled: 'The endpoint is disabled: no events are sent to it until you enable it.',
  enabled: 'The endpoint is enabled again.',
};

/** An endpoint, its actions and its latest deliveries; `done` names what was just done. */
export function webhookView(
  session: Session,
  webhook: WebhookView,
  deliveries: { data: WebhookDeliveryView[]; pagination: Pagination },
  done: string,
): SafeHtml {
  const notice = NOTICES[done];
  const active = webhook.status === 'active';
  return html`${integrationsHeader(WEBHOOKS)}
<nav class="breadcrumbs" aria-label="Breadcrumb"><a href="${WEBHOOKS}">Webhooks</a> / <span class="mono">${webhook.id}</span></nav>
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
    <form class="send-test" method="post" action="${WEBHOOKS}/${webhook.id}/test">${csrfField(session)}
      <label class="visually-hidden" for="test-event-type">Test event</label>
      <select id="test-event-type" name="event_type">${EVENT_TYPES.filter((type) =>
        subscribes(webhook.events, type),
      ).map((type) => html`<option value="${type}">${type}</option>`)}</select>
      <button type="submit">Send Test</button></form>
    <a class="button secondary" href="${WEBHOOKS}/${webhook.id}/edit">Edit</a>
    <a class="button secondary" href="${WEBHOOKS}/${webhook.id}/rotate-secret">Rotate secret</a>
    <form method="post" action="${WEBHOOKS}/${webhook.id}/status">${csrfField(session)}
      <input type="hidden" name="status" value="${active ? 'disabled' : 'active'}">
      <button type="submit" class="secondary">${active ? 'Disable' : 'Enable'}</button></form>
    <a class="button link danger" href="${WEBHOOKS}/${webhook.id}/delete">Delete</a>
  </div>
</section>
<div class="section-header">
  <h2 id="deliveries-title">Recent deliveries</h2>
  <a class="button secondary small" href="${WEBHOOKS}/${webhook.id}">Refresh</a>
</div>
<p class="hint">One row per attempt, newest first${
    deliveries.pagination.total > DELIVERIES_SHOWN
      ? ` (the latest ${DELIVERIES_SHOWN} of ${deliveries.pagination.total})`
      : ''
  }.</p>
${deliveryRows(webhook, deliveries.data, session)}`;
}

/** The signing secret, shown once: after Add Endpoint or Rotate secret. */
export function webhookSecretView(webhook: WebhookView, secret: string, what: 'created' | 'rotated'): SafeHtml {
  return shownOncePage(WEBHOOKS, {
    id: 'secret-title',
    title: html`${what === 'created' ? 'Endpoint added' : 'New signing secret'}: <span class="mono">${webhook.url}</span>`,
    content: html`<div class="alert warning" role="status">Copy the signing secret now and keep it with your receiver: you need it to
    verify the <code>webhook-signature</code> header. For your security it will not be shown again.</div>
  ${shownOnceSecret({ id: 'webhook-secret-value', label: 'Signing secret', value: secret, dataId: webhook.id })}
  ${
    what === 'rotated'
      ? html`<p class="hint">The old secret keeps signing alongside the new one for 24 hours.</p>`
      : null
  }`,
    done: `${WEBHOOKS}/${webhook.id}`,
  });
}

/** The confirmation steps of the endpoint's actions that cannot be undone. */
export const CONFIRMATIONS = {
  rotateSecret: (webhook: WebhookView) =>
    confirmationOn(`${WEBHOOKS}/${webhook.id}`, 'rotate-secret', {
      title: `Rotate the signing secret of ${webhook.url}?`,
      warning:
        'A new secret is issued. For the next 24 hours every event carries signatures with both the old and the new secret, so you can switch your receiver over without missing events.',
      button: 'Rotate secret',
    }),
  delete: (webhook: WebhookView) =>
    confirmationOn(`${WEBHOOKS}/${webhook.id}`, 'delete', {
      title: `Delete the endpoint ${webhook.url}?`,
      warning: 'No more events are sent to it, and its delivery history is removed. This cannot be undone.',
      button: 'Delete endpoint',
    }),
};
