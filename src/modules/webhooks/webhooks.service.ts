import { isoTimestamp } from '../../core/db.ts';
import { type Deps, inTransaction } from '../../core/deps.ts';
import { found, invalidParameter } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { mergeMetadata, metadataFilter, metadataView } from '../../core/metadata.ts';
import { pageOf, pageRequest, parseIds } from '../../core/paging.ts';
import type { Tenant } from '../../core/tenant.ts';
import {
  EVENT_TYPES,
  type EventSubscriber,
  type EventType,
  isEventPattern,
  recordSampleEvent,
} from '../events/index.ts';
import { sampleObject } from './sample-events.ts';
import { generateSecret } from './signing.ts';
import { checkWebhookUrl, UnsafeUrlError } from './url-guard.ts';
import * as repository from './webhooks.repository.ts';
import type {
  DeliveryListQuery,
  NewWebhookBody,
  TestWebhookBody,
  UpdateWebhookBody,
  WebhookDeliveryView,
  WebhookListQuery,
  WebhookView,
  WebhookWithSecretView,
} from './webhooks.schemas.ts';

/** After rotate_secret the old secret still signs for this long, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** Checks event names and patterns (`*`, `resource.*`); keeps the first of any duplicates. */
export function eventPatterns(requested: string[]): string[] {
  if (requested.length === 0) throw invalidParameter('events', 'Choose at least one event.');
  for (const pattern of requested) {
    if (!isEventPattern(pattern)) {
      throw invalidParameter(
        'events',
        `Unknown event '${pattern}'. Use an event name such as booking.created, a pattern such as booking.*, or *.`,
      );
    }
  }
  return [...new Set(requested)];
}

/** Whether an endpoint with these patterns receives events of `type`. */
export function subscribes(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => pattern === '*' || pattern === type || pattern === `${type.split('.')[0]}.*`);
}

export function webhookView(row: repository.EndpointRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    metadata: metadataView(row.metadata),
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}

export function deliveryView(row: repository.AttemptRow): WebhookDeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    attempt: row.attempt,
    status: row.status,
    response_code: row.response_code,
    response_time_ms: row.response_time_ms,
    error: row.error_type ? { type: row.error_type, message: row.error_message ?? '' } : null,
    attempted_at: isoTimestamp(row.attempted_at),
    next_attempt_at: isoTimestamp(row.next_attempt_at),
  };
}

async function safeUrl(deps: Deps, url: string): Promise<string> {
  if (url.length > 2048) throw invalidParameter('url', 'The URL can be at most 2048 characters.');
  try {
    return (await checkWebhookUrl(url, { allowPrivate: deps.config.webhookAllowPrivateUrls })).toString();
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw invalidParameter('url', error.message);
    throw error;
  }
}

function checkDescription<T extends string | null | undefined>(description: T): T {
  if (description && description.length > 500) {
    throw invalidParameter('description', 'The description can be at most 500 characters.');
  }
  return description;
}

async function endpointOrThrow(deps: Deps, tenant: Tenant, id: string, options: { forUpdate?: boolean } = {}) {
  return found(await repository.findEndpoint(deps.db, tenant, id, options), 'webhook', id);
}

/**
 * Fans an event out to the endpoints subscribed to it, inside the publishing transaction:
 * the attempts commit exactly when the event does, so none is lost and none is invented, and
 * the worker needs no cursor over the event log (whose commit order differs from id order).
 */
export const fanOutEvent: EventSubscriber = {
  rows: (tenant, events) => repository.firstAttempts(tenant, events),
};

export async function createWebhook(deps: Deps, tenant: Tenant, input: NewWebhookBody): Promise<WebhookWithSecretView> {
  const events = eventPatterns(input.events);
  const url = await safeUrl(deps, input.url);
  const id = newId('webhook');
  const secret = generateSecret();
  const now = deps.clock.now();
  await repository.insertEndpoint(deps.db, tenant, {
    id,
    url,
    events,
    description: checkDescription(input.description) ?? null,
    secret,
    metadata: mergeMetadata({}, input.metadata),
    now,
  });
  return { ...(await getWebhook(deps, tenant, id)), secret };
}

export async function getWebhook(deps: Deps, tenant: Tenant, id: string): Promise<WebhookView> {
  return webhookView(await endpointOrThrow(deps, tenant, id));
}

export async function listWebhooks(deps: Deps, tenant: Tenant, query: WebhookListQuery) {
  const page = pageRequest(query);
  const filters = { status: query.status, ids: parseIds(query.ids, 'wh'), metadata: metadataFilter(query) };
  return pageOf(page, await repository.listEndpoints(deps.db, tenant, filters, page), webhookView);
}

