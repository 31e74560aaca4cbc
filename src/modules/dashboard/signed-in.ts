// Every dashboard page is for a signed-in admin. One preHandler, for all of them, attaches the
// session to the request or answers for the page: the login page (which comes back to a GET page
// after), or the 403 page for a form posted without this session's CSRF token.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../core/deps.ts';
import { formField, readUploadForm, type UploadForm } from '../../web/forms.ts';
import { sendForbidden } from '../../web/page.ts';
import { currentSession, requireSession, type Session, verifyCsrf } from '../sessions/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in admin's session: set by `signedInOnly` before every dashboard page. */
    session: Session;
    /** The files of a multipart form post (a form with a file input); null for anything else. */
    upload: UploadForm | null;
  }
  interface FastifyContextConfig {
    /** What the 404 page of a dashboard page says when the record it shows is not there. */
    notFound?: string;
    /** The largest file this page's form may upload, when more than UPLOAD_MAX_BYTES. */
    uploadMaxBytes?: number;
  }
}

export function signedInOnly(pages: FastifyInstance, deps: Deps): void {
  // null only until the hook below runs: no dashboard handler runs without a session
  pages.decorateRequest('session', null as unknown as Session);
  pages.decorateRequest('upload', null);
  pages.addHook('preHandler', async (request, reply) => {
    // Nobody without a session gets to make us read an upload: a multipart post is refused
    // before its body is touched, and the connection is closed rather than drained.
    if (request.isMultipart() && !(await currentSession(deps, request))) reply.header('connection', 'close');
    const session = await requireSession(deps, request, reply);
    if (!session) return reply;
    request.session = session;
    if (request.method === 'GET' || request.method === 'HEAD') return;
    if (request.isMultipart()) {
      request.upload = await readUploadForm(request, request.routeOptions.config.uploadMaxBytes);
    }
    if (!verifyCsrf(session, formField(request, '_csrf'))) return sendForbidden(reply);
  });
}
