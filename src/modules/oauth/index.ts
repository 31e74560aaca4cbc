// The OAuth module's public face: routes for app.ts, the access-token resolver for /v1
// authentication, and the services the dashboard's OAuth Apps and Connected apps pages use.
export {
  createOAuthApp,
  deleteOAuthApp,
  getOAuthApp,
  listOAuthApps,
  logoDataUrl,
  type NewOAuthApp,
  type OAuthAppChanges,
  type OAuthAppView,
  rotateOAuthAppSecret,
  updateOAuthApp,
} from './apps.service.ts';
export { authorizationServerMetadata, oauthRoutes } from './oauth.routes.ts';
export { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from './scopes.ts';
export {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  accessTokenResolver,
  listUserGrants,
  type OAuthGrantView,
  REFRESH_TOKEN_TTL_SECONDS,
  revokeGrant,
} from './tokens.service.ts';
