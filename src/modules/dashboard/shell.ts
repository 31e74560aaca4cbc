// The dashboard's frame: navigation, the test/live switch (always visible), the signed-in
// user and sign-out, around each page's content; and the pieces of pages that need the session
// (the CSRF field of every form, confirmation steps, the framed 404).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../web/html.ts';
import { layout, sendPage } from '../../web/page.ts';
import { csrfToken, type Session } from '../sessions/index.ts';

interface NavItem {
  href: string;
  label: string;
}

const NAV: { heading: string; items: NavItem[] }[] = [
  { heading: '', items: [{ href: '/dashboard', label: 'Overview' }] },
  {
    heading: 'Business',
    items: [
      { href: '/dashboard/bookings', label: 'Bookings' },
      { href: '/dashboard/customers', label: 'Customers' },
      { href: '/dashboard/invoices', label: 'Invoices' },
      { href: '/dashboard/emails', label: 'E-mail outbox' },
    ],
  },
  {
    heading: 'Settings',
    items: [
      { href: '/dashboard/settings/services', label: 'Services' },
      { href: '/dashboard/settings/zones', label: 'Zones' },
      { href: '/dashboard/settings/team', label: 'Team' },
      { href: '/dashboard/settings/coupons', label: 'Coupons' },
      { href: '/dashboard/settings/policies', label: 'Policies' },
      { href: '/dashboard/settings/business', label: 'Business' },
      { href: '/dashboard/settings/catalog-file', label: 'Catalog file' },
      { href: '/dashboard/settings/integrations/api-keys', label: 'Integrations' },
    ],
  },
];

const INTEGRATION_TABS: NavItem[] = [
  { href: '/dashboard/settings/integrations/api-keys', label: 'API Keys' },
  { href: '/dashboard/settings/integrations/oauth-apps', label: 'OAuth Apps' },
  { href: '/dashboard/settings/integrations/webhooks', label: 'Webhooks' },
  { href: '/dashboard/settings/integrations/connected-apps', label: 'Connected apps' },
];

/** The current page's nav entry: the longest href the path starts with. */
function activeHref(path: string, items: NavItem[]): string | undefined {
  let best: string | undefined;
  for (const item of items) {
    const matches = path === item.href || path.startsWith(`${item.href}/`);
    const isIntegrations =
      item.href.startsWith('/dashboard/settings/integrations') && path.startsWith('/dashboard/settings/integrations/');
    if ((matches || isIntegrations) && (!best || item.href.length > best.length)) best = item.href;
  }
  return best;
}

/** The hidden form field every state-changing form of the dashboard carries. */
export function csrfField(session: Session): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${csrfToken(session)}">`;
}

function environmentSwitch(session: Session, path: string): SafeHtml {
  const option = (environment: 'test' | 'live', label: string) =>
    html`<button type="submit" name="environment" value="${environment}" aria-pressed="${String(session.environment === environment)}">${label}</button>`;
  return html`<form class="env-switch" method="post" action="/dashboard/environment">
    ${csrfField(session)}
    <input type="hidden" name="next" value="${path}">
    <span class="label" id="env-label">Environment</span>
    <div class="segmented" role="group" aria-labelledby="env-label">
      ${option('test', 'Test')}${option('live', 'Live')}
    </div>
  </form>`;
}

export interface ShellOptions {
  title: string;
  content: SafeHtml;
  status?: number;
}

/** Renders a page inside the dashboard frame for the request's session. */
export function sendShell(request: FastifyRequest, reply: FastifyReply, options: ShellOptions) {
  const session = request.session;
  const path = request.url.split('?')[0] ?? '/dashboard';
  const allItems = NAV.flatMap((group) => group.items);
  const active = activeHref(path, allItems);
  const nav = NAV.map(
    (group) => html`${group.heading ? html`<div class="nav-heading">${group.heading}</div>` : null}
      ${group.items.map(
        (item) =>
          html`<a href="${item.href}" ${item.href === active ? html`aria-current="page"` : null}>${item.label}</a>`,
      )}`,
  );
  const banner =
    session.environment === 'test'
      ? html`<div class="test-banner" role="status">Test mode: you are viewing test data</div>`
      : undefined;
  const page = layout({
    title: options.title,
    banner,
    body: html`<a class="skip-link" href="#main">Skip to content</a>
<div class="shell">
  <header class="sidebar">
    <div class="sidebar-top">
      <div class="identity">
        <a class="brand" href="/dashboard"><span class="brand-mark" aria-hidden="true"></span>Fieldhand</a>
        <div class="account-name" title="${session.accountName}">${session.accountName}</div>
      </div>
      ${environmentSwitch(session, path)}
    </div>
    <nav class="nav" aria-label="Dashboard">${nav}</nav>
    <div class="sidebar-footer">
      <span class="user-line" title="${session.userEmail}">${session.userEmail}</span>
      <form method="post" action="/dashboard/logout">${csrfField(session)}<button type="submit" class="secondary small">Sign out</button></form>
    </div>
  </header>
  <main class="content" id="main" tabindex="-1">
    ${options.content}
  </main>
</div>`,
  });
  return sendPage(reply, page, options.status ?? 200);
}

