// SQL for OAuth apps (clients). Lookups by client_id come before any tenant is known (the
// token endpoint), like API-key lookups by hash; everything else is scoped by tenant.
// Owns: oauth_apps.
import { query, queryOne, type Sql, sql, textArray } from '../../core/db.ts';
import { type Environment, type Tenant, tenantIs } from '../../core/tenant.ts';
import type { Scope } from './scopes.ts';

export interface OAuthAppRow {
  id: string;
  account_id: string;
  environment: Environment;
  name: string;
  description: string;
  client_type: 'confidential' | 'public';
  secret_hash: string | null;
  secret_last4: string | null;
  secret_rotated_at: string | null;
  redirect_uris: string[];
  logo_url: string | null;
  allowed_scopes: Scope[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface NewOAuthAppRow {
  id: string;
  name: string;
  description: string;
  clientType: 'confidential' | 'public';
  secretHash: string | null;
  secretLast4: string | null;
  redirectUris: string[];
  logoUrl: string | null;
  allowedScopes: Scope[];
  now: Date;
}

export async function insertApp(db: Sql, tenant: Tenant, app: NewOAuthAppRow): Promise<OAuthAppRow> {
  const row = await queryOne<OAuthAppRow>(
    db,
    sql`insert into oauth_apps (id, account_id, environment, name, description, client_type, secret_hash,
          secret_last4, redirect_uris, logo_url, allowed_scopes, created_at, updated_at)
        values (${app.id}, ${tenant.accountId}, ${tenant.environment}, ${app.name}, ${app.description},
          ${app.clientType}, ${app.secretHash}, ${app.secretLast4}, ${textArray(app.redirectUris)}, ${app.logoUrl},
          ${textArray(app.allowedScopes)}, ${app.now}, ${app.now})
        returning *`,
  );
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** A registered (not deleted) app by client_id, whatever its account: the token endpoint. */
export function findActiveAppByClientId(db: Sql, clientId: string): Promise<OAuthAppRow | undefined> {
  return queryOne<OAuthAppRow>(db, sql`select * from oauth_apps where id = ${clientId} and deleted_at is null`);
}

export function findApp(db: Sql, tenant: Tenant, id: string): Promise<OAuthAppRow | undefined> {
  return queryOne<OAuthAppRow>(
    db,
    sql`select * from oauth_apps where id = ${id} and ${tenantIs(tenant)} and deleted_at is null`,
  );
}

export function listApps(db: Sql, tenant: Tenant): Promise<OAuthAppRow[]> {
  return query<OAuthAppRow>(
    db,
    sql`select * from oauth_apps where ${tenantIs(tenant)} and deleted_at is null
        order by created_at desc, id desc`,
  );
}

export interface AppChanges {
  name?: string;
  description?: string;
  redirectUris?: string[];
  logoUrl?: string | null;
  allowedScopes?: Scope[];
}

export function updateApp(
  db: Sql,
  tenant: Tenant,
  id: string,
  changes: AppChanges,
  now: Date,
): Promise<OAuthAppRow | undefined> {
  const sets = [sql`updated_at = ${now}`];
  if (changes.name !== undefined) sets.push(sql`name = ${changes.name}`);
  if (changes.description !== undefined) sets.push(sql`description = ${changes.description}`);
  if (changes.redirectUris !== undefined) sets.push(sql`redirect_uris = ${textArray(changes.redirectUris)}`);
  if (changes.logoUrl !== undefined) sets.push(sql`logo_url = ${changes.logoUrl}`);
  if (changes.allowedScopes !== undefined) sets.push(sql`allowed_scopes = ${textArray(changes.allowedScopes)}`);
  return queryOne<OAuthAppRow>(
    db,
    sql`update oauth_apps set ${sql.join(sets, sql`, `)}
        where id = ${id} and ${tenantIs(tenant)} and deleted_at is null
        returning *`,
  );
}

export function replaceSecret(
  db: Sql,
  tenant: Tenant,
  id: string,
  secret: { hash: string; last4: string },
  now: Date,
): Promise<OAuthAppRow | undefined> {
  return queryOne<OAuthAppRow>(
    db,
    sql`update oauth_apps set secret_hash = ${secret.hash}, secret_last4 = ${secret.last4},
          secret_rotated_at = ${now}, updated_at = ${now}
        where id = ${id} and ${tenantIs(tenant)} and deleted_at is null and client_type = 'confidential'
        returning *`,
  );
}

/** Soft delete: grants and tokens keep their reference. */
export function markAppDeleted(db: Sql, tenant: Tenant, id: string, now: Date): Promise<OAuthAppRow | undefined> {
  return queryOne<OAuthAppRow>(
    db,
    sql`update oauth_apps set deleted_at = ${now}, updated_at = ${now}
        where id = ${id} and ${tenantIs(tenant)} and deleted_at is null returning *`,
  );
}

/** The operator's command line deletes by client_id alone: it has no tenant. */
export function markAppDeletedById(db: Sql, id: string, now: Date): Promise<OAuthAppRow | undefined> {
  return queryOne<OAuthAppRow>(
    db,
    sql`update oauth_apps set deleted_at = ${now}, updated_at = ${now}
        where id = ${id} and deleted_at is null returning *`,
  );
}
