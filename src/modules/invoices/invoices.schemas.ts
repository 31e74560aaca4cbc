import { type Static, Type } from 'typebox';
import { MetadataBody } from '../../core/http/metadata.ts';
import { customerListQueries, ListOf } from '../../core/http/pagination.ts';
import { DateOnly, Nullable, Strict, Timestamp, TimestampOrDate } from '../../core/http/schemas.ts';
import { PaymentMethodSummarySchema } from '../payments/index.ts';

/** Amounts beyond what JavaScript holds exactly are refused (400), not left to overflow. */
const MAX_CENTS = Number.MAX_SAFE_INTEGER;

export const InvoiceStatus = Type.Enum(['draft', 'pending', 'paid', 'overdue', 'void']);

const LineItemFields = {
  description: Type.String({ minLength: 1, maxLength: 500 }),
  quantity: Type.Integer({ minimum: 1, maximum: 100_000 }),
  unit_price: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Cents.' }),
};

export const Invoice = Type.Object(
  {
    id: Type.String({ description: 'Prefix inv_.' }),
    object: Type.Literal('invoice'),
    number: Nullable(Type.String({ description: 'INV-000001, sequential per environment; null while draft.' })),
    status: InvoiceStatus,
    customer: Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }),
    booking_id: Nullable(Type.String()),
    currency: Type.String(),
    line_items: Type.Array(Type.Object({ ...LineItemFields, total: Type.Integer() })),
    subtotal: Type.Integer(),
    discount: Type.Integer(),
    discount_description: Nullable(Type.String()),
    tax_rate: Type.Number({ description: 'Percent.' }),
    tax: Type.Integer(),
    total: Type.Integer(),
    amount_paid: Type.Integer({ description: 'Cents collected (refunds do not reduce it).' }),
    amount_refunded: Type.Integer(),
    balance: Type.Integer({ description: 'total - amount_paid: what is still owed.' }),
    due_date: DateOnly,
    issued_at: Nullable(Timestamp),
    paid_at: Nullable(Timestamp),
    voided_at: Nullable(Timestamp),
    void_reason: Nullable(Type.String()),
    payment_method: Nullable(PaymentMethodSummarySchema),
    last_payment_error: Nullable(Type.Object({ code: Type.String(), message: Type.String(), at: Timestamp })),
    payments: Type.Array(Type.Ref('Payment')),
    refunds: Type.Array(Type.Ref('Refund')),
    metadata: Type.Ref('Metadata'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Invoice', title: 'Invoice' },
);
export type InvoiceView = Static<typeof Invoice>;

export const NewInvoiceBody = Strict({
  customer_id: Type.String({ maxLength: 64 }),
  line_items: Type.Array(Strict(LineItemFields), { minItems: 1, maxItems: 100 }),
  booking_id: Type.Optional(
    Type.String({
      maxLength: 64,
      description: "The booking this invoice bills: one of this environment's bookings, of customer_id.",
    }),
  ),
  tax_rate: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, description: 'Percent, at most 4 decimals (default 0).' }),
  ),
  discount: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_CENTS, description: 'Cents off the subtotal, before tax.' }),
  ),
  discount_description: Type.Optional(Type.String({ maxLength: 500 })),
  due_date: Type.Optional(DateOnly),
  send_email: Type.Optional(Type.Boolean({ description: 'E-mail the invoice to the customer when it is issued.' })),
  auto_charge: Type.Optional(
    Type.Boolean({ description: "Charge the customer's default card at once (not with draft)." }),
  ),
  draft: Type.Optional(Type.Boolean({ description: 'Create as draft; finalize issues it.' })),
  metadata: MetadataBody,
});
export type NewInvoiceBody = Static<typeof NewInvoiceBody>;

/** What an invoice's PATCH may change: only its metadata; its money moves through finalize, pay, void and refund. */
export const UpdateInvoiceBody = Strict({ metadata: MetadataBody });
export type UpdateInvoiceBody = Static<typeof UpdateInvoiceBody>;

export const FinalizeBody = Strict({
  send_email: Type.Optional(Type.Boolean({ description: 'Defaults to the send_email given at creation.' })),
});
export type FinalizeBody = Static<typeof FinalizeBody>;

export const PayBody = Strict({
  payment_method_id: Type.Optional(Type.String({ maxLength: 64, description: "A card of the invoice's customer." })),
  method: Type.Optional(Type.Enum(['cash', 'check'], { description: 'An offline payment, instead of a card.' })),
  amount: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_CENTS, description: 'Cents; default the whole balance.' }),
  ),
});
export type PayBody = Static<typeof PayBody>;

export const VoidBody = Strict({ reason: Type.Optional(Type.String({ maxLength: 500 })) });
export type VoidBody = Static<typeof VoidBody>;

export const RefundBody = Strict({
  amount: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_CENTS, description: 'Cents; default everything not yet refunded.' }),
  ),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
  refund_to: Type.Optional(
    Type.Enum(['original_payment_method', 'account_credit'], { description: 'Default original_payment_method.' }),
  ),
});
export type RefundBody = Static<typeof RefundBody>;

const invoiceQueries = customerListQueries({
  status: Type.Optional(InvoiceStatus),
  date_from: Type.Optional(TimestampOrDate),
  date_to: Type.Optional(TimestampOrDate),
  min_amount: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_CENTS, description: 'Minimum total, cents.' })),
  max_amount: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_CENTS, description: 'Maximum total, cents.' })),
});

export const InvoiceListQuery = invoiceQueries.all;
export type InvoiceListQuery = Static<typeof InvoiceListQuery>;

export const CustomerInvoiceListQuery = invoiceQueries.ofCustomer;
export type CustomerInvoiceListQuery = Static<typeof CustomerInvoiceListQuery>;

export const InvoiceList = ListOf(Type.Ref('Invoice'));
