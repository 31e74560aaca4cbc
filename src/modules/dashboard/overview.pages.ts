// The overview, the e-mail outbox, and the 404 page for any other dashboard address.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { listEmails } from '../../core/email.ts';
import { listApiKeys } from '../accounts/index.ts';
import { listCustomers } from '../customers/index.ts';
import { sessionTenant } from '../sessions/index.ts';
import { emailOutboxView, overviewView } from './overview.view.ts';
import { PAGE } from './pages.ts';
import { sendNotFound, sendShell } from './shell.ts';

const EMAILS_SHOWN = 100;

export function overviewPages(app: FastifyInstance, deps: Deps): void {
  app.get('/dashboard', PAGE, async (request, reply) => {
    const tenant = sessionTenant(request.session);
    const customers = await listCustomers(deps, tenant, { page: 1, per_page: 1 });
    const keys = await listApiKeys(deps, tenant);
    const emails = await listEmails(deps.db, tenant, EMAILS_SHOWN);
    const counts = {
      customers: customers.pagination.total,
      activeKeys: keys.filter((key) => key.revoked_at === null).length,
      emails: emails.length,
    };
    return sendShell(request, reply, {
      title: 'Overview',
      content: overviewView(request.session, counts, deps.config.baseUrl),
    });
  });

  app.get('/dashboard/emails', PAGE, async (request, reply) => {
    const emails = await listEmails(deps.db, sessionTenant(request.session), EMAILS_SHOWN);
    return sendShell(request, reply, {
      title: 'E-mail outbox',
      content: emailOutboxView(emails, deps.mailer.sends),
    });
  });

  app.get('/dashboard/*', PAGE, async (request, reply) => sendNotFound(request, reply, 'There is no such page.'));
}
