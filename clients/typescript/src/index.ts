export { createShipdClient, type ShipdClient, type ShipdClientOptions, type ListPath, type ListItem } from './client.ts';
export { ShipdError, unwrap, type Problem, type ProblemCode, type FieldError } from './errors.ts';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type EventType } from './webhooks.ts';
export type { RetryOptions } from './retry.ts';
export type { paths, components, operations } from './schema.ts';
