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
  type ChargeToRecord,
  cardToCharge,
  chargeCard,
  chargeToRecord,
  invoicePayments,
  type PaymentAttempt,
  recordOfflinePayment,
  refundInvoicePayments,
  requireProcessor,
} from './payments.service.ts';
export { builtInProcessors, cardBrand, luhnValid, testProcessor } from './processor.ts';
