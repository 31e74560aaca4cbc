export { EVENT_TYPES, type EventPayload, type EventType } from '../../core/events.ts';
export {
  type EventSubscriber,
  eventPayload,
  eventPublisher,
  type PublishedEvent,
  recordSampleEvent,
} from './events.service.ts';
