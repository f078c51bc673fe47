import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum, timestamp } from './common.ts';
import { listQueryFields } from './list.ts';
import { event, ids } from './examples.ts';

// batch.completed is sent only where the batches ops helper is enabled.
export const eventTypes = ['order.created', 'order.updated', 'shipment.created', 'shipment.updated', 'shipment.voided', 'tracking.updated', 'batch.completed'] as const;
export type EventType = (typeof eventTypes)[number];
/** Every type in the event log: the subscribable ones, and the ping `POST /webhooks/{id}/test` sends. */
export const loggedEventTypes = [...eventTypes, 'webhook.test'] as const;
export type LoggedEventType = (typeof loggedEventTypes)[number];

export const Event = Type.Object(
  {
    id: Type.String({ description: "The event's id, sent as the webhook-id header of its deliveries", examples: [ids.event] }),
    object: Type.Literal('event', { description: 'Always `event`' }),
    type: StringEnum(loggedEventTypes, { description: 'What happened: the resource kind and what became of it' }),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The resource as the API returned it when the event happened' }),
    created_at: timestamp('When it happened'),
  },
  { $id: 'Event', title: 'Event', description: 'Something that happened to a resource of the key: what webhooks deliver', additionalProperties: false, examples: [event] },
);
export type Event = Static<typeof Event>;

export const EventList = ListOf(Event, 'EventList', "The calling key's events, newest first");

export const EventListQuery = Type.Object(
  { ...listQueryFields, type: Type.Optional(StringEnum(loggedEventTypes, { description: 'Only events of this type' })) },
  { additionalProperties: false },
);
