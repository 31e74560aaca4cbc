export { DeliveryWorker } from './delivery-worker.ts';
export { signature, signedHeaders } from './signing.ts';
export { checkWebhookUrl, isPublicAddress } from './url-guard.ts';
export { webhookRoutes } from './webhooks.routes.ts';
export { createWebhook, fanOutEvent, subscribes } from './webhooks.service.ts';
