import { describe, expect, it } from 'vitest';
import { hashPassword, NO_USER_HASH, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('verifies unknown users against a hash made with the same parameters as real ones', async () => {
    const parameters = (hash: string) => hash.split('$').slice(1, 4).join('$');
    expect(parameters(NO_USER_HASH)).toBe(parameters(await hashPassword('any password at all')));
    expect(await verifyPassword(NO_USER_HASH, 'not-a-real-password')).toBe(true);
    expect(await verifyPassword(NO_USER_HASH, 'anything else')).toBe(false);
  });
});
