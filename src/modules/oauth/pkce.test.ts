import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormedPkceValue, s256Challenge, verifiesChallenge } from './pkce.ts';

describe('PKCE S256', () => {
  it('matches the RFC 7636 Appendix B example', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(s256Challenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifiesChallenge(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
  });

  it('accepts a verifier only for its own challenge', () => {
    const verifier = fc.stringMatching(/^[A-Za-z0-9\-._~]{43,128}$/);
    fc.assert(
      fc.property(verifier, verifier, (a, b) => {
        expect(verifiesChallenge(a, s256Challenge(a))).toBe(true);
        if (a !== b) expect(verifiesChallenge(b, s256Challenge(a))).toBe(false);
      }),
    );
  });

  it('refuses malformed verifiers and challenges', () => {
    expect(isWellFormedPkceValue('short')).toBe(false);
    expect(isWellFormedPkceValue('a'.repeat(129))).toBe(false);
    expect(isWellFormedPkceValue(`${'a'.repeat(42)}+`)).toBe(false);
    expect(verifiesChallenge('a'.repeat(42), s256Challenge('a'.repeat(42)))).toBe(false);
  });
});
