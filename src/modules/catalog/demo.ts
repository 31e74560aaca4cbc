import type { Deps } from '../../core/deps.ts';
import type { Tenant } from '../../core/tenant.ts';
import { applyCatalog } from './catalog-file.service.ts';
import { checkCatalog } from './catalog-file.ts';
import { DEMO_CATALOG } from './demo-catalog.ts';

// Checked once, when the module loads, by the same rules as a file a business imports.
const CHECKED_DEMO_CATALOG = checkCatalog(DEMO_CATALOG);

/**
 * Loads the demo catalog (zones, crews, industries, coupons, settings) into one environment, in
 * the transaction that creates the account (the accounts module's demo seeder hook).
 */
export async function seedDemoCatalog(deps: Deps, tenant: Tenant): Promise<void> {
  await applyCatalog(deps.db, tenant, CHECKED_DEMO_CATALOG, deps.clock.now());
}
