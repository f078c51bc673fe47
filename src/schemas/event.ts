import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum, Timestamp } from './common.ts';
import { listQueryFields } from './list.ts';

// batch.completed is sent only where the batches ops helper is enabled.
export const eventTypes = ['order.created', 'order.updated', 'shipment.created', 'shipment.voided', 'tracking.updated', 'batch.completed'] as const;
export type EventType = (typeof eventTypes)[number];
/** Every type in the event log: the subscribable ones, and the ping `POST /webhooks/{id}/test` sends. */
export const loggedEventTypes = [...eventTypes, 'webhook.test'] as const;
export type LoggedEventType = (typeof loggedEventTypes)[number];

export const Event = Type.Object(
  {
    id: Type.String({ examples: ['evt_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('event'),
    type: StringEnum(loggedEventTypes),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The resource as the API returned it when the event happened' }),
    created_at: Timestamp,
  },
  { $id: 'Event', title: 'Event', additionalProperties: false },
);
export type Event = Static<typeof Event>;

export const EventList = ListOf(Type.Ref(Event), 'EventList', "The calling key's events, newest first");

export const EventListQuery = Type.Object(
  { ...listQueryFields, type: Type.Optional(StringEnum(loggedEventTypes)) },
  { additionalProperties: false },
);
