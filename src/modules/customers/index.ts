// What the app and other modules use of customers: its routes, and services that run in the
// caller's transaction when given tx-bound deps.
export { customerRoutes } from './customers.routes.ts';
export type { AddressView, CustomerListQuery, CustomerView } from './customers.schemas.ts';
export {
  adjustCustomerBalances,
  type BookingStats,
  bookingStatsWrite,
  customerAddress,
  customerBalancesWrite,
  getCustomer,
  listCustomers,
  lockCustomer,
  lockCustomerForBooking,
  type OpenBookingsCheck,
  requireCustomer,
  setBookingStats,
} from './customers.service.ts';
