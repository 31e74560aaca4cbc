// Demo data: what `accounts create --demo` and the first start on an empty embedded database
// put into both environments of an account.
import type { Deps } from '../../core/deps.ts';
import { randomBase62 } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import { createAccount, createApiKey, hasAccounts } from '../accounts/index.ts';
import { seedDemoCatalog } from '../catalog/index.ts';

/**
 * Seeds one environment of an account, in the transaction that creates it (the accounts
 * module's demo seeder hook: `deps` are bound to that transaction); every module with demo
 * data adds its part here.
 */
export async function seedDemoEnvironment(deps: Deps, tenant: Tenant): Promise<void> {
  await seedDemoCatalog(deps, tenant);
}

export const DEMO_ADMIN_EMAIL = 'admin@demo.fieldhand.dev';

/** On an empty database: a demo account, its admin and a test key, to print once. */
export async function seedFirstRun(deps: Deps) {
  if (await hasAccounts(deps)) return null;
  const password = randomBase62(16);
  const { account_id } = await createAccount(
    deps,
    { name: 'Sparkle & Haul Demo Co.', adminEmail: DEMO_ADMIN_EMAIL, adminPassword: password, adminName: 'Demo Admin' },
    seedDemoEnvironment,
  );
  const key = await createApiKey(deps, { accountId: account_id, environment: 'test' }, 'Demo test key');
  return { accountId: account_id, email: DEMO_ADMIN_EMAIL, password, testKey: key.key };
}
