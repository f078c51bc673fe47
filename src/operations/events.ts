import { Type } from '@sinclair/typebox';
import { getEvent, listEvents } from '../domain/events.ts';
import { Event, EventList, EventListQuery } from '../schemas/event.ts';
import { defineOperation } from './operation.ts';

export const eventOperations = [
  defineOperation({
    id: 'listEvents',
    method: 'GET',
    path: '/events',
    tag: 'Events',
    summary: "List the key's events",
    description: 'Every event about resources the calling key owns, newest first: the log to reconcile missed webhook deliveries against.',
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
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    response: Type.Ref(Event),
    responseDescription: 'The event',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getEvent(ctx, params.id),
  }),
];
