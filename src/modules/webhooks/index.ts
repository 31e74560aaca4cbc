export { DeliveryWorker } from './delivery-worker.ts';
export { signature, signedHeaders } from './signing.ts';
export { checkWebhookUrl, isPublicAddress } from './url-guard.ts';
export { webhookRoutes } from './webhooks.routes.ts';
export type { WebhookDeliveryView, WebhookView } from './webhooks.schemas.ts';
export {
  createWebhook,
  deleteWebhook,
  fanOutEvent,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateSecret as rotateWebhookSecret,
  sendTestEvent,
  subscribes,
  updateWebhook,
} from './webhooks.service.ts';
