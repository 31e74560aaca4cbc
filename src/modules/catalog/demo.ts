import type { Sql } from '../../core/db.ts';
import type { Tenant } from '../../core/tenant.ts';
import { seedCatalog } from './catalog-file.service.ts';
import { DEMO_CATALOG } from './demo-catalog.ts';

/** Loads the demo catalog (zones, crews, industries, coupons, settings) into one environment. */
export function seedDemoCatalog(tx: Sql, tenant: Tenant): Promise<void> {
  return seedCatalog(tx, tenant, DEMO_CATALOG, new Date());
}
