import { constraintViolated, type Sql, transaction } from '../../core/db.ts';
import type { Deps } from '../../core/deps.ts';
import { AppError, invalidParameter } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { ENVIRONMENTS } from '../../core/tenant.ts';
import * as repository from './accounts.repository.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export interface NewAccount {
  name: string;
  adminEmail: string;
  adminPassword: string;
  adminName?: string;
}

/** Fills a new account's environments with demo data; supplied by the app (catalog, customers). */
export type DemoSeeder = (tx: Sql, tenant: { accountId: string; environment: 'test' | 'live' }) => Promise<void>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function createAccount(
  db: Sql,
  input: NewAccount,
  seedDemo?: DemoSeeder,
): Promise<{ account_id: string; admin_user_id: string }> {
  if (!input.name.trim()) throw invalidParameter('name', 'The account name must not be empty.');
  if (!EMAIL.test(input.adminEmail)) throw invalidParameter('admin_email', 'The admin e-mail is not valid.');
  if (input.adminPassword.length < 8) {
    throw invalidParameter('admin_password', 'The admin password must be at least 8 characters.');
  }
  const accountId = newId('account');
  const userId = newId('user');
  const passwordHash = await hashPassword(input.adminPassword);
  try {
    await transaction(db, async (tx) => {
      await repository.insertAccount(tx, { id: accountId, name: input.name.trim() });
      await repository.insertUser(tx, {
        id: userId,
        accountId,
        email: input.adminEmail.trim(),
        name: input.adminName ?? '',
        passwordHash,
      });
      if (seedDemo) {
        for (const environment of ENVIRONMENTS) await seedDemo(tx, { accountId, environment });
      }
    });
  } catch (error) {
    if (constraintViolated(error, 'users_email_unique')) {
      throw new AppError('resource_already_exists', `A user with e-mail ${input.adminEmail} already exists.`, {
        param: 'admin_email',
      });
    }
    throw error;
  }
  return { account_id: accountId, admin_user_id: userId };
}

/** The user with this e-mail and password, or null; takes as long either way. */
export async function authenticateUser(db: Sql, email: string, password: string) {
  const user = await repository.findUserByEmail(db, email);
  // Verify against a throwaway hash when there is no such user, so timing does not tell.
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), password);
  return user && ok ? { id: user.id, accountId: user.account_id, email: user.email, name: user.name } : null;
}

let dummy: Promise<string> | undefined;
function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password');
  return dummy;
}

export async function accountExists(deps: Pick<Deps, 'db'>, accountId: string): Promise<boolean> {
  return (await repository.findAccount(deps.db, accountId)) !== undefined;
}
