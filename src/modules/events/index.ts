export { EVENT_TYPES, type EventPayload, type EventType, isEventPattern } from '../../core/events.ts';
export { eventRoutes } from './events.routes.ts';
export {
  type EventSubscriber,
  eventPayload,
  eventPublisher,
  type PublishedEvent,
  recordSampleEvent,
} from './events.service.ts';
