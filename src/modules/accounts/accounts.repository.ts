// Owns: accounts, users, api_keys.
import { query, queryOne, type Sql, sql } from '../../core/db.ts';
import { insertRow, tenantColumns } from '../../core/rows.ts';
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

export interface NewUser {
  id: string;
  accountId: string;
  email: string;
  name: string;
  passwordHash: string;
}

export function insertUser(db: Sql, user: NewUser): Promise<void> {
  return insertRow(db, 'users', {
    id: user.id,
    account_id: user.accountId,
    email: user.email,
    name: user.name,
    password_hash: user.passwordHash,
  });
}

export function findUserByEmail(db: Sql, email: string): Promise<UserRow | undefined> {
  return queryOne<UserRow>(db, sql`select * from users where lower(email) = lower(${email})`);
}

export interface AccountSummaryRow {
  id: string;
  name: string;
  created_at: string;
  admin_emails: string[];
}

/** Every account with its admins' e-mails, oldest first (the operator's `accounts list`). */
export function listAccounts(db: Sql): Promise<AccountSummaryRow[]> {
  return query<AccountSummaryRow>(
    db,
    sql`select a.id, a.name, a.created_at,
               coalesce(array_agg(u.email order by u.created_at, u.id) filter (where u.id is not null), '{}')
                 as admin_emails
        from accounts a left join users u on u.account_id = a.id and u.role = 'admin'
        group by a.id order by a.created_at, a.id`,
  );
}

export async function setPasswordHash(db: Sql, userId: string, passwordHash: string): Promise<void> {
  await query(db, sql`update users set password_hash = ${passwordHash} where id = ${userId}`);
}

export async function listAdminEmails(db: Sql, accountId: string): Promise<string[]> {
  const rows = await query<{ email: string }>(
    db,
    sql`select email from users where account_id = ${accountId} and role = 'admin' order by created_at, id`,
  );
  return rows.map((row) => row.email);
}

export interface NewApiKey {
  id: string;
  name: string;
  keyHash: string;
  last4: string;
}

export function insertApiKey(db: Sql, tenant: Tenant, key: NewApiKey): Promise<void> {
  const { id, name, keyHash, last4 } = key;
  return insertRow(db, 'api_keys', { id, ...tenantColumns(tenant), name, key_hash: keyHash, last4 });
}

/** The key with this hash, revoked or not (a revoked key is refused with a message saying so). */
export function findApiKeyByHash(db: Sql, keyHash: string): Promise<ApiKeyRow | undefined> {
  return queryOne<ApiKeyRow>(db, sql`select * from api_keys where key_hash = ${keyHash}`);
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
