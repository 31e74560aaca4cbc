// What other modules use of the catalog. Bookings load the contexts inside their transaction
// (tx-bound deps), then call the pure availability and pricing functions on them; crew time is
// held and freed here because the catalog owns staff_time_blocks.
export { catalogRoutes } from './catalog.routes.ts';
export { Pricing, ServiceConfiguration } from './catalog.schemas.ts';
export {
  blockCrewTime,
  type CrewTime,
  holdCrewTime,
  listProducts,
  loadPricingContext,
  loadSchedulingContext,
  type PricingContext,
  redeemCoupon,
  releaseCrewTime,
  type SchedulingContext,
  STAFF_OVERLAP_CONSTRAINT,
  staffNames,
  zoneZips,
} from './catalog.service.ts';
export { exportCatalog, type ImportSummary, importCatalog } from './catalog-file.service.ts';
export type { CatalogFile } from './catalog-file.ts';
export { seedDemoCatalog } from './demo.ts';
export { type CatalogSettings, loadCatalogSettings } from './settings.ts';
