export { paymentExample } from './payments.examples.ts';
export { paymentMethodRoutes } from './payments.routes.ts';
export {
  type PaymentMethodSummary,
  PaymentMethodSummary as PaymentMethodSummarySchema,
  type PaymentView,
  type RefundView,
} from './payments.schemas.ts';
export {
  type CardOnFile,
  cardToCharge,
  chargeCard,
  invoicePayments,
  type PaymentAttempt,
  recordOfflinePayment,
  refundInvoicePayments,
  requireProcessor,
} from './payments.service.ts';
export { builtInProcessors, cardBrand, luhnValid, testProcessor } from './processor.ts';
