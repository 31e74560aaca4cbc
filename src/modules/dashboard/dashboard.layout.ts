// The dashboard's frame: navigation, the test/live switch (always visible), the signed-in
// user and sign-out, around each page's content.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfToken, html, layout, type SafeHtml, type Session, sendPage } from '../sessions/index.ts';

interface NavItem {
  href: string;
  label: string;
  /** Built by another module that has not landed yet. */
  soon?: boolean;
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
    items: [{ href: '/dashboard/settings/integrations/api-keys', label: 'Integrations' }],
  },
];

export const INTEGRATION_TABS: NavItem[] = [
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
      item.href.startsWith('/dashboard/settings/integrations') && path.startsWith('/dashboard/settings/');
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

/** Renders a page inside the dashboard frame for this session. */
export function sendShell(request: FastifyRequest, reply: FastifyReply, session: Session, options: ShellOptions) {
  const path = request.url.split('?')[0] ?? '/dashboard';
  const allItems = NAV.flatMap((group) => group.items);
  const active = activeHref(path, allItems);
  const nav = NAV.map(
    (group) => html`${group.heading ? html`<div class="nav-heading">${group.heading}</div>` : null}
      ${group.items.map(
        (item) =>
          html`<a href="${item.href}" ${item.href === active ? html`aria-current="page"` : null}>${item.label}${
            item.soon ? html`<span class="soon">soon</span>` : null
          }</a>`,
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

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** A timestamp for people, with the exact value in a <time> element. */
export function when(iso: string | null, fallback = 'Never'): SafeHtml {
  if (!iso) return html`<span class="hint">${fallback}</span>`;
  return html`<time datetime="${iso}" title="${iso}">${DATE_FORMAT.format(new Date(iso))} UTC</time>`;
}

// one money formatter for the whole product (core/money.ts)
export { formatMoney as money } from '../../core/money.ts';

/** Query string value or ''. */
export function queryValue(request: FastifyRequest, name: string): string {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** A section that another module will fill once it lands. */
export function comingSoon(what: string, detail: string): SafeHtml {
  return html`<div class="stub" role="note">
  <strong>${what} will appear here</strong>
  <p>${detail}</p>
</div>`;
}

/** The line under a list: how many there are, which page this is, and Previous/Next links. */
export function pager(options: {
  noun: string;
  total: number;
  page: number;
  totalPages: number;
  link: (page: number) => string;
}): SafeHtml {
  const { noun, total, page, totalPages, link } = options;
  return html`<nav class="pager" aria-label="Pages">
  <span>${total} ${noun}${total === 1 ? '' : 's'} · page ${page} of ${Math.max(1, totalPages)}</span>
  <span class="actions">
    ${page > 1 ? html`<a class="button secondary small" href="${link(page - 1)}" rel="prev">Previous</a>` : null}
    ${page < totalPages ? html`<a class="button secondary small" href="${link(page + 1)}" rel="next">Next</a>` : null}
  </span>
</nav>`;
}
