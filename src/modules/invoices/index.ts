export {
  type BookingInvoiceInput,
  createBookingInvoice,
  createCancellationFeeInvoice,
  createInvoice,
} from './create-invoice.service.ts';
export { invoiceRoutes } from './invoices.routes.ts';
export type { InvoiceView } from './invoices.schemas.ts';
export {
  bookingInvoices,
  getInvoice,
  type InvoiceDeps,
  type IssuedInvoice,
  listInvoices,
  loadInvoiceView,
  markOverdueInvoices,
} from './invoices.service.ts';
export { overdueInvoicesWorker } from './overdue.ts';
export { invoiceTotals, taxOn } from './totals.ts';
