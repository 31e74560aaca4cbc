// Owns: accounts, users, api_keys.
import { query, queryOne, type Sql, sql } from '../../core/db.ts';
import { type Environment, type Tenant, tenantIs } from '../../core/tenant.ts';

export interface AccountRow {
  id: string;
  name: string;
  currency: string;
  settings: Record<string, unknown>;
  created_at: string;
}

export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  name: string;
  password_hash: string;
  role: string;
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  environment: Environment;
  name: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export async function insertAccount(db: Sql, account: { id: string; name: string }): Promise<void> {
  await query(db, sql`insert into accounts (id, name) values (${account.id}, ${account.name})`);
}

export function findAccount(db: Sql, accountId: string): Promise<AccountRow | undefined> {
  return queryOne<AccountRow>(db, sql`select * from accounts where id = ${accountId}`);
}

export async function countAccounts(db: Sql): Promise<number> {
  const row = await queryOne<{ count: number }>(db, sql`select count(*) as count from accounts`);
  return row?.count ?? 0;
}

export async function insertUser(
  db: Sql,
  user: { id: string; accountId: string; email: string; name: string; passwordHash: string },
): Promise<void> {
  await query(
    db,
    sql`insert into users (id, account_id, email, name, password_hash)
        values (${user.id}, ${user.accountId}, ${user.email}, ${user.name}, ${user.passwordHash})`,
  );
}

export function findUserByEmail(db: Sql, email: string): Promise<UserRow | undefined> {
  return queryOne<UserRow>(db, sql`select * from users where lower(email) = lower(${email})`);
}

export async function listAdminEmails(db: Sql, accountId: string): Promise<string[]> {
  const rows = await query<{ email: string }>(
    db,
    sql`select email from users where account_id = ${accountId} and role = 'admin' order by created_at, id`,
  );
  return rows.map((row) => row.email);
}

export async function insertApiKey(
  db: Sql,
  tenant: Tenant,
  key: { id: string; name: string; keyHash: string; last4: string },
): Promise<void> {
  await query(
    db,
    sql`insert into api_keys (id, account_id, environment, name, key_hash, last4)
        values (${key.id}, ${tenant.accountId}, ${tenant.environment}, ${key.name}, ${key.keyHash}, ${key.last4})`,
  );
}

/** The live (not revoked) key with this hash. */
export function findActiveApiKeyByHash(db: Sql, keyHash: string): Promise<ApiKeyRow | undefined> {
  return queryOne<ApiKeyRow>(db, sql`select * from api_keys where key_hash = ${keyHash} and revoked_at is null`);
}

export async function touchApiKey(db: Sql, keyId: string, now: Date): Promise<void> {
  await query(db, sql`update api_keys set last_used_at = ${now} where id = ${keyId}`);
}

export function listApiKeys(db: Sql, tenant: Tenant): Promise<ApiKeyRow[]> {
  return query<ApiKeyRow>(db, sql`select * from api_keys where ${tenantIs(tenant)} order by created_at desc, id desc`);
}

/** Revokes one of the tenant's keys (revoking a revoked key keeps its first revocation time). */
export function revokeApiKey(db: Sql, tenant: Tenant, keyId: string, now: Date): Promise<ApiKeyRow | undefined> {
  return queryOne<ApiKeyRow>(
    db,
    sql`update api_keys set revoked_at = coalesce(revoked_at, ${now})
        where id = ${keyId} and ${tenantIs(tenant)} returning *`,
  );
}

/** Revokes a key whatever its account: the operator's command line, which has no tenant. */
export function revokeApiKeyById(db: Sql, keyId: string, now: Date): Promise<ApiKeyRow | undefined> {
  return queryOne<ApiKeyRow>(
    db,
    sql`update api_keys set revoked_at = coalesce(revoked_at, ${now}) where id = ${keyId} returning *`,
  );
}
