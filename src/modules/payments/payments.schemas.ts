import { type Static, Type } from 'typebox';
import { ListOf, ListQuery } from '../../core/http/pagination.ts';
import { Nullable, Strict, Timestamp } from '../../core/http/schemas.ts';

export const CardBrand = Type.Enum(['visa', 'mastercard', 'amex', 'discover', 'unknown']);

export const PaymentMethod = Type.Object(
  {
    id: Type.String({ description: 'Prefix pm_.' }),
    object: Type.Literal('payment_method'),
    customer_id: Type.String(),
    type: Type.Literal('card'),
    brand: CardBrand,
    last4: Type.String(),
    exp_month: Type.Integer(),
    exp_year: Type.Integer(),
    is_default: Type.Boolean(),
    created_at: Timestamp,
  },
  { $id: 'PaymentMethod', title: 'PaymentMethod' },
);
export type PaymentMethodView = Static<typeof PaymentMethod>;

export const NewPaymentMethodBody = Strict({
  card: Strict({
    number: Type.String({
      pattern: '^[0-9][0-9 -]{10,24}[0-9]$',
      description: 'Card number (spaces and dashes ignored). Never stored: only brand and last4 are kept.',
    }),
    exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
    exp_year: Type.Integer({ minimum: 2000, maximum: 2200 }),
    cvc: Type.String({ pattern: '^[0-9]{3,4}$', description: 'Checked for format, never stored.' }),
  }),
  is_default: Type.Optional(Type.Boolean({ description: "A customer's first card is always the default." })),
});
export type NewPaymentMethodBody = Static<typeof NewPaymentMethodBody>;

export const UpdatePaymentMethodBody = Strict({
  is_default: Type.Optional(
    Type.Literal(true, { description: 'Makes this the default card (set another card to move it away).' }),
  ),
});
export type UpdatePaymentMethodBody = Static<typeof UpdatePaymentMethodBody>;

export const PaymentMethodListQuery = Type.Object({ ...ListQuery });
export type PaymentMethodListQuery = Static<typeof PaymentMethodListQuery>;
export const PaymentMethodList = ListOf(Type.Ref('PaymentMethod'));

/** What an invoice shows of how it was paid. */
export const PaymentMethodSummary = Type.Object({
  type: Type.Enum(['card', 'cash', 'check']),
  brand: Nullable(Type.String()),
  last4: Nullable(Type.String()),
});
export type PaymentMethodSummary = Static<typeof PaymentMethodSummary>;

/** What a payment and a refund both are: an amount of an invoice's money, in that order. */
function invoiceMoney<Kind extends string>(object: Kind, idPrefix: string) {
  return {
    id: Type.String({ description: `Prefix ${idPrefix}.` }),
    object: Type.Literal(object),
    invoice_id: Type.String(),
    amount: Type.Integer(),
  };
}

export const Payment = Type.Object(
  {
    ...invoiceMoney('payment', 'pay_'),
    status: Type.Enum(['succeeded', 'failed']),
    payment_method_id: Nullable(Type.String()),
    payment_method: PaymentMethodSummary,
    failure: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    amount_refunded: Type.Integer({ description: 'Cents of this payment returned to where they came from.' }),
    created_at: Timestamp,
  },
  { $id: 'Payment', title: 'Payment' },
);
export type PaymentView = Static<typeof Payment>;

export const Refund = Type.Object(
  {
    ...invoiceMoney('refund', 're_'),
    reason: Nullable(Type.String()),
    refund_to: Type.Enum(['original_payment_method', 'account_credit']),
    status: Type.Literal('succeeded'),
    created_at: Timestamp,
  },
  { $id: 'Refund', title: 'Refund' },
);
export type RefundView = Static<typeof Refund>;
