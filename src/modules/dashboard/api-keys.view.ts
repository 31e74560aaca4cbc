// Settings > Integrations > API Keys: the list, the Generate New Key form, the new key (shown
// once) and the revoke confirmation.
import type { Environment } from '../../core/tenant.ts';
import { errorNextTo, type FieldError, formError, invalidIf, shownOnceSecret } from '../../web/forms.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { when } from '../../web/widgets.ts';
import type { ApiKeyView } from '../accounts/index.ts';
import type { Session } from '../sessions/index.ts';
import { csrfField, environmentBadge, integrationsConfirmation, integrationsHeader } from './shell.ts';

export const API_KEYS = '/dashboard/settings/integrations/api-keys';
export const NAME_MAX = 100;

export type ApiKey = ApiKeyView;

export function apiKeyListView(keys: ApiKey[], environment: Environment, revoked: boolean): SafeHtml {
  return html`${integrationsHeader(API_KEYS, html`<a class="button" href="${API_KEYS}/new">Generate New Key</a>`)}
${revoked ? html`<div class="alert success" role="status">The key was revoked. Requests that use it are now refused.</div>` : null}
<p class="hint">API keys give full access to your ${environment} data. Keep them secret: use them only from servers, never in a browser or app.</p>
${keyTable(keys, environment)}`;
}

function keyRow(key: ApiKey): SafeHtml {
  const revoked = key.revoked_at !== null;
  return html`<tr data-key-id="${key.id}">
  <td><strong>${key.name || 'Untitled key'}</strong></td>
  <td class="hide-narrow">${environmentBadge(key.environment)}</td>
  <td class="mono"><span class="hide-narrow">svc_${key.environment}_sk_</span>…${key.last4}</td>
  <td class="hide-narrow">${when(key.created_at)}</td>
  <td class="hide-narrow">${when(key.last_used_at)}</td>
  <td>${
    revoked
      ? html`<span class="badge muted" title="Revoked ${key.revoked_at ?? ''}">Revoked</span>`
      : html`<span class="badge ok">Active</span>`
  }</td>
  <td class="num">${
    revoked
      ? null
      : html`<a class="button link danger small" href="${API_KEYS}/${key.id}/revoke" aria-label="Revoke ${key.name || 'key'} ending in ${key.last4}">Revoke</a>`
  }</td>
</tr>`;
}

function keyTable(keys: ApiKey[], environment: Environment): SafeHtml {
  if (keys.length === 0) {
    return html`<div class="table-wrap"><div class="empty"><strong>No ${environment} API keys yet</strong>
      Generate a key to call the API from your own software.</div></div>`;
  }
  return html`<div class="table-wrap"><table>
  <caption class="visually-hidden">${environment === 'live' ? 'Live' : 'Test'} API keys</caption>
  <thead><tr><th scope="col">Name</th><th scope="col" class="hide-narrow">Environment</th><th scope="col">Key</th>
    <th scope="col" class="hide-narrow">Created</th><th scope="col" class="hide-narrow">Last used</th>
    <th scope="col">Status</th><th scope="col" class="num"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${keys.map(keyRow)}</tbody>
</table></div>`;
}

/** Generate New Key, empty or as posted with what was wrong with it. */
export function newKeyForm(
  session: Session,
  values: { name?: string; environment?: Environment },
  error?: FieldError,
): SafeHtml {
  const environment = values.environment ?? session.environment;
  const radio = (value: Environment, label: string, hint: string) =>
    html`<label class="choice"><input type="radio" name="environment" value="${value}" ${
      environment === value ? html`checked` : null
    }> <span><strong>${label}</strong> <span class="hint">${hint}</span></span></label>`;
  return html`${integrationsHeader(API_KEYS)}<form class="panel narrow-form" method="post" action="${API_KEYS}" id="new-key-form">
  <h2>Generate New Key</h2>
  ${formError(error, ['name', 'environment'])}
  ${csrfField(session)}
  <div class="field">
    <label for="key-name">Name</label>
    <input id="key-name" name="name" type="text" maxlength="${NAME_MAX}" required autofocus
      value="${values.name ?? ''}" aria-describedby="key-name-hint" ${invalidIf(error, 'name')}>
    ${errorNextTo(error, 'name')}
    <span class="hint" id="key-name-hint">So you can tell your keys apart, e.g. "Website booking form".</span>
  </div>
  <fieldset ${invalidIf(error, 'environment')}>
    <legend>Environment</legend>
    ${errorNextTo(error, 'environment')}
    ${radio('test', 'Test', 'for development; uses test data only')}
    ${radio('live', 'Live', 'for production; real customers and payments')}
  </fieldset>
  <div class="actions">
    <button type="submit">Generate key</button>
    <a class="button secondary" href="${API_KEYS}">Cancel</a>
  </div>
</form>`;
}

export function newKeyView(
  created: { id: string; key: string; environment: Environment; name: string },
  environment: Environment,
): SafeHtml {
  const otherEnvironment = created.environment !== environment;
  return html`${integrationsHeader(API_KEYS)}
<section class="panel" aria-labelledby="new-key-title">
  <h2 id="new-key-title">Your new ${created.environment} key “${created.name}”</h2>
  <div class="alert warning" role="status">Copy the key now and keep it somewhere safe. For your security it will
    not be shown again.</div>
  ${shownOnceSecret({ id: 'new-key-value', label: 'Secret key', value: created.key, dataId: created.id })}
  ${
    otherEnvironment
      ? html`<p class="hint">This key is for the ${created.environment} environment; switch to ${created.environment === 'live' ? 'Live' : 'Test'} to see it in the list.</p>`
      : null
  }
  <div class="actions"><a class="button" href="${API_KEYS}">Done</a></div>
</section>`;
}

export function revokeKeyView(session: Session, key: ApiKey): SafeHtml {
  return integrationsConfirmation(session, API_KEYS, {
    action: `${API_KEYS}/${key.id}/revoke`,
    title: `Revoke “${key.name || 'Untitled key'}”?`,
    warning: html`Anything using the key ending in <code>${key.last4}</code>
    (${key.environment}) will stop working at once. This cannot be undone.`,
    button: 'Revoke key',
    cancelHref: API_KEYS,
  });
}
