// PKCE (RFC 7636), S256 only: the plain method would let whoever sees the authorization request
// redeem the code, which is the very attack PKCE exists to stop.
import { createHash, timingSafeEqual } from 'node:crypto';

/** A code verifier or an S256 challenge: 43-128 unreserved characters (RFC 7636 §4.1-4.2). */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isWellFormedPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Does this verifier answer this S256 challenge? */
export function verifiesChallenge(verifier: string, challenge: string): boolean {
  if (!isWellFormedPkceValue(verifier)) return false;
  const expected = Buffer.from(s256Challenge(verifier));
  const actual = Buffer.from(challenge);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
