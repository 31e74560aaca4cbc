// Examples for the OpenAPI document (core/http/openapi.ts), shaped as the API answers; a test
// validates them against their schemas.
import type { Examples } from '../../core/http/openapi.ts';

export const eventsExamples: Examples = {
  schemas: {
    Event: {
      id: 'evt_3hGk2Lq9PzR7sWc1VbN8xYtA',
      type: 'customer.updated',
      timestamp: '2026-11-23T15:04:11.512Z',
      environment: 'test',
      test: false,
      data: {
        object: {
          id: 'cust_wdIjnYijZHbVL3I28McnPkDB',
          first_name: 'Maria',
          last_name: 'Garcia',
          email: 'maria.garcia@example.com',
          metadata: { crm_id: 'HS-88213' },
        },
      },
    },
  },
};
