// The overview (what there is, and how to connect) and the e-mail outbox.
import { isoTimestamp } from '../../core/db.ts';
import type { listEmails } from '../../core/email.ts';
import { html, type SafeHtml } from '../../web/html.ts';
import { when } from '../../web/widgets.ts';
import type { Session } from '../sessions/index.ts';
import { pageHeader } from './shell.ts';

export function overviewView(
  session: Session,
  counts: { customers: number; activeKeys: number; emails: number },
  apiUrl: string,
): SafeHtml {
  const stat = (label: string, value: number, href: string) =>
    html`<a class="stat" href="${href}"><div class="label">${label}</div><div class="value">${value}</div></a>`;
  return html`${pageHeader({
    title: session.accountName,
    description: `Signed in as ${session.userEmail}. You are viewing ${session.environment} data.`,
  })}
<div class="stats">
  ${stat('Customers', counts.customers, '/dashboard/customers')}
  ${stat('Active API keys', counts.activeKeys, '/dashboard/settings/integrations/api-keys')}
  ${stat('Recent e-mails', counts.emails, '/dashboard/emails')}
</div>
<section class="panel" aria-labelledby="start-title">
  <h2 id="start-title">Connect your software</h2>
  <ol>
    <li>Generate a ${session.environment} API key in <a href="/dashboard/settings/integrations/api-keys">Settings › Integrations › API Keys</a>.</li>
    <li>Send it as <code>Authorization: Bearer &lt;key&gt;</code> to <code>${apiUrl}/v1/…</code>.</li>
    <li>Read the <a href="/docs">API reference</a>.</li>
  </ol>
</section>`;
}

type OutboxEmail = Awaited<ReturnType<typeof listEmails>>[number];

const EMAIL_TONES: Record<string, string> = { sent: 'ok', kept: 'muted', pending: 'warn', failed: 'bad' };

export function emailOutboxView(emails: OutboxEmail[], sends: boolean): SafeHtml {
  const rows = emails.map(
    (email) => html`<tr>
  <td>${when(isoTimestamp(email.created_at))}</td>
  <td>${email.to_address}</td>
  <td><details class="email"><summary>${email.subject}</summary><div class="pre">${email.text_body}</div>${
    email.last_error ? html`<p class="hint">Last error: ${email.last_error}</p>` : null
  }</details></td>
  <td class="hide-narrow"><code>${email.kind}</code></td>
  <td><span class="badge ${EMAIL_TONES[email.status] ?? 'muted'}">${email.status}</span></td>
</tr>`,
  );
  const explanation = sends
    ? 'Messages are sent through your SMTP server; the latest 100 are listed.'
    : 'No SMTP server is configured (SMTP_URL), so messages are kept here instead of being sent. The latest 100 are listed.';
  return html`${pageHeader({ title: 'E-mail outbox', description: explanation })}
${
  rows.length
    ? html`<div class="table-wrap"><table><caption class="visually-hidden">E-mails</caption>
  <thead><tr><th scope="col">When</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col" class="hide-narrow">Kind</th><th scope="col">Status</th></tr></thead>
  <tbody>${rows}</tbody></table></div>`
    : html`<div class="table-wrap"><div class="empty"><strong>No e-mails yet</strong>Invitations, confirmations and receipts appear here.</div></div>`
}`;
}
