// The pages of the authorization endpoint: consent (app, logo, environment, scopes in plain
// words, approve/deny) and the errors that must be shown rather than sent to the app.
import { html, type SafeHtml } from '../../web/html.ts';
import { layout, messagePage } from '../../web/page.ts';
import type { AuthorizationRequest } from './authorize.service.ts';
import { SCOPE_DESCRIPTIONS } from './scopes.ts';

export interface ConsentPageInput {
  request: AuthorizationRequest;
  csrfToken: string;
  user: { email: string; accountName: string };
  /** The request's parameters, echoed in hidden fields and checked again on submit. */
  params: Record<string, string>;
}

function appLogo(request: AuthorizationRequest): SafeHtml {
  // logo_url is a data: URL checked at registration (image types only); the page's CSP allows data: images
  return request.app.logo_url
    ? html`<img class="app-logo" src="${request.app.logo_url}" alt="${request.app.name} logo" width="56" height="56">`
    : html`<span class="brand-mark" aria-hidden="true"></span>`;
}

export function consentPage(input: ConsentPageInput): SafeHtml {
  const { request } = input;
  const live = request.app.environment === 'live';
  const destination = new URL(request.redirectUri);
  const hidden = Object.entries(input.params).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return layout({
    title: `Connect ${request.app.name}`,
    bodyClass: 'centered',
    body: html`<main class="card narrow" id="main">
  <div class="brand">${appLogo(request)}</div>
  <h1>${request.app.name} wants to access your Fieldhand account</h1>
  ${request.app.description ? html`<p class="lead">${request.app.description}</p>` : null}
  <p>
    <span class="badge ${live ? 'live' : 'test'}" id="consent-environment">${live ? 'Live data' : 'Test data'}</span>
    ${live ? 'It will work with your real business data.' : 'It will see only your test environment, never live data.'}
  </p>
  <p>Signed in as <strong>${input.user.email}</strong> (${input.user.accountName}).</p>
  <p class="label">It will be able to:</p>
  <ul id="consent-scopes">
    ${request.scopes.map((scope) => html`<li data-scope="${scope}">${SCOPE_DESCRIPTIONS[scope]}</li>`)}
  </ul>
  <p class="hint">After you choose, you will go back to ${destination.protocol === 'https:' || destination.protocol === 'http:' ? destination.host : destination.protocol}.
    You can disconnect the app at any time under Settings &gt; Connected apps.</p>
  <form method="post" action="/oauth/authorize">
    <input type="hidden" name="_csrf" value="${input.csrfToken}">
    ${hidden}
    <div class="actions">
      <button type="submit" name="decision" value="approve">Allow access</button>
      <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
    </div>
  </form>
</main>`,
  });
}

export function authorizationErrorPage(message: string): SafeHtml {
  return messagePage(
    'This app cannot be connected',
    html`${message} Nothing was shared. Contact the app's developer if this keeps happening.`,
  );
}

export function wrongAccountPage(user: { email: string }, appName: string): SafeHtml {
  return messagePage(
    'Wrong account',
    html`You are signed in as ${user.email}, who is not a user of the business that registered ${appName}. Sign out and sign in as a user of that business.`,
    { href: '/dashboard', label: 'Go to the dashboard' },
  );
}

export function sessionExpiredPage(): SafeHtml {
  return messagePage('Your sign-in expired', 'Nothing was shared. Go back to the app and connect it again.');
}
