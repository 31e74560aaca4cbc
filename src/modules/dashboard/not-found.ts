import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type Session } from '../sessions/index.ts';
import { pageHeader, sendShell } from './dashboard.layout.ts';

/** A 404 inside the dashboard frame (ids of the other environment land here too). */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply, session: Session, message: string) {
  return sendShell(request, reply, session, {
    title: 'Not found',
    status: 404,
    content: html`${pageHeader({ title: 'Not found' })}
<div class="panel"><p>${message}</p>
<p class="hint">You are viewing ${session.environment} data; something from the ${
      session.environment === 'test' ? 'live' : 'test'
    } environment shows only after you switch.</p>
<p><a href="/dashboard">Back to the overview</a></p></div>`,
  });
}
