import { Type } from '@sinclair/typebox';
import { getEvent, listEvents } from '../domain/webhooks/events.ts';
import { Event, EventList, EventListQuery } from '../schemas/event.ts';
import { defineOperation } from './operation.ts';

export const eventOperations = [
  defineOperation({
    id: 'listEvents',
    method: 'GET',
    path: '/events',
    tag: 'Events',
    summary: "List the key's events",
    description: 'Every event about resources the calling key owns, newest first, a page at a time; filter by `type` or creation time. The log to reconcile missed webhook deliveries against. Changes nothing.',
    query: EventListQuery,
    response: Type.Ref(EventList),
    responseDescription: 'A page of events',
    errors: [],
    readOnly: true,
    handler: (ctx, { query }) => listEvents(ctx, query),
  }),
  defineOperation({
    id: 'getEvent',
    method: 'GET',
    path: '/events/:id',
    tag: 'Events',
    summary: 'Get an event',
    description: "One event by id (the `webhook-id` header of its deliveries), with the resource as it was when the event happened. 404 for an id that is not this key's.",
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The event's evt_ id" }) }, { additionalProperties: false }),
    response: Type.Ref(Event),
    responseDescription: 'The event',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getEvent(ctx, params.id),
  }),
];
