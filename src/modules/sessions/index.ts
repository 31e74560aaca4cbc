// Dashboard sign-in and sessions, shared by the dashboard and the OAuth login/consent pages.
//
// A page that needs a signed-in user (GET):
//   const session = await requireSession(deps, request, reply); // redirects to the login page
//   if (!session) return reply;                                // (which comes back here after)
//   return sendPage(reply, layout({ title, bodyClass: 'centered', body: html`…${value}…` }));
// A form: put html`<input type="hidden" name="_csrf" value="${csrfToken(session)}">` in it;
// its POST handler starts with `const session = await requireFormSession(deps, request, reply);
// if (!session) return reply;` (403 page when the token is missing or wrong).
// Security headers (CSP without inline scripts, frame-ancestors 'none', …) are set on every
// /dashboard and /oauth/ response by sessionRoutes; pages use only ASSETS (our CSS and JS).
export { ASSETS } from './assets.ts';
export { DEVICE_COOKIE } from './cookies.ts';
export {
  escapeHtml,
  html,
  layout,
  messagePage,
  type PageOptions,
  SafeHtml,
  safeUrl,
  sendForbidden,
  sendPage,
} from './html.ts';
export { currentSession, formField, requireFormSession, requireSession } from './sessions.http.ts';
export { sessionRoutes } from './sessions.routes.ts';
export { csrfToken, type Session, safeNext, sessionTenant, verifyCsrf } from './sessions.service.ts';
export { SIGN_IN_LIMITS, THROTTLE_LOCK_MS } from './throttle.ts';
