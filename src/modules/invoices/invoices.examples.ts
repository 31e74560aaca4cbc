// Examples for the OpenAPI document (core/http/openapi.ts): taken from real answers of the API
// to a demo account, so each is what a client will see; a test validates them against their schemas.
import type { Examples } from '../../core/http/openapi.ts';
import { paymentExample } from '../payments/index.ts';

// The refund the refundInvoice request below makes; the invoice example lists it.
const refund = {
  id: 're_GoIWylXlnJB824WbwKDI1ohd',
  object: 'refund',
  invoice_id: 'inv_W0ZvYMZ7XKYaj2EqbOvz00OZ',
  amount: 3500,
  reason: 'The fridge was not cleaned.',
  refund_to: 'original_payment_method',
  status: 'succeeded',
  created_at: '2026-11-24T06:11:24.427Z',
};

export const invoicesExamples: Examples = {
  schemas: {
    Invoice: {
      id: 'inv_W0ZvYMZ7XKYaj2EqbOvz00OZ',
      metadata: { quickbooks_id: 'QB-10442' },
      object: 'invoice',
      number: 'INV-000002',
      status: 'paid',
      customer: {
        id: 'cust_wdIjnYijZHbVL3I28McnPkDB',
        name: 'Maria Garcia',
        email: 'maria.garcia@example.com',
      },
      booking_id: null,
      currency: 'usd',
      line_items: [
        {
          description: 'Deep clean, 2 bedrooms',
          quantity: 1,
          unit_price: 18000,
          total: 18000,
        },
        {
          description: 'Inside the fridge',
          quantity: 1,
          unit_price: 3500,
          total: 3500,
        },
      ],
      subtotal: 21500,
      discount: 0,
      discount_description: null,
      tax_rate: 8.875,
      tax: 1908,
      total: 23408,
      amount_paid: 23408,
      amount_refunded: 3500,
      balance: 0,
      due_date: '2026-12-02',
      issued_at: '2026-11-24T06:11:24.233Z',
      paid_at: '2026-11-24T06:11:24.360Z',
      voided_at: null,
      void_reason: null,
      payment_method: {
        type: 'card',
        brand: 'visa',
        last4: '4242',
      },
      last_payment_error: null,
      payments: [paymentExample],
      refunds: [refund],
      created_at: '2026-11-24T06:11:24.193Z',
      updated_at: '2026-11-24T06:11:24.427Z',
    },
    Refund: refund,
  },
  requests: {
    updateInvoice: {
      metadata: { quickbooks_id: 'QB-10442', po_number: '' },
    },
    createInvoice: {
      customer_id: 'cust_wdIjnYijZHbVL3I28McnPkDB',
      line_items: [
        {
          description: 'Deep clean, 2 bedrooms',
          quantity: 1,
          unit_price: 18000,
        },
        {
          description: 'Inside the fridge',
          quantity: 1,
          unit_price: 3500,
        },
      ],
      tax_rate: 8.875,
      due_date: '2026-12-02',
      draft: true,
    },
    finalizeInvoice: {
      send_email: false,
    },
    payInvoice: {
      payment_method_id: 'pm_Sa72di3NuMBOpLfNR5y497Nu',
    },
    refundInvoice: {
      amount: 3500,
      reason: 'The fridge was not cleaned.',
      refund_to: 'original_payment_method',
    },
    voidInvoice: {
      reason: 'Billed twice.',
    },
  },
};
