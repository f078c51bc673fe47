import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum, timestamp, timestampOrNull } from './common.ts';
import { eventTypes, type EventType } from './event.ts';
import { listQueryFields } from './list.ts';
import { delivery, ids, webhook, webhookCreate, webhookWithSecret } from './examples.ts';

/** The event types a server with these features sends, and so lets a webhook subscribe to. */
export const subscribableEventTypes = (features: ReadonlySet<string>): EventType[] => eventTypes.filter((t) => t !== 'batch.completed' || features.has('batches'));

const eventTypeSchema = (types: readonly EventType[]) => StringEnum(types, { $id: 'WebhookEventType', title: 'WebhookEventType', description: 'An event a webhook can subscribe to' });

export const WebhookEventType = eventTypeSchema(eventTypes);

/** WebhookEventType as a server with these features validates and documents it: a feature that is off leaves no trace. */
export const webhookEventTypeFor = (features: ReadonlySet<string>) => eventTypeSchema(subscribableEventTypes(features));

const fields = {
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'Where events are POSTed: https, resolving to public addresses', examples: ['https://example.com/hooks/shipd'] }),
  events: Type.Array(Type.Ref(WebhookEventType), { minItems: 1, uniqueItems: true, description: 'The event types to deliver' }),
  description: Type.Optional(Type.String({ maxLength: 500, description: 'What the webhook is for, for your own reference', examples: ['Order system'] })),
};

export const WebhookCreate = Type.Object(fields, {
  $id: 'WebhookCreate',
  title: 'WebhookCreate',
  description: 'Where to deliver events, and which',
  additionalProperties: false,
  examples: [webhookCreate],
});
export type WebhookCreate = Static<typeof WebhookCreate>;

export const WebhookUpdate = Type.Object(
  {
    url: Type.Optional(fields.url),
    events: Type.Optional(fields.events),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { description: 'What the webhook is for; null clears it' })),
    status: Type.Optional(StringEnum(['enabled', 'disabled'] as const, { description: '`enabled` re-enables a webhook shipd disabled; `disabled` pauses deliveries' })),
  },
  {
    $id: 'WebhookUpdate',
    title: 'WebhookUpdate',
    description: 'Only the fields sent change; at least one',
    additionalProperties: false,
    minProperties: 1,
    examples: [{ events: [...webhookCreate.events, 'order.updated'] }, { status: 'enabled' }],
  },
);
export type WebhookUpdate = Static<typeof WebhookUpdate>;

const webhookFields = {
  id: Type.String({ description: "The webhook's id", examples: [ids.webhook] }),
  object: Type.Literal('webhook', { description: 'Always `webhook`' }),
  url: Type.String({ description: 'Where events are POSTed', examples: ['https://example.com/hooks/shipd'] }),
  events: Type.Array(Type.Ref(WebhookEventType), { description: 'The event types it receives' }),
  description: Type.Union([Type.String(), Type.Null()], { description: 'What it is for, if you said' }),
  status: StringEnum(['enabled', 'disabled'] as const, { description: '`disabled` after a 410 answer or 5 days of failed deliveries' }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why deliveries stopped, when they did' }),
  previous_secret_expires_at: timestampOrNull('Until then, the secret before the last rotation signs too; null when there is none'),
  created_at: timestamp('When it was registered'),
  updated_at: timestamp('When it last changed'),
};

export const Webhook = Type.Object(webhookFields, {
  $id: 'Webhook',
  title: 'Webhook',
  description: 'Where and which events shipd delivers; never with its secret',
  additionalProperties: false,
  examples: [webhook],
});
export type Webhook = Static<typeof Webhook>;

export const WebhookWithSecret = Type.Object(
  {
    ...webhookFields,
    secret: Type.Union([Type.String(), Type.Null()], {
      description:
        'The Standard Webhooks signing secret; shown only in this answer. Null only in a replay of an Idempotency-Key once this secret no longer signs (see `secret_withheld`)',
      examples: [webhookWithSecret.secret],
    }),
    secret_withheld: Type.Union([StringEnum(['rotated', 'deleted', 'unreadable'] as const), Type.Null()], {
      description:
        'Why a replay of an Idempotency-Key holds no secret: `rotated` (a newer secret replaced it), `deleted` (the webhook is gone) or ' +
        '`unreadable` (sealed under another SHIPD_SECRET); null when `secret` is there',
      examples: [null],
    }),
  },
  {
    $id: 'WebhookWithSecret',
    title: 'WebhookWithSecret',
    description: 'A webhook, with the secret its deliveries are signed with: only when it is made or its secret rotated',
    additionalProperties: false,
    examples: [webhookWithSecret],
  },
);
export type WebhookWithSecret = Static<typeof WebhookWithSecret>;
/** A secret just made: always there, never withheld. */
export type NewWebhookSecret = WebhookWithSecret & { secret: string; secret_withheld: null };

export const WebhookList = ListOf(Webhook, 'WebhookList', "The calling key's webhooks, newest first");

export const WebhookIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The webhook's whk_ id" }) }, { additionalProperties: false });
export const DeliveryIdParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, description: "The webhook's whk_ id" }),
    delivery_id: Type.String({ minLength: 1, maxLength: 100, description: "The delivery's dlv_ id" }),
  },
  { additionalProperties: false },
);
export const WebhookDeleteQuery = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048, description: 'Removes every webhook of the key with this URL' }) }, { additionalProperties: false });
export const WebhookListQuery = Type.Object(listQueryFields, { additionalProperties: false });