export function pageHeader(options: {
  title: string;
  description?: string;
  breadcrumbs?: { href: string; label: string }[];
  actions?: SafeHtml;
}): SafeHtml {
  return html`<div class="page-header">
  <div>
    ${
      options.breadcrumbs
        ? html`<nav class="breadcrumbs" aria-label="Breadcrumb">${options.breadcrumbs.map(
            (crumb, index) => html`${index > 0 ? ' / ' : ''}<a href="${crumb.href}">${crumb.label}</a>`,
          )}</nav>`
        : null
    }
    <h1>${options.title}</h1>
    ${options.description ? html`<p>${options.description}</p>` : null}
  </div>
  ${options.actions ? html`<div class="actions">${options.actions}</div>` : null}
</div>`;
}

/** Settings > Integrations: the header and tabs shared by its four pages. */
export function integrationsHeader(activeTab: string, actions?: SafeHtml): SafeHtml {
  return html`${pageHeader({
    title: 'Integrations',
    description: 'Connect your own software and other apps to your Fieldhand account.',
    breadcrumbs: [{ href: '/dashboard/settings/integrations/api-keys', label: 'Settings' }],
    actions,
  })}
<nav class="tabs" aria-label="Integrations">${INTEGRATION_TABS.map(
    (tab) => html`<a href="${tab.href}" ${tab.href === activeTab ? html`aria-current="page"` : null}>${tab.label}</a>`,
  )}</nav>`;
}

export function environmentBadge(environment: string): SafeHtml {
  return html`<span class="badge ${environment === 'live' ? 'live' : 'test'}">${environment === 'live' ? 'Live' : 'Test'}</span>`;
}

/** A 404 inside the dashboard frame (ids of the other environment land here too). */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply, message: string) {
  const environment = request.session.environment;
  return sendShell(request, reply, {
    title: 'Not found',
    status: 404,
    content: html`${pageHeader({ title: 'Not found' })}
<div class="panel"><p>${message}</p>
<p class="hint">You are viewing ${environment} data; something from the ${
      environment === 'test' ? 'live' : 'test'
    } environment shows only after you switch.</p>
<p><a href="/dashboard">Back to the overview</a></p></div>`,
  });
}

/** A confirmation step: where its form posts, what it asks and warns, and where Cancel goes. */
export interface Confirmation {
  action: string;
  title: string;
  warning: SafeHtml | string;
  button: string;
  cancelHref: string;
}

/**
 * A form's buttons: Save changes when it edits a record, else `add`; Cancel back to `cancel`; then
 * `more` on a line of its own when given (an archive link).
 */
export function formButtons(options: {
  editing: boolean;
  add: string;
  cancel: string;
  more?: SafeHtml | null;
}): SafeHtml {
  return html`<div class="actions">
    <button type="submit">${options.editing ? 'Save changes' : options.add}</button>
    <a class="button secondary" href="${options.cancel}">Cancel</a>${
      options.more === undefined
        ? null
        : html`
    ${options.more}`
    }
  </div>`;
}

/** The confirmation step of an action on `page`: it posts to `${page}/${action}`, and Cancel goes back to `page`. */
export function confirmationOn(
  page: string,
  action: string,
  step: Omit<Confirmation, 'action' | 'cancelHref'>,
): Confirmation {
  return { action: `${page}/${action}`, ...step, cancelHref: page };
}

/** A confirmation step before something that cannot be undone. */
export function confirmForm(session: Session, options: Confirmation): SafeHtml {
  return html`<form class="panel" method="post" action="${options.action}">
  ${csrfField(session)}
  <h2>${options.title}</h2>
  <div class="alert warning">${options.warning}</div>
  <div class="actions">
    <button type="submit" class="danger">${options.button}</button>
    <a class="button secondary" href="${options.cancelHref}">Cancel</a>
  </div>
</form>`;
}

/**
 * A page on one of the Settings › Integrations tabs that shows a secret once (a webhook's signing
 * secret, an OAuth app's credentials): a panel with its title and content, and Done.
 */
export function shownOncePage(
  tab: string,
  panel: { id: string; title: SafeHtml | string; content: SafeHtml; done: string },
): SafeHtml {
  return html`${integrationsHeader(tab)}
<section class="panel" aria-labelledby="${panel.id}">
  <h2 id="${panel.id}">${panel.title}</h2>
  ${panel.content}
  <div class="actions"><a class="button" href="${panel.done}">Done</a></div>
</section>`;
}

/** A confirmation step on one of the Settings › Integrations tabs. */
export function integrationsConfirmation(session: Session, tab: string, confirmation: Confirmation): SafeHtml {
  return html`${integrationsHeader(tab)}${confirmForm(session, confirmation)}`;
}
