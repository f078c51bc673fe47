import { Type } from '@sinclair/typebox';
import { createTracker, createTrackerBatch, deleteTracker, getTracker, listTrackers } from '../domain/tracking/trackers.ts';
import { Tracker, TrackerBatch, TrackerBatchCreate, TrackerCreate, TrackerIdParams, TrackerList, TrackerListQuery, trackerBatchLimit } from '../schemas/tracker.ts';
import { defineOperation } from './operation.ts';

const tag = 'Trackers';

export const trackerOperations = [
  defineOperation({
    id: 'createTracker',
    method: 'POST',
    path: '/trackers',
    tag,
    summary: 'Follow a tracking number',
    description:
      'Follows a UPS, USPS or FedEx number, whoever sold its label: `tracking.updated` is sent for each scan that comes later, to this key only. ' +
      "The carrier is told from the number's format (with its check digit) when `carrier` is not given; a number in no carrier's format is a 400 " +
      "at `/tracking_number`, one that is not the given carrier's a 400 at `/carrier`, one in several carriers' formats 400 `tracking_number_ambiguous`. " +
      'A number the key already follows (a label it bought through shipd has its tracker from the purchase) answers that tracker, unchanged. ' +
      'In test mode any number in a real format gets a simulated journey decided by the number, begun now, and the magic numbers ' +
      '(SHIPD_TEST_DELIVERED…) their fixed outcomes. With a live key the tracker is made `unknown` and the carrier asked by the tracking worker within a minute, ' +
      "many numbers a call, with the credentials the account buys that carrier's labels with (its own, else the platform's; with neither, 422 `not_supported_by_carrier`); " +
      'a number the carrier does not know yet stays `unknown`. ' +
      'An `order_id` that is not the key\'s is 404.',
    body: TrackerCreate,
    response: Type.Ref(Tracker),
    responseDescription: 'The tracker, with the scans so far',
    successStatus: 201,
    errors: ['tracking_number_ambiguous', 'not_found', 'not_supported_by_carrier', 'carrier_error', 'carrier_timeout'],
    idempotent: true,
    handler: (ctx, { body }) => createTracker(ctx, body),
  }),
  defineOperation({
    id: 'createTrackers',
    method: 'POST',
    path: '/trackers/batch',
    tag,
    summary: 'Follow many tracking numbers',
    description:
      `Up to ${trackerBatchLimit} numbers at once, each as POST /trackers takes it, answered number by number in \`results\`: its tracker (made now, ` +
      'or the one the key had), or the problem POST /trackers would have answered, its pointers into `/trackers/{index}`. One refused number ' +
      'leaves the others followed. A body that does not fit the schema is refused whole.',
    body: TrackerBatchCreate,
    response: Type.Ref(TrackerBatch),
    responseDescription: "Each number's tracker or problem, in the order given",
    errors: [],
    idempotent: true,
    handler: (ctx, { body }) => createTrackerBatch(ctx, body),
  }),
  defineOperation({
    id: 'listTrackers',
    method: 'GET',
    path: '/trackers',
    tag,
    summary: 'List trackers',
    description:
      "The calling key's trackers, of labels and of numbers bought elsewhere alike, newest first, a page at a time; stopped ones are left out. " +
      'Filter by `status`, `carrier`, and the times it was made or last changed (`updated_after` finds those with a new scan or status since). Changes nothing.',
    query: TrackerListQuery,
    response: Type.Ref(TrackerList),
    responseDescription: 'A page of trackers',
    errors: [],
    readOnly: true,
    handler: (ctx, { query }) => listTrackers(ctx, query),
  }),
  defineOperation({
    id: 'getTracker',
    method: 'GET',
    path: '/trackers/:id',
    tag,
    summary: 'Get a tracker',
    description:
      'Its status, every scan, and when shipd last asked the carrier and will next, as last recorded; the carrier is not asked (POST /tracking asks it now). ' +
      "A stopped tracker is answered with `deleted: true`. 404 `tracker_not_found` for an id that is not this key's.",
    params: TrackerIdParams,
    response: Type.Ref(Tracker),
    responseDescription: 'The tracker',
    errors: ['tracker_not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getTracker(ctx, params.id),
  }),
  defineOperation({
    id: 'deleteTracker',
    method: 'DELETE',
    path: '/trackers/:id',
    tag,
    summary: 'Stop following a number',
    description:
      'No more checks and no more `tracking.updated` for it. Answers the tracker as it stood, with `deleted: true` and no next check; GET answers ' +
      'the same later, lists leave it out, and POST /trackers with the number makes a new tracker. Stopping it again answers the same. ' +
      "A label's tracker follows its label (void the label to stop it): 409 `resource_in_use`. 404 `tracker_not_found` for an id that is not this key's. " +
      "When no other live tracker (of any key) follows the number, its carrier subscription is ended within seconds, off the request: USPS's with its " +
      "DELETE of the subscription; UPS Track Alert has no call that ends one number's subscription (only a whole account's), so it is not renewed and lapses within its 14 days.",
    params: TrackerIdParams,
    response: Type.Ref(Tracker),
    responseDescription: 'The tracker, stopped',
    errors: ['tracker_not_found', 'resource_in_use'],
    handler: (ctx, { params }) => deleteTracker(ctx, params.id),
  }),
];
