// Remembered browsers (OWASP's "device cookies"): a successful sign-in leaves a cookie naming
// the user and a random nonce; the server keeps only its hash. A sign-in that presents the
// cookie of the very user it names is judged by that browser's own failures (throttle.ts).
import { randomBytes } from 'node:crypto';
import type { Sql } from '../../core/db.ts';
import { hashSecret } from '../../core/ids.ts';
import * as repository from './sessions.repository.ts';

/** A browser stays remembered this long after its last successful sign-in. */
export const DEVICE_MAX_MS = 365 * 24 * 60 * 60 * 1000;
/** `<user id>.<43 base64url characters>`; anything else is not looked up at all. */
const DEVICE_TOKEN = /^(usr_[0-9A-Za-z]{24})\.[A-Za-z0-9_-]{43}$/;

export interface KnownDevice {
  tokenHash: string;
  userId: string;
}

function wellFormed(token: string | undefined): { token: string; userId: string } | null {
  const match = token && token.length <= 100 ? DEVICE_TOKEN.exec(token) : null;
  return token && match?.[1] ? { token, userId: match[1] } : null;
}

/** The browser presenting `token`, when it signed in before to the user with this e-mail. */
export async function recognisedDevice(
  db: Sql,
  token: string | undefined,
  email: string,
  now: Date,
): Promise<KnownDevice | null> {
  const presented = wellFormed(token);
  if (!presented || !email) return null;
  const row = await repository.findDeviceForEmail(db, hashSecret(presented.token), email.trim(), now);
  return row && row.user_id === presented.userId ? { tokenHash: row.token_hash, userId: row.user_id } : null;
}

/**
 * After a successful sign-in: a new token for this browser and this user (a new nonce each
 * time, replacing the one it presented), valid for DEVICE_MAX_MS.
 */
export async function rememberDevice(
  db: Sql,
  previousToken: string | undefined,
  user: { id: string; accountId: string },
  now: Date,
): Promise<string> {
  const previous = wellFormed(previousToken);
  if (previous) await repository.deleteDevice(db, hashSecret(previous.token));
  await repository.deleteExpiredDevices(db, user.accountId, user.id, now);
  const token = `${user.id}.${randomBytes(32).toString('base64url')}`;
  await repository.insertDevice(db, {
    tokenHash: hashSecret(token),
    accountId: user.accountId,
    userId: user.id,
    now,
    expiresAt: new Date(now.getTime() + DEVICE_MAX_MS),
  });
  return token;
}
