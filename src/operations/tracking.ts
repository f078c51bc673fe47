import { Type } from '@sinclair/typebox';
import { track } from '../domain/tracking/tracking.ts';
import { Tracker, TrackingRequest } from '../schemas/tracker.ts';
import { defineOperation } from './operation.ts';

export const trackingOperations = [
  defineOperation({
    id: 'track',
    method: 'POST',
    path: '/tracking',
    tag: 'Tracking',
    summary: 'Track a label',
    description:
      "By `order_id` (the order's label) or by `tracking_number` of a label the key bought or of a tracker it has (POST /trackers); the carrier is asked now. Statuses use one " +
      'vocabulary for every carrier. In test mode the magic numbers SHIPD_TEST_DELIVERED, SHIPD_TEST_RETURN_TO_SENDER, SHIPD_TEST_FAILURE, ' +
      'SHIPD_TEST_AVAILABLE_FOR_PICKUP (and _PRE_TRANSIT, _IN_TRANSIT, _OUT_FOR_DELIVERY) give fixed outcomes. New scans are stored and emit ' +
      '`tracking.updated`. An order without a label answers 409 `order_not_shipped`; a number no label or tracker of this key has, 404. ' +
      "A live tracker's carrier is asked within its pace, as the trackers worker asks it: while the carrier is out of room in its rate windows, or " +
      'backed off after answering 429 or failing (for its Retry-After at least), the answer is the tracker as last checked (`last_checked_at` says when) ' +
      'instead of a call; a call that fails answers 502 or 504 and backs the carrier off.',
    body: TrackingRequest,
    response: Type.Ref(Tracker),
    responseDescription: 'The tracker',
    errors: ['not_found', 'order_not_shipped', 'carrier_error', 'carrier_timeout'],
    handler: (ctx, { body }) => track(ctx, body),
  }),
];
