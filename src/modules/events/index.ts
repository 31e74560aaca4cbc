export {
  EVENT_TYPES,
  type EventPayload,
  type EventSubscriber,
  type EventType,
  eventPayload,
  publishEvent,
  recordSampleEvent,
  subscribeToEvents,
} from './events.service.ts';
