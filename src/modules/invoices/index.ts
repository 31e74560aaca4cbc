export {
  type BookingInvoiceInput,
  createBookingInvoice,
  createCancellationFeeInvoice,
  createInvoice,
  type IssuedInvoice,
} from './create-invoice.service.ts';
export { invoiceRoutes } from './invoices.routes.ts';
export type { InvoiceView } from './invoices.schemas.ts';
export {
  bookingInvoices,
  getInvoice,
  issuedInvoiceIds,
  listInvoices,
  markOverdueInvoices,
} from './invoices.service.ts';
export { overdueInvoicesWorker } from './overdue.ts';
export { invoiceTotals, taxOn } from './totals.ts';
