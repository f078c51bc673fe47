import { Webhook } from 'standardwebhooks';
import type { components } from './schema.ts';

type Schemas = components['schemas'];
export type EventType = Schemas['Event']['type'];

/** The resource each kind of event carries, by the part of its type before the dot. */
interface EventData {
  order: Schemas['Order'];
  shipment: Schemas['Shipment'];
  tracking: Schemas['Tracker'];
  batch: Schemas['Batch'];
}
type DataOf<T extends string> = T extends `${infer K extends keyof EventData}.${string}` ? EventData[K] : Schemas['Event']['data'];

/** A delivery's body as shipd sends it, with its `webhook-id` header as `id`: the event's id, the same on every retry. */
export type WebhookEvent = { [T in EventType]: { id: string; type: T; timestamp: string; data: DataOf<T> } }[EventType];

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const value = headers instanceof Headers ? headers.get(name) : (headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]);
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * The event of a webhook delivery, once its Standard Webhooks signature is verified with the webhook's secret (the
 * `whsec_…` shown when it was created). `body` must be the raw body as received, not parsed JSON. Throws
 * WebhookVerificationError when the signature does not match or the timestamp is more than five minutes off.
 */
export function verifyWebhook(body: string | Uint8Array, headers: HeaderSource, secret: string): WebhookEvent {
  const raw = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const id = header(headers, 'webhook-id');
  const payload = new Webhook(secret).verify(raw, {
    'webhook-id': id,
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  }) as Omit<WebhookEvent, 'id'>;
  return { id, ...payload } as WebhookEvent;
}

export { WebhookVerificationError } from 'standardwebhooks';
