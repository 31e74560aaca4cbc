// Dashboard sign-in: a random token for an HttpOnly cookie, only its hash in the database, a
// per-session CSRF secret for every form, and throttling of failed sign-ins (throttle.ts) that
// a browser the user signed in from before is exempt from (devices.ts). No HTTP here: the
// routes read and set the cookies (sessions.http.ts).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { hashSecret, newId } from '../../core/ids.ts';
import type { Environment, Tenant } from '../../core/tenant.ts';
import { authenticateUser } from '../accounts/index.ts';
import { recognisedDevice, rememberDevice } from './devices.ts';
import * as repository from './sessions.repository.ts';
import { countFailure, forgetFailures, pausedUntil, throttleSubjects } from './throttle.ts';

/** A session ends after this long without a request … */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** … and in any case this long after sign-in. */
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, to keep page views free of writes. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface Session {
  id: string;
  userId: string;
  userEmail: string;
  userName: string;
  accountId: string;
  accountName: string;
  /** The dashboard's test/live switch: every page shows this environment's data. */
  environment: Environment;
  csrfSecret: string;
  createdAt: Date;
  expiresAt: Date;
}

export type SignInResult =
  | { ok: true; session: Session; sessionToken: string; deviceToken: string }
  | { ok: false; reason: 'invalid_credentials' | 'throttled'; message: string; retryAfterSeconds?: number };

/** The tenant a session's pages show: its account, in the environment the switch selects. */
export function sessionTenant(session: Session): Tenant {
  return { accountId: session.accountId, environment: session.environment };
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

function toSession(row: repository.SessionRow): Session {
  return {
    id: row.id,
    userId: row.user_id,
    userEmail: row.user_email,
    userName: row.user_name,
    accountId: row.account_id,
    accountName: row.account_name,
    environment: row.environment,
    csrfSecret: row.csrf_secret,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}

function expiry(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_IDLE_MS, createdAt.getTime() + SESSION_MAX_MS));
}

/** The unexpired session whose cookie holds `token`, or null; keeps an active session alive. */
export async function findSession(deps: Deps, token: string | undefined): Promise<Session | null> {
  if (!token || token.length > 100) return null;
  const now = deps.clock.now();
  const row = await repository.findSessionByTokenHash(deps.db, hashSecret(token), now);
  if (!row) return null;
  const session = toSession(row);
  if (now.getTime() - new Date(row.last_seen_at).getTime() >= TOUCH_EVERY_MS) {
    session.expiresAt = expiry(session.createdAt, now);
    await repository.touchSession(deps.db, session.id, now, session.expiresAt);
  }
  return session;
}

/** Where the login page sends a visitor back to; only paths on this site, never elsewhere. */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000) return '/dashboard';
  // "//host" and "/\host" are other sites to a browser; control characters are never legitimate.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (!/^\/(?![/\\])/.test(next) || /[\u0000-\u001f\u007f]/.test(next)) return '/dashboard';
  if (next === '/dashboard' || next.startsWith('/dashboard/') || next.startsWith('/dashboard?')) return next;
  if (next.startsWith('/oauth/')) return next;
  return '/dashboard';
}

export function loginUrl(next: string): string {
  return `/dashboard/login?next=${encodeURIComponent(safeNext(next))}`;
}

