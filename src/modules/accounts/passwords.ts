// Passwords are hashed with Argon2id (memory-hard), never stored or logged in the clear.
import { hash, verify } from '@node-rs/argon2';

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * What a sign-in with an unknown e-mail is verified against, so that it takes as long as one
 * with a known e-mail: a hash of a throwaway password with the parameters `hashPassword` uses
 * (passwords.test.ts keeps the two in step). A constant, so no process hashes it at start.
 */
export const NO_USER_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$UUKE2kcY5bTJijS49KHY4w$0Ca6xFJ6qXELhxhl5HKibllpkVcqMq/ooKGK7YLJpaM';
