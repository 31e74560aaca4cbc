// Dashboard sign-in and sessions, shared by the dashboard and the OAuth login/consent pages.
//
// The dashboard's pages get the session from one preHandler (dashboard/signed-in.ts). A page
// outside it that needs a signed-in user (GET):
//   const session = await requireSession(deps, request, reply); // redirects to the login page
//   if (!session) return reply;                                 // (which comes back here after)
// A form carries html`<input type="hidden" name="_csrf" value="${csrfToken(session)}">`, and
// its POST handler checks it with `verifyCsrf(session, formField(request, '_csrf'))`.
// The HTML kit the pages are built with is src/web/.
export { DEVICE_COOKIE } from './cookies.ts';
export { currentSession, decorateSessionLookup, requireSession } from './sessions.http.ts';
export { sessionRoutes } from './sessions.routes.ts';
export {
  csrfToken,
  endUserSessions,
  loginUrl,
  type Session,
  type SignInResult,
  safeNext,
  sessionTenant,
  signIn,
  signOut,
  switchEnvironment,
  verifyCsrf,
} from './sessions.service.ts';
export { SIGN_IN_LIMITS, THROTTLE_LOCK_MS, THROTTLE_WINDOW_MS } from './throttle.ts';
