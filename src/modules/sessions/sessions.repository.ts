import { query, queryOne, type Sql, sql } from '../../core/db.ts';
import { insertRow } from '../../core/rows.ts';
import type { Environment } from '../../core/tenant.ts';

export interface SessionRow {
  id: string;
  account_id: string;
  environment: Environment;
  user_id: string;
  csrf_secret: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_email: string;
  user_name: string;
  account_name: string;
}

export async function insertSession(
  db: Sql,
  session: {
    id: string;
    accountId: string;
    environment: Environment;
    userId: string;
    tokenHash: string;
    csrfSecret: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await query(
    db,
    sql`insert into sessions (id, account_id, environment, user_id, token_hash, csrf_secret, created_at, last_seen_at, expires_at)
        values (${session.id}, ${session.accountId}, ${session.environment}, ${session.userId}, ${session.tokenHash},
                ${session.csrfSecret}, ${session.now}, ${session.now}, ${session.expiresAt})`,
  );
}

/** The unexpired session with this token hash, with its user and account names. */
export function findSessionByTokenHash(db: Sql, tokenHash: string, now: Date): Promise<SessionRow | undefined> {
  return queryOne<SessionRow>(
    db,
    sql`select s.id, s.account_id, s.environment, s.user_id, s.csrf_secret, s.created_at, s.last_seen_at,
               s.expires_at, u.email as user_email, u.name as user_name, a.name as account_name
        from sessions s
        join users u on u.id = s.user_id and u.account_id = s.account_id
        join accounts a on a.id = s.account_id
        where s.token_hash = ${tokenHash} and s.expires_at > ${now}`,
  );
}

export async function touchSession(db: Sql, id: string, now: Date, expiresAt: Date): Promise<void> {
  await query(db, sql`update sessions set last_seen_at = ${now}, expires_at = ${expiresAt} where id = ${id}`);
}

export async function setSessionEnvironment(db: Sql, id: string, environment: Environment): Promise<void> {
  await query(db, sql`update sessions set environment = ${environment} where id = ${id}`);
}

export async function deleteSessionByTokenHash(db: Sql, tokenHash: string): Promise<void> {
  await query(db, sql`delete from sessions where token_hash = ${tokenHash}`);
}

/** Ends every session of a user (their password was reset). */
export async function deleteUserSessions(db: Sql, userId: string): Promise<void> {
  await query(db, sql`delete from sessions where user_id = ${userId}`);
}

/** Forgets a user's ended sessions (done at each sign-in, so the table stays small). */
export async function deleteExpiredSessions(db: Sql, userId: string, now: Date): Promise<void> {
  await query(db, sql`delete from sessions where user_id = ${userId} and expires_at <= ${now}`);
}

export interface ThrottleRow {
  subject_hash: string;
  failures: number;
  window_started_at: string;
  locked_until: string | null;
}

export function findThrottles(db: Sql, subjectHashes: string[]): Promise<ThrottleRow[]> {
  return query<ThrottleRow>(
    db,
    sql`select * from login_throttles where subject_hash = any(${sql.param(subjectHashes)}::text[])`,
  );
}

/**
 * Counts one failure for a subject in a single statement (so concurrent attempts cannot lose a
 * count): a new window opens when the last one is over, and the `limit`-th failure in a window
 * locks the subject until `lockedUntil`.
 */
export async function recordFailure(
  db: Sql,
  subjectHash: string,
  now: Date,
  windowStart: Date,
  limit: number,
  lockedUntil: Date,
): Promise<void> {
  await query(
    db,
    sql`insert into login_throttles as t (subject_hash, failures, window_started_at, locked_until)
        values (${subjectHash}, 1, ${now}::timestamptz, ${limit <= 1 ? lockedUntil : null}::timestamptz)
        on conflict (subject_hash) do update set
          failures = case when t.window_started_at <= ${windowStart}::timestamptz then 1 else t.failures + 1 end,
          window_started_at = case when t.window_started_at <= ${windowStart}::timestamptz then ${now}::timestamptz else t.window_started_at end,
          locked_until = case
            when t.window_started_at > ${windowStart}::timestamptz and t.failures + 1 >= ${limit}::int then ${lockedUntil}::timestamptz
            else t.locked_until end`,
  );
}

export async function clearThrottles(db: Sql, subjectHashes: string[]): Promise<void> {
  await query(db, sql`delete from login_throttles where subject_hash = any(${sql.param(subjectHashes)}::text[])`);
}

export interface DeviceRow {
  token_hash: string;
  account_id: string;
  user_id: string;
}

/** The unexpired remembered browser with this token hash, when it belongs to the user with this e-mail. */
export function findDeviceForEmail(db: Sql, tokenHash: string, email: string, now: Date) {
  return queryOne<DeviceRow>(
    db,
    sql`select d.token_hash, d.account_id, d.user_id
        from login_devices d
        join users u on u.id = d.user_id and u.account_id = d.account_id
        where d.token_hash = ${tokenHash} and d.expires_at > ${now} and lower(u.email) = lower(${email})`,
  );
}

export interface NewDevice {
  tokenHash: string;
  accountId: string;
  userId: string;
  now: Date;
  expiresAt: Date;
}

export function insertDevice(db: Sql, device: NewDevice): Promise<void> {
  return insertRow(db, 'login_devices', {
    token_hash: device.tokenHash,
    account_id: device.accountId,
    user_id: device.userId,
    created_at: device.now,
    expires_at: device.expiresAt,
  });
}

export async function deleteDevice(db: Sql, tokenHash: string): Promise<void> {
  await query(db, sql`delete from login_devices where token_hash = ${tokenHash}`);
}

/** Forgets a user's expired browsers (done at each sign-in, so the table stays small). */
export async function deleteExpiredDevices(db: Sql, accountId: string, userId: string, now: Date): Promise<void> {
  await query(
    db,
    sql`delete from login_devices where account_id = ${accountId} and user_id = ${userId} and expires_at <= ${now}`,
  );
}
