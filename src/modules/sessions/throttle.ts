// Sign-in throttling with device cookies (OWASP, "Slow Down Online Guessing Attacks with
// Device Cookies"). A browser the user signed in from before is judged only by its own
// failures; any other browser by its client address, its (e-mail, address) pair and the
// e-mail's failures from all new browsers together. So whoever knows an admin's e-mail but not
// the password can pause new browsers, never the admin's own.
import type { Sql } from '../../core/db.ts';
import { hashSecret } from '../../core/ids.ts';
import type { KnownDevice } from './devices.ts';
import * as repository from './sessions.repository.ts';

/** Failures are counted in windows of this length … */
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** … and a subject that reaches its limit in a window is paused this long. */
export const THROTTLE_LOCK_MS = 15 * 60 * 1000;

/** Failures allowed per window, per subject. */
export const SIGN_IN_LIMITS = {
  /** One e-mail from one client address, in a browser that has not signed in to it before. */
  emailAtAddress: 5,
  /** Any e-mails from one client address (offices share one): a larger budget. */
  address: 20,
  /** One e-mail from every new browser at once: caps guessing spread over many addresses. */
  emailFromNewBrowsers: 50,
  /** One remembered browser, for its own user. */
  device: 5,
} as const;

type Kind = keyof typeof SIGN_IN_LIMITS;

export interface ThrottleSubject {
  kind: Kind;
  hash: string;
}

/** What a sign-in attempt is counted against (subjects are stored hashed). */
export function throttleSubjects(email: string, address: string, device: KnownDevice | null): ThrottleSubject[] {
  if (device) return [{ kind: 'device', hash: hashSecret(`device:${device.tokenHash}`) }];
  const normalized = email.trim().toLowerCase();
  return [
    { kind: 'emailAtAddress', hash: hashSecret(`email-at-address:${JSON.stringify([normalized, address])}`) },
    { kind: 'address', hash: hashSecret(`ip:${address}`) },
    { kind: 'emailFromNewBrowsers', hash: hashSecret(`email:${normalized}`) },
  ];
}

/** When the latest pause among these subjects ends, or null when none is paused. */
export async function pausedUntil(db: Sql, subjects: ThrottleSubject[], now: Date): Promise<Date | null> {
  let latest: Date | null = null;
  const rows = await repository.findThrottles(
    db,
    subjects.map((subject) => subject.hash),
  );
  for (const row of rows) {
    if (!row.locked_until) continue;
    const until = new Date(row.locked_until);
    if (until > now && (!latest || until > latest)) latest = until;
  }
  return latest;
}

export async function countFailure(db: Sql, subjects: ThrottleSubject[], now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const until = new Date(now.getTime() + THROTTLE_LOCK_MS);
  for (const subject of subjects) {
    await repository.recordFailure(db, subject.hash, now, windowStart, SIGN_IN_LIMITS[subject.kind], until);
  }
}

/**
 * After a successful sign-in, this browser's own counts start again. The address's and the
 * e-mail's counts over all new browsers stay: a sign-in must not hand an attacker a new budget.
 */
export async function forgetFailures(db: Sql, subjects: ThrottleSubject[]): Promise<void> {
  const own = subjects.filter((subject) => subject.kind === 'device' || subject.kind === 'emailAtAddress');
  if (own.length === 0) return;
  await repository.clearThrottles(
    db,
    own.map((subject) => subject.hash),
  );
}
