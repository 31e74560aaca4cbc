// Examples for the OpenAPI document (core/http/openapi.ts): taken from real answers of the API
// to a demo account, so each is what a client will see; a test validates them against their schemas.
import type { Examples } from '../../core/http/openapi.ts';

export const webhooksExamples: Examples = {
  schemas: {
    Webhook: {
      id: 'wh_BA4cUtCNT7BB1MygYqtFlP3l',
      metadata: {},
      url: 'https://hooks.example.com/fieldhand',
      events: ['booking.created', 'booking.cancelled'],
      description: 'Our CRM',
      status: 'active',
      disabled_reason: null,
      created_at: '2026-11-24T06:11:25.178Z',
      updated_at: '2026-11-24T06:11:25.185Z',
    },
    WebhookWithSecret: {
      id: 'wh_BA4cUtCNT7BB1MygYqtFlP3l',
      metadata: {},
      url: 'https://hooks.example.com/fieldhand',
      events: ['booking.created', 'invoice.paid'],
      description: 'Our CRM',
      status: 'active',
      disabled_reason: null,
      created_at: '2026-11-24T06:11:25.178Z',
      updated_at: '2026-11-24T06:11:25.178Z',
      secret: 'whsec_c2FtcGxlIHNpZ25pbmcgc2VjcmV0IGZvciB0aGUgZG9jcw==',
    },
    WebhookDelivery: {
      id: 'whd_xniaJGVaEoHEe1GlvhizDJ6S',
      event_id: 'evt_WLQEipyMaMxczZ8Rqv8lr2Ju',
      event_type: 'booking.created',
      attempt: 1,
      status: 'pending',
      response_code: null,
      response_time_ms: null,
      error: null,
      attempted_at: null,
      next_attempt_at: '2026-11-24T06:11:25.305Z',
    },
  },
  requests: {
    createWebhook: {
      url: 'https://hooks.example.com/fieldhand',
      events: ['booking.created', 'invoice.paid'],
      description: 'Our CRM',
    },
    updateWebhook: {
      events: ['booking.created', 'booking.cancelled', 'invoice.paid'],
    },
    sendWebhookTestEvent: {
      event_type: 'booking.created',
    },
  },
};
