import { isoTimestamp, query, queryOne, type Sql, sql } from '../../core/db.ts';
import type { Environment, Tenant } from '../../core/tenant.ts';

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

export function findUser(db: Sql, accountId: string, userId: string): Promise<UserRow | undefined> {
  return queryOne<UserRow>(db, sql`select * from users where account_id = ${accountId} and id = ${userId}`);
}

export function listAdminEmails(db: Sql, accountId: string): Promise<{ email: string }[]> {
  return query(db, sql`select email from users where account_id = ${accountId} and role = 'admin'`);
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
  return query<ApiKeyRow>(
    db,
    sql`select * from api_keys where account_id = ${tenant.accountId} and environment = ${tenant.environment}
        order by created_at desc, id desc`,
  );
}

/** Revokes a key; `accountId` limits it to one account (the dashboard), omitted for the CLI. */
export async function revokeApiKey(
  db: Sql,
  keyId: string,
  now: Date,
  accountId?: string,
): Promise<ApiKeyRow | undefined> {
  const scope = accountId === undefined ? sql`` : sql` and account_id = ${accountId}`;
  return queryOne<ApiKeyRow>(
    db,
    sql`update api_keys set revoked_at = coalesce(revoked_at, ${now})
        where id = ${keyId}${scope} returning *`,
  );
}

export function apiKeyView(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    environment: row.environment,
    last4: row.last4,
    created_at: isoTimestamp(row.created_at),
    last_used_at: isoTimestamp(row.last_used_at),
    revoked_at: isoTimestamp(row.revoked_at),
  };
}