export const WebhookAttempt = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1, description: 'Which attempt this was, from 1' }),
    attempted_at: timestamp('When it was sent'),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when no answer came" }),
    latency_ms: Type.Integer({ minimum: 0, description: 'Milliseconds until the answer, or until the attempt gave up' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed: time-out, network error, refused address, or the status' }),
    response_excerpt: Type.Union([Type.String(), Type.Null()], {
      description: "The first 100 characters of the receiver's answer, whitespace collapsed, when it is text (text/*, JSON, XML or untyped); null for any other answer, or when none came",
    }),
    next_attempt_at: timestampOrNull('When the delivery was scheduled to be tried again after this attempt; null when it was not'),
  },
  { additionalProperties: false },
);

export const DeliveryStatus = StringEnum(['pending', 'succeeded', 'failed'] as const, {
  $id: 'WebhookDeliveryStatus',
  title: 'WebhookDeliveryStatus',
  description: '`pending` until an attempt gets a 2xx (`succeeded`) or the retries run out (`failed`)',
});

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ description: "The delivery's id", examples: [ids.delivery] }),
    object: Type.Literal('webhook_delivery', { description: 'Always `webhook_delivery`' }),
    webhook_id: Type.String({ description: 'The webhook it goes to' }),
    event_id: Type.String({ description: 'Sent as the webhook-id header, the same on every attempt' }),
    event_type: Type.String({ description: "The event's type", examples: ['shipment.created'] }),
    status: Type.Ref(DeliveryStatus, { description: 'Whether it has arrived, is still being tried, or was given up on' }),
    attempt_count: Type.Integer({ minimum: 0, description: 'How many times it has been sent' }),
    next_attempt_at: timestampOrNull('When it will be sent next; null once it succeeded or failed for good'),
    delivered_at: timestampOrNull('When an attempt last got a 2xx answer; null until one does'),
    attempts: Type.Array(WebhookAttempt, { description: 'Every attempt, oldest first' }),
    created_at: timestamp('When the event was queued for this webhook'),
  },
  {
    $id: 'WebhookDelivery',
    title: 'WebhookDelivery',
    description: 'One event on its way to one webhook, with every attempt to send it',
    additionalProperties: false,
    examples: [delivery],
  },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryList = ListOf(WebhookDelivery, 'WebhookDeliveryList', "A webhook's deliveries, newest first");
export const DeliveryListQuery = Type.Object(
  { ...listQueryFields, status: Type.Optional(Type.Ref(DeliveryStatus, { description: 'Only deliveries in this status' })) },
  { additionalProperties: false },
);

export const DeletedWebhooks = ListOf(Webhook, 'DeletedWebhooks', 'The webhooks removed');
