import { type Static, Type } from 'typebox';
import { MetadataBody } from '../../core/http/metadata.ts';
import { ListOf, ListQuery } from '../../core/http/pagination.ts';
import { Nullable, Strict, Timestamp } from '../../core/http/schemas.ts';

export const WebhookStatus = Type.Enum(['active', 'disabled']);

const EventPatterns = Type.Array(Type.String({ maxLength: 64 }), {
  minItems: 1,
  maxItems: 50,
  description: 'Event names (e.g. `booking.created`), `resource.*` (e.g. `invoice.*`) or `*` for every event.',
});

const WebhookFields = {
  id: Type.String({ description: 'Prefix wh_.' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  status: WebhookStatus,
  disabled_reason: Nullable(
    Type.Enum(['manual', 'gone', 'failing'], {
      description:
        'Why a disabled endpoint is disabled: by request, the endpoint answered 410 Gone, or it failed for 5 days.',
    }),
  ),
  metadata: Type.Ref('Metadata'),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Webhook = Type.Object(WebhookFields, { $id: 'Webhook', title: 'Webhook' });

export const WebhookWithSecret = Type.Object(
  {
    ...WebhookFields,
    secret: Type.String({ description: 'whsec_… signing secret; returned only by create and rotate_secret.' }),
  },
  { $id: 'WebhookWithSecret', title: 'WebhookWithSecret' },
);

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ description: 'Prefix whd_. One record per attempt.' }),
    event_id: Type.String({ description: 'The event id, also sent as the webhook-id header.' }),
    event_type: Type.String(),
    attempt: Type.Integer({ description: '1 for the first attempt, then 2, 3… for each retry.' }),
    status: Type.Enum(['pending', 'succeeded', 'failed']),
    response_code: Nullable(Type.Integer()),
    response_time_ms: Nullable(Type.Integer()),
    error: Nullable(
      Type.Object({
        type: Type.String({
          description: 'http_error, timeout, connection_error, dns_error, tls_error, unsafe_url or endpoint_disabled.',
        }),
        message: Type.String(),
      }),
    ),
    attempted_at: Nullable(Timestamp),
    next_attempt_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'For a pending attempt, when it is due; for a failed one, when its retry is due.',
      }),
    ),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery' },
);

export type WebhookView = Static<typeof Webhook>;
export type WebhookWithSecretView = Static<typeof WebhookWithSecret>;
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;

export const NewWebhookBody = Strict({
  url: Type.String({ maxLength: 2048, description: 'HTTPS URL on the public Internet.' }),
  events: EventPatterns,
  description: Type.Optional(Type.String({ maxLength: 500 })),
  metadata: MetadataBody,
});
export type NewWebhookBody = Static<typeof NewWebhookBody>;

export const UpdateWebhookBody = Strict({
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  events: Type.Optional(EventPatterns),
  description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  status: Type.Optional(WebhookStatus),
  metadata: MetadataBody,
});
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const TestWebhookBody = Strict({
  event_type: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'Which event to simulate; defaults to the first event type the endpoint subscribes to.',
    }),
  ),
});
export type TestWebhookBody = Static<typeof TestWebhookBody>;

export const WebhookListQuery = Type.Object({
  ...ListQuery,
  status: Type.Optional(WebhookStatus),
});
export type WebhookListQuery = Static<typeof WebhookListQuery>;

export const DeliveryListQuery = Type.Object({
  ...ListQuery,
  status: Type.Optional(Type.Enum(['pending', 'succeeded', 'failed'])),
  event_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only the attempts of this event.' })),
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;

export const WebhookList = ListOf(Type.Ref('Webhook'));
export const DeliveryList = ListOf(Type.Ref('WebhookDelivery'));