function throttled(until: Date, now: Date): SignInResult {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return {
    ok: false,
    reason: 'throttled',
    retryAfterSeconds: seconds,
    message: `Too many failed sign-in attempts. For your security, sign-in is paused; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  };
}

export interface SignInAttempt {
  email: string;
  password: string;
  /** The client address (`request.ip`, which believes X-Forwarded-For only from TRUST_PROXY). */
  address: string;
  /** The device cookie the browser presented, if any. */
  deviceToken?: string;
}

/**
 * Checks the password and, when right, starts a session and remembers the browser: the caller
 * sets `sessionToken` and `deviceToken` as cookies. Failures pause sign-in as throttle.ts
 * describes.
 */
export async function signIn(deps: Deps, attempt: SignInAttempt): Promise<SignInResult> {
  const { email, password } = attempt;
  const now = deps.clock.now();
  const device = await recognisedDevice(deps.db, attempt.deviceToken, email, now);
  const subjects = throttleSubjects(email, attempt.address, device);
  const lock = await pausedUntil(deps.db, subjects, now);
  if (lock) return throttled(lock, now);

  const user = email && password ? await authenticateUser(deps, { email: email.trim(), password }) : null;
  if (!user) {
    await inTransaction(deps, ({ db }) => countFailure(db, subjects, now));
    const lockNow = await pausedUntil(deps.db, subjects, now);
    if (lockNow) return throttled(lockNow, now);
    return { ok: false, reason: 'invalid_credentials', message: 'That e-mail and password do not match.' };
  }

  const sessionToken = randomToken();
  const row = {
    id: newId('session'),
    accountId: user.accountId,
    environment: 'test' as Environment,
    userId: user.id,
    tokenHash: hashSecret(sessionToken),
    csrfSecret: randomToken(),
    now,
    expiresAt: expiry(now, now),
  };
  // One transaction, and the caller sets cookies only after it: a failure leaves neither a
  // session nor a device.
  const deviceToken = await inTransaction(deps, async ({ db }) => {
    await forgetFailures(db, subjects);
    const remembered = await rememberDevice(db, attempt.deviceToken, user, now);
    await repository.deleteExpiredSessions(db, user.id, now);
    await repository.insertSession(db, row);
    return remembered;
  });
  const session = await repository.findSessionByTokenHash(deps.db, row.tokenHash, now);
  if (!session) throw new Error('session vanished right after it was created');
  return { ok: true, session: toSession(session), sessionToken, deviceToken };
}

/** Ends the session whose cookie holds `token` (nothing when there is none). */
export async function signOut(deps: Deps, token: string | undefined): Promise<void> {
  if (token) await repository.deleteSessionByTokenHash(deps.db, hashSecret(token));
}

/** The test/live switch: every page of this session shows `environment` from now on. */
export async function switchEnvironment(deps: Deps, session: Session, environment: Environment): Promise<void> {
  await repository.setSessionEnvironment(deps.db, session.id, environment);
  session.environment = environment;
}

/** The value of the hidden `_csrf` field every form of this session carries. */
/** Signs a user out everywhere (after a password reset). */
export function endUserSessions(deps: Deps, userId: string): Promise<void> {
  return repository.deleteUserSessions(deps.db, userId);
}

export function csrfToken(session: Session): string {
  return session.csrfSecret;
}

/** Every CSRF token we issue: 32 random bytes in base64url. */
const CSRF_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function wellFormed(token: unknown): token is string {
  return typeof token === 'string' && token.length === 43 && CSRF_TOKEN.test(token);
}

function sameSecret(expected: string | undefined, given: unknown): boolean {
  // Shape first: timingSafeEqual throws on buffers of different byte lengths (non-ASCII
  // characters), and a malformed token is simply a wrong one.
  if (!wellFormed(given) || !wellFormed(expected)) return false;
  return timingSafeEqual(Buffer.from(given, 'latin1'), Buffer.from(expected, 'latin1'));
}

/** True when a posted `_csrf` value belongs to this session. */
export function verifyCsrf(session: Session, token: unknown): boolean {
  return sameSecret(session.csrfSecret, token);
}

/** A new login-form CSRF token (the form, before any session, keeps it in a cookie). */
export function newCsrfToken(): string {
  return randomToken();
}

/** Whether a login-form token is one we could have issued (else a new one is issued). */
export function isCsrfToken(token: unknown): token is string {
  return wellFormed(token);
}

/** True when the login form's posted token is the one its cookie holds. */
export function sameCsrfToken(expected: string | undefined, given: unknown): boolean {
  return sameSecret(expected, given);
}
