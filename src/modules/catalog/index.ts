// What other modules use of the catalog. Bookings load the contexts inside their transaction
// (tx-bound deps), then call the pure availability and pricing functions on them; crew time is
// held and freed here because the catalog owns staff_time_blocks.
export { pricingExample } from './catalog.examples.ts';
export { catalogRoutes } from './catalog.routes.ts';
export { Pricing, ServiceConfiguration } from './catalog.schemas.ts';
export {
  blockCrewTime,
  type CrewHold,
  crewTimeHold,
  freeCandidates,
  holdCrewTime,
  listProducts,
  liveCatalog,
  loadBookingContext,
  loadPricingContext,
  loadSchedulingContext,
  type PricingContext,
  redeemCoupon,
  releaseCrewTime,
  type SchedulingContext,
  STAFF_OVERLAP_CONSTRAINT,
  staffNames,
  type ZoneClock,
  zoneClocks,
  zoneZips,
} from './catalog.service.ts';
export type { LiveCatalog } from './catalog-cache.ts';
export { exportCatalog, type ImportSummary, importCatalog } from './catalog-file.service.ts';
export { type CatalogFile, CatalogFileError, type Problem } from './catalog-file.ts';
export { couponRoutes } from './coupons.routes.ts';
export type { CouponView } from './coupons.schemas.ts';
export { createCoupon, deleteCoupon, getCoupon, listCoupons, updateCoupon } from './coupons.service.ts';
export { seedDemoCatalog } from './demo.ts';
export type { HeldBooking, HeldBookings } from './held-bookings.ts';
export { industryRoutes } from './industries.routes.ts';
export type { CategoryObject, ExtraObject, ProductObject } from './industries.schemas.ts';
export {
  categoryView,
  createCategory,
  createIndustry,
  deleteCategory,
  getCategory,
  getIndustry,
  type IndustryView,
  industryMenu,
  listIndustries,
  updateCategory,
  updateIndustry,
} from './industries.service.ts';
export {
  createExtra,
  createProduct,
  deleteExtra,
  deleteProduct,
  getExtra,
  getProduct,
  updateExtra,
  updateProduct,
} from './industry-items.service.ts';
export { settingsRoutes } from './settings.routes.ts';
export type { SettingsView, UpdateSettingsBody } from './settings.schemas.ts';
export {
  businessProfile,
  type CatalogSettings,
  getSettings,
  type IssuedInvoices,
  loadCatalogSettings,
  updateSettings,
} from './settings.ts';
export { staffRoutes } from './staff.routes.ts';
export type { StaffView, TimeOffView } from './staff.schemas.ts';
export { createStaff, deleteStaff, getStaff, listStaff, updateStaff } from './staff.service.ts';
export { createTimeOff, deleteTimeOff, listTimeOff } from './time-off.service.ts';
export { zoneRoutes } from './zones.routes.ts';
export type { ZoneView } from './zones.schemas.ts';
export { createZone, deleteZone, getZone, industryChoices, listZones, updateZone } from './zones.service.ts';
