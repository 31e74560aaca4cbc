// What other modules and the app use of bookings.
export { bookingRoutes } from './bookings.routes.ts';
export type { BookingDetailView, BookingView } from './bookings.schemas.ts';
export {
  bookingsHeldBy,
  createBooking,
  crewNames,
  customerHasOpenBookings,
  getBooking,
  listBookings,
} from './bookings.service.ts';
export { cancelBooking, completeBooking, startBooking } from './lifecycle.service.ts';
