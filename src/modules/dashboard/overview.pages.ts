// The overview, the e-mail outbox, and the pages whose data other modules are still building.
import type { FastifyInstance } from 'fastify';
import { isoTimestamp } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import { listEmails } from '../../core/email.ts';
import { listApiKeys } from '../accounts/index.ts';
import { listCustomers } from '../customers/index.ts';
import { html, requireSession, type SafeHtml, sessionTenant } from '../sessions/index.ts';
import { integrationsHeader, pageHeader, sendShell, when } from './dashboard.layout.ts';
import { sendNotFound } from './not-found.ts';

export function overviewPages(app: FastifyInstance, deps: Deps): void {
  app.get('/dashboard', { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const tenant = sessionTenant(session);
    const customers = await listCustomers(deps, tenant, { page: 1, per_page: 1 });
    const keys = (await listApiKeys(deps, tenant)).filter((key) => key.revoked_at === null);
    const emails = await listEmails(deps.db, tenant, 100);
    const stat = (label: string, value: string | number, href: string) =>
      html`<a class="stat" href="${href}"><div class="label">${label}</div><div class="value">${value}</div></a>`;
    return sendShell(request, reply, session, {
      title: 'Overview',
      content: html`${pageHeader({
        title: session.accountName,
        description: `Signed in as ${session.userEmail}. You are viewing ${session.environment} data.`,
      })}
<div class="stats">
  ${stat('Customers', customers.pagination.total, '/dashboard/customers')}
  ${stat('Active API keys', keys.length, '/dashboard/settings/integrations/api-keys')}
  ${stat('Recent e-mails', emails.length, '/dashboard/emails')}
</div>
<section class="panel" aria-labelledby="start-title">
  <h2 id="start-title">Connect your software</h2>
  <ol>
    <li>Generate a ${session.environment} API key in <a href="/dashboard/settings/integrations/api-keys">Settings › Integrations › API Keys</a>.</li>
    <li>Send it as <code>Authorization: Bearer &lt;key&gt;</code> to <code>${deps.config.baseUrl}/v1/…</code>.</li>
    <li>Read the <a href="/docs">API reference</a>.</li>
  </ol>
</section>`,
    });
  });

  app.get('/dashboard/emails', { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    const emails = await listEmails(deps.db, sessionTenant(session), 100);
    const tone: Record<string, string> = { sent: 'ok', kept: 'muted', pending: 'warn', failed: 'bad' };
    const rows = emails.map(
      (email) => html`<tr>
  <td>${when(isoTimestamp(email.created_at))}</td>
  <td>${email.to_address}</td>
  <td><details class="email"><summary>${email.subject}</summary><div class="pre">${email.text_body}</div>${
    email.last_error ? html`<p class="hint">Last error: ${email.last_error}</p>` : null
  }</details></td>
  <td class="hide-narrow"><code>${email.kind}</code></td>
  <td><span class="badge ${tone[email.status] ?? 'muted'}">${email.status}</span></td>
</tr>`,
    );
    const explanation = deps.mailer.sends
      ? 'Messages are sent through your SMTP server; the latest 100 are listed.'
      : 'No SMTP server is configured (SMTP_URL), so messages are kept here instead of being sent. The latest 100 are listed.';
    return sendShell(request, reply, session, {
      title: 'E-mail outbox',
      content: html`${pageHeader({ title: 'E-mail outbox', description: explanation })}
${
  rows.length
    ? html`<div class="table-wrap"><table><caption class="visually-hidden">E-mails</caption>
  <thead><tr><th scope="col">When</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col" class="hide-narrow">Kind</th><th scope="col">Status</th></tr></thead>
  <tbody>${rows}</tbody></table></div>`
    : html`<div class="table-wrap"><div class="empty"><strong>No e-mails yet</strong>Invitations, confirmations and receipts appear here.</div></div>`
}`,
    });
  });

  // Pages whose data another module is still building (none at the moment).
  const stubs: { path: string; title: string; description: string; body: SafeHtml; integrations?: boolean }[] = [];
  for (const stub of stubs) {
    app.get(stub.path, { schema: { hide: true } }, async (request, reply) => {
      const session = await requireSession(deps, request, reply);
      if (!session) return reply;
      return sendShell(request, reply, session, {
        title: stub.title,
        content: stub.integrations
          ? html`${integrationsHeader(stub.path)}${stub.body}`
          : html`${pageHeader({ title: stub.title, description: stub.description })}${stub.body}`,
      });
    });
  }

  app.get('/dashboard/*', { schema: { hide: true } }, async (request, reply) => {
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    return sendNotFound(request, reply, session, 'There is no such page.');
  });
}
