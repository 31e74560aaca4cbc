// SQL for authorization codes, grants and tokens. Codes and tokens are found by their hash
// (the presenter does not say whose they are); writes carry the tenant they were issued for.
// Owns: oauth_authorization_codes, oauth_grants, oauth_tokens.
import { query, queryOne, type Sql, sql, textArray } from '../../core/db.ts';
import { type Environment, type Tenant, tenantIs } from '../../core/tenant.ts';
import type { Scope } from './scopes.ts';

export interface AuthorizationCodeRow {
  code_hash: string;
  account_id: string;
  environment: Environment;
  app_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: Scope[];
  code_challenge: string | null;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
  grant_id: string | null;
}

export interface TokenRow {
  id: string;
  token_hash: string;
  kind: 'access' | 'refresh';
  account_id: string;
  environment: Environment;
  app_id: string;
  grant_id: string;
  user_id: string;
  scopes: Scope[];
  created_at: string;
  expires_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
}

export async function insertCode(
  db: Sql,
  tenant: Tenant,
  code: {
    codeHash: string;
    appId: string;
    userId: string;
    redirectUri: string;
    scopes: Scope[];
    codeChallenge: string | null;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await query(
    db,
    sql`insert into oauth_authorization_codes (code_hash, account_id, environment, app_id, user_id, redirect_uri,
          scopes, code_challenge, created_at, expires_at)
        values (${code.codeHash}, ${tenant.accountId}, ${tenant.environment}, ${code.appId}, ${code.userId},
          ${code.redirectUri}, ${textArray(code.scopes)}, ${code.codeChallenge}, ${code.now}, ${code.expiresAt})`,
  );
}

/** Forgets an app's codes that expired long ago (a replay of one is refused either way). */
export async function deleteStaleCodes(db: Sql, appId: string, before: Date): Promise<void> {
  await query(db, sql`delete from oauth_authorization_codes where app_id = ${appId} and expires_at < ${before}`);
}

/** The code, row-locked so that two redemptions of it are decided one after the other. */
export function lockCode(tx: Sql, codeHash: string): Promise<AuthorizationCodeRow | undefined> {
  return queryOne<AuthorizationCodeRow>(
    tx,
    sql`select * from oauth_authorization_codes where code_hash = ${codeHash} for update`,
  );
}

export async function markCodeConsumed(tx: Sql, codeHash: string, grantId: string, now: Date): Promise<void> {
  await query(
    tx,
    sql`update oauth_authorization_codes set consumed_at = ${now}, grant_id = ${grantId} where code_hash = ${codeHash}`,
  );
}

export async function insertGrant(
  tx: Sql,
  tenant: Tenant,
  grant: { id: string; appId: string; userId: string; scopes: Scope[]; now: Date },
): Promise<void> {
  await query(
    tx,
    sql`insert into oauth_grants (id, account_id, environment, app_id, user_id, scopes, created_at)
        values (${grant.id}, ${tenant.accountId}, ${tenant.environment}, ${grant.appId}, ${grant.userId},
          ${textArray(grant.scopes)}, ${grant.now})`,
  );
}

export async function insertToken(
  tx: Sql,
  tenant: Tenant,
  token: {
    id: string;
    tokenHash: string;
    kind: 'access' | 'refresh';
    appId: string;
    grantId: string;
    userId: string;
    scopes: Scope[];
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await query(
    tx,
    sql`insert into oauth_tokens (id, token_hash, kind, account_id, environment, app_id, grant_id, user_id, scopes,
          created_at, expires_at)
        values (${token.id}, ${token.tokenHash}, ${token.kind}, ${tenant.accountId}, ${tenant.environment},
          ${token.appId}, ${token.grantId}, ${token.userId}, ${textArray(token.scopes)}, ${token.now},
          ${token.expiresAt})`,
  );
}

/** The access token with this hash, for authenticating an API request (the hot path). */
export function findAccessToken(db: Sql, tokenHash: string): Promise<TokenRow | undefined> {
  return queryOne<TokenRow>(db, sql`select * from oauth_tokens where token_hash = ${tokenHash} and kind = 'access'`);
}

export function findToken(db: Sql, tokenHash: string): Promise<TokenRow | undefined> {
  return queryOne<TokenRow>(db, sql`select * from oauth_tokens where token_hash = ${tokenHash}`);
}

/** A refresh token, row-locked so that two uses of it are decided one after the other. */
export function lockRefreshToken(tx: Sql, tokenHash: string): Promise<TokenRow | undefined> {
  return queryOne<TokenRow>(
    tx,
    sql`select * from oauth_tokens where token_hash = ${tokenHash} and kind = 'refresh' for update`,
  );
}

export async function markRotated(tx: Sql, tokenId: string, now: Date): Promise<void> {
  await query(tx, sql`update oauth_tokens set rotated_at = ${now} where id = ${tokenId}`);
}

export async function revokeToken(tx: Sql, tokenId: string, now: Date): Promise<void> {
  await query(tx, sql`update oauth_tokens set revoked_at = coalesce(revoked_at, ${now}) where id = ${tokenId}`);
}

/** Revokes a grant and every token issued under it. */
export async function revokeGrant(tx: Sql, grantId: string, now: Date): Promise<void> {
  await query(tx, sql`update oauth_grants set revoked_at = coalesce(revoked_at, ${now}) where id = ${grantId}`);
  await query(tx, sql`update oauth_tokens set revoked_at = ${now} where grant_id = ${grantId} and revoked_at is null`);
}

/** Revokes every grant and token of an app (the app is being deleted). */
export async function revokeAppGrants(tx: Sql, appId: string, now: Date): Promise<void> {
  await query(tx, sql`update oauth_grants set revoked_at = ${now} where app_id = ${appId} and revoked_at is null`);
  await query(tx, sql`update oauth_tokens set revoked_at = ${now} where app_id = ${appId} and revoked_at is null`);
}

export interface GrantRow {
  id: string;
  account_id: string;
  environment: Environment;
  app_id: string;
  app_name: string;
  app_logo_url: string | null;
  user_id: string;
  scopes: Scope[];
  created_at: string;
  revoked_at: string | null;
}

/** A user's grants that can still act: not revoked, with a refresh token still usable. */
export function listActiveGrants(db: Sql, tenant: Tenant, userId: string, now: Date): Promise<GrantRow[]> {
  return query<GrantRow>(
    db,
    sql`select g.*, a.name as app_name, a.logo_url as app_logo_url
        from oauth_grants g join oauth_apps a on a.id = g.app_id
        where ${tenantIs(tenant, 'g')}
          and g.user_id = ${userId} and g.revoked_at is null
          and exists (select 1 from oauth_tokens t where t.grant_id = g.id and t.kind = 'refresh'
                        and t.revoked_at is null and t.rotated_at is null and t.expires_at > ${now})
        order by g.created_at desc, g.id desc`,
  );
}

export function findGrant(db: Sql, tenant: Tenant, grantId: string): Promise<GrantRow | undefined> {
  return queryOne<GrantRow>(
    db,
    sql`select g.*, a.name as app_name, a.logo_url as app_logo_url
        from oauth_grants g join oauth_apps a on a.id = g.app_id
        where g.id = ${grantId} and ${tenantIs(tenant, 'g')}`,
  );
}
