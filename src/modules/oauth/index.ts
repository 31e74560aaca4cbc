// The OAuth module's public face: routes for app.ts, the access-token resolver for /v1
// authentication, and the services the dashboard's OAuth Apps and Connected apps pages use.
export type { OAuthAppRow, OAuthAppView } from './apps.repository.ts';
export {
  createOAuthApp,
  deleteOAuthApp,
  getOAuthApp,
  listOAuthApps,
  logoDataUrl,
  type NewOAuthApp,
  type OAuthAppChanges,
  rotateOAuthAppSecret,
  updateOAuthApp,
  updateOAuthAppRedirectUris,
} from './apps.service.ts';
export { authorizationServerMetadata, oauthRoutes } from './oauth.routes.ts';
export { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from './scopes.ts';
export type { OAuthGrantView } from './tokens.repository.ts';
export {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  accessTokenResolver,
  listUserGrants,
  REFRESH_TOKEN_TTL_SECONDS,
  revokeGrant,
} from './tokens.service.ts';