export async function updateWebhook(
  deps: Deps,
  tenant: Tenant,
  id: string,
  input: UpdateWebhookBody,
): Promise<WebhookView> {
  const events = input.events ? eventPatterns(input.events) : undefined;
  const url = input.url === undefined ? undefined : await safeUrl(deps, input.url);
  const now = deps.clock.now();
  return inTransaction(deps, async (deps) => {
    const current = await endpointOrThrow(deps, tenant, id, { forUpdate: true });
    const statusChange =
      input.status === undefined || input.status === current.status
        ? {}
        : input.status === 'active'
          ? // re-enabled: a fresh start for the 5-day failure rule
            { status: 'active' as const, disabled_reason: null, failing_since: null }
          : { status: 'disabled' as const, disabled_reason: 'manual' as const };
    await repository.updateEndpoint(
      deps.db,
      tenant,
      id,
      {
        url,
        events,
        description: checkDescription(input.description),
        metadata: input.metadata && mergeMetadata(current.metadata, input.metadata),
        ...statusChange,
      },
      now,
    );
    return getWebhook(deps, tenant, id);
  });
}

export async function deleteWebhook(deps: Deps, tenant: Tenant, id: string): Promise<void> {
  await endpointOrThrow(deps, tenant, id);
  await repository.deleteEndpoint(deps.db, tenant, id);
}

/** A new secret; the old one keeps signing (second signature) for 24 hours. */
export async function rotateSecret(deps: Deps, tenant: Tenant, id: string): Promise<WebhookWithSecretView> {
  const now = deps.clock.now();
  const secret = generateSecret();
  return inTransaction(deps, async (deps) => {
    const current = await endpointOrThrow(deps, tenant, id, { forUpdate: true });
    await repository.updateEndpoint(
      deps.db,
      tenant,
      id,
      {
        secret,
        previous_secret: current.secret,
        previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      },
      now,
    );
    return { ...(await getWebhook(deps, tenant, id)), secret };
  });
}

/** Queues a sample event (`test: true`) for this endpoint only; the worker sends it at once. */
export async function sendTestEvent(
  deps: Deps,
  tenant: Tenant,
  id: string,
  input: TestWebhookBody,
): Promise<WebhookDeliveryView> {
  return inTransaction(deps, async (deps) => {
    const endpoint = await endpointOrThrow(deps, tenant, id);
    let type: EventType;
    if (input.event_type !== undefined) {
      if (!(EVENT_TYPES as readonly string[]).includes(input.event_type)) {
        throw invalidParameter('event_type', `Unknown event type '${input.event_type}'.`);
      }
      type = input.event_type as EventType;
    } else {
      type = EVENT_TYPES.find((candidate) => subscribes(endpoint.events, candidate)) ?? EVENT_TYPES[0];
    }
    const event = await recordSampleEvent(deps, tenant, { type, object: sampleObject(type) });
    const now = new Date(event.timestamp);
    const attemptId = newId('webhookDelivery');
    await repository.insertAttempts(
      deps.db,
      tenant,
      [{ id: attemptId, endpointId: id, eventId: event.id, eventType: type, attempt: 1, manual: true, dueAt: now }],
      now,
      { notify: true },
    );
    return deliveryView(await attemptOrThrow(deps, tenant, id, attemptId));
  });
}

async function attemptOrThrow(deps: Deps, tenant: Tenant, endpointId: string, id: string) {
  return found(await repository.findAttempt(deps.db, tenant, endpointId, id), 'webhook delivery', id);
}

export async function listDeliveries(deps: Deps, tenant: Tenant, endpointId: string, query: DeliveryListQuery) {
  await endpointOrThrow(deps, tenant, endpointId);
  const page = pageRequest(query);
  const filters = { status: query.status, eventId: query.event_id, ids: parseIds(query.ids, 'whd') };
  return pageOf(page, await repository.listAttempts(deps.db, tenant, endpointId, filters, page), deliveryView);
}

/**
 * Redelivers an event now. When an automatic retry is still waiting, that attempt is moved
 * to now instead of adding a second one; otherwise a new, single attempt is queued.
 */
export async function retryDelivery(
  deps: Deps,
  tenant: Tenant,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  const now = deps.clock.now();
  return inTransaction(deps, async (deps) => {
    await endpointOrThrow(deps, tenant, endpointId);
    const delivery = await attemptOrThrow(deps, tenant, endpointId, deliveryId);
    const waiting = await repository.findWaitingAttempt(deps.db, tenant, endpointId, delivery.event_id, now);
    let attemptId: string;
    if (waiting) {
      attemptId = waiting.id;
      await repository.rescheduleAttempt(deps.db, tenant, attemptId, now);
    } else {
      attemptId = newId('webhookDelivery');
      const attempt = (await repository.lastAttemptNumber(deps.db, tenant, endpointId, delivery.event_id)) + 1;
      await repository.insertAttempts(
        deps.db,
        tenant,
        [
          {
            id: attemptId,
            endpointId,
            eventId: delivery.event_id,
            eventType: delivery.event_type,
            attempt,
            manual: true,
            dueAt: now,
          },
        ],
        now,
        { notify: true },
      );
    }
    return deliveryView(await attemptOrThrow(deps, tenant, endpointId, attemptId));
  });
}
