// What other modules use of the catalog. Bookings: load the contexts inside their transaction,
// then call the pure availability and pricing functions (availability/, pricing/) on them.

export { insertTimeBlock, redeemCoupon, releaseTimeBlocks, tryInsertTimeBlock } from './catalog.repository.ts';
export { catalogRoutes } from './catalog.routes.ts';
export { Pricing, ServiceConfiguration } from './catalog.schemas.ts';
export {
  listProducts,
  loadPricingContext,
  loadSchedulingContext,
  type PricingContext,
  type SchedulingContext,
} from './catalog.service.ts';
export { applyCatalog, exportCatalog, type ImportSummary, importCatalog, seedCatalog } from './catalog-file.service.ts';
export { CATALOG_FORMAT, type CatalogFile, CatalogFileError, parseCatalogFile } from './catalog-file.ts';
export { seedDemoCatalog } from './demo.ts';
export { type CatalogSettings, DEFAULT_SETTINGS, loadCatalogSettings } from './settings.ts';

/** The exclusion constraint that refuses overlapping time for one crew member (→ 409 slot_unavailable). */
export const STAFF_OVERLAP_CONSTRAINT = 'staff_time_blocks_no_overlap';
