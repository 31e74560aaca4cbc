import { constraintViolated, isoTimestamp } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { AppError, found, invalidParameter } from '../../core/errors.ts';
import { newId, randomBase62 } from '../../core/ids.ts';
import { ENVIRONMENTS, type Tenant } from '../../core/tenant.ts';
import * as repository from './accounts.repository.ts';
import { hashPassword, NO_USER_HASH, verifyPassword } from './passwords.ts';

export interface NewAccount {
  name: string;
  adminEmail: string;
  adminPassword: string;
  adminName?: string;
}

/**
 * Fills a new account's environments with demo data, inside the account's transaction;
 * supplied by the caller (demo imports accounts, so accounts cannot import demo).
 */
export type DemoSeeder = (deps: Deps, tenant: Tenant) => Promise<void>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function createAccount(
  deps: Deps,
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
    await inTransaction(deps, async (deps) => {
      await repository.insertAccount(deps.db, { id: accountId, name: input.name.trim() });
      await repository.insertUser(deps.db, {
        id: userId,
        accountId,
        email: input.adminEmail.trim(),
        name: input.adminName ?? '',
        passwordHash,
      });
      if (seedDemo) {
        for (const environment of ENVIRONMENTS) await seedDemo(deps, { accountId, environment });
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

export interface SignedInUser {
  id: string;
  accountId: string;
  email: string;
  name: string;
}

/** The user with this e-mail and password, or null; takes as long either way. */
export async function authenticateUser(
  deps: Pick<Deps, 'db'>,
  credentials: { email: string; password: string },
): Promise<SignedInUser | null> {
  const user = await repository.findUserByEmail(deps.db, credentials.email);
  // Verify against a throwaway hash when there is no such user, so timing does not tell.
  const ok = await verifyPassword(user?.password_hash ?? NO_USER_HASH, credentials.password);
  return user && ok ? { id: user.id, accountId: user.account_id, email: user.email, name: user.name } : null;
}

export async function accountExists(deps: Pick<Deps, 'db'>, accountId: string): Promise<boolean> {
  return (await repository.findAccount(deps.db, accountId)) !== undefined;
}

/** Whether any account exists yet (the first start of an empty database has none). */
export async function hasAccounts(deps: Pick<Deps, 'db'>): Promise<boolean> {
  return (await repository.countAccounts(deps.db)) > 0;
}

/** Where the account's notices go (a webhook endpoint disabled, …): its admins' e-mails. */
export function adminEmails(deps: Pick<Deps, 'db'>, accountId: string): Promise<string[]> {
  return repository.listAdminEmails(deps.db, accountId);
}

/** Every account, for the operator (`fieldhand accounts list`): ids to pass as --account. */
export async function listAccounts(deps: Pick<Deps, 'db'>) {
  const rows = await repository.listAccounts(deps.db);
  return rows.map((row) => ({
    account_id: row.id,
    name: row.name,
    admin_emails: row.admin_emails,
    created_at: isoTimestamp(row.created_at),
  }));
}

/**
 * Gives a user a new password (the one given, or a new random one that is returned once) and
 * calls `endSessions` so that nobody stays signed in with the old one.
 */
export async function resetPassword(
  deps: Deps,
  input: { email: string; password?: string },
  endSessions: (deps: Deps, userId: string) => Promise<void>,
): Promise<{ user_id: string; email: string; password: string }> {
  const user = found(
    await repository.findUserByEmail(deps.db, input.email.trim()),
    'user',
    input.email.trim(),
    'email',
  );
  const password = input.password ?? randomBase62(16);
  if (password.length < 8) throw invalidParameter('password', 'The password must be at least 8 characters.');
  const passwordHash = await hashPassword(password);
  await inTransaction(deps, async (deps) => {
    await repository.setPasswordHash(deps.db, user.id, passwordHash);
    await endSessions(deps, user.id);
  });
  return { user_id: user.id, email: user.email, password };
}
