export type { PaymentMethodRow, PaymentRow, RefundRow } from './payments.repository.ts';
export { listPayments, listRefunds } from './payments.repository.ts';
export { paymentMethodRoutes } from './payments.routes.ts';
export {
  type PaymentMethodSummary,
  PaymentMethodSummary as PaymentMethodSummarySchema,
  type PaymentView,
  type RefundView,
} from './payments.schemas.ts';
export {
  chargeCard,
  type PaymentAttempt,
  type PaymentDeps,
  paymentMethodForCharge,
  paymentSummary,
  paymentView,
  recordOfflinePayment,
  refundInvoicePayments,
  refundView,
  requireProcessor,
} from './payments.service.ts';
export {
  builtInProcessors,
  type CardDetails,
  type ChargeResult,
  cardBrand,
  luhnValid,
  type PaymentProcessor,
  type PaymentProcessors,
  processorFor,
  testProcessor,
} from './processor.ts';
