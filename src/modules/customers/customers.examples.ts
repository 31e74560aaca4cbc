// Examples for the OpenAPI document (core/http/openapi.ts): taken from real answers of the API
// to a demo account, so each is what a client will see; a test validates them against their schemas.
import type { Examples } from '../../core/http/openapi.ts';

export const customersExamples: Examples = {
  schemas: {
    Customer: {
      id: 'cust_wdIjnYijZHbVL3I28McnPkDB',
      metadata: { crm_id: 'HS-88213' },
      first_name: 'Maria',
      last_name: 'Garcia',
      email: 'maria.garcia@example.com',
      phone: '+12125550143',
      status: 'active',
      addresses: [
        {
          id: 'addr_yqwt6lPdwgTWERqz5mqQxLWN',
          label: 'Home',
          street: '350 W 31st St, Apt 4B',
          city: 'New York',
          state: 'NY',
          zip: '10001',
          is_default: true,
          access_notes: 'Doorman building; ask for the key at the desk.',
          created_at: '2026-11-24T06:11:22.265Z',
        },
      ],
      stats: {
        total_bookings: 0,
        total_spent: 0,
        last_booking_at: null,
        active_subscription: false,
      },
      preferences: {
        preferred_contact: 'sms',
        marketing_opt_in: false,
      },
      credit_balance: 0,
      created_at: '2026-11-24T06:11:22.265Z',
      updated_at: '2026-11-24T06:11:22.265Z',
    },
    Address: {
      id: 'addr_tKvnvkavN0Up45NV4MhPOXiH',
      label: 'Office',
      street: '11 Penn Plaza, Floor 5',
      city: 'New York',
      state: 'NY',
      zip: '10001',
      is_default: false,
      access_notes: null,
      created_at: '2026-11-24T06:11:22.599Z',
    },
  },
  requests: {
    createCustomer: {
      first_name: 'Maria',
      last_name: 'Garcia',
      email: 'maria.garcia@example.com',
      phone: '+12125550143',
      address: {
        label: 'Home',
        street: '350 W 31st St, Apt 4B',
        city: 'New York',
        state: 'NY',
        zip: '10001',
        access_notes: 'Doorman building; ask for the key at the desk.',
      },
      preferences: {
        preferred_contact: 'sms',
        marketing_opt_in: false,
      },
    },
    updateCustomer: {
      phone: '+12125550199',
      preferences: {
        marketing_opt_in: true,
      },
    },
    createCustomerAddress: {
      label: 'Office',
      street: '11 Penn Plaza, Floor 5',
      city: 'New York',
      state: 'NY',
      zip: '10001',
    },
  },
};
