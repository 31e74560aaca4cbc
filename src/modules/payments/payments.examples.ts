// Examples for the OpenAPI document (core/http/openapi.ts): taken from real answers of the API
// to a demo account, so each is what a client will see; a test validates them against their schemas.
import type { Examples } from '../../core/http/openapi.ts';

// A card payment of the invoice example (invoices.examples.ts), which lists it.
export const paymentExample = {
  id: 'pay_gBab6Q1R7SzE2wYikOiMVvSw',
  object: 'payment',
  invoice_id: 'inv_W0ZvYMZ7XKYaj2EqbOvz00OZ',
  amount: 23408,
  status: 'succeeded',
  payment_method_id: 'pm_Sa72di3NuMBOpLfNR5y497Nu',
  payment_method: {
    type: 'card',
    brand: 'visa',
    last4: '4242',
  },
  failure: null,
  amount_refunded: 3500,
  created_at: '2026-11-24T06:11:24.360Z',
};

export const paymentsExamples: Examples = {
  schemas: {
    PaymentMethod: {
      id: 'pm_Sa72di3NuMBOpLfNR5y497Nu',
      object: 'payment_method',
      customer_id: 'cust_wdIjnYijZHbVL3I28McnPkDB',
      type: 'card',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2030,
      is_default: true,
      created_at: '2026-11-24T06:11:24.094Z',
    },
    Payment: paymentExample,
  },
  requests: {
    createPaymentMethod: {
      card: {
        number: '4242424242424242',
        exp_month: 12,
        exp_year: 2030,
        cvc: '123',
      },
      is_default: true,
    },
    updatePaymentMethod: {
      is_default: true,
    },
  },
};
