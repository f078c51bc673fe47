import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, timestamp } from './common.ts';
import { CarrierIdSchema } from './carrier.ts';
import { ids, tracker, trackingEvents, trackingNumber } from './examples.ts';

export const trackingStatuses = [
  'unknown',
  'pre_transit',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'available_for_pickup',
  'return_to_sender',
  'failure',
  'cancelled',
  'error',
] as const;

export const TrackingStatus = StringEnum(trackingStatuses, { $id: 'TrackingStatus', title: 'TrackingStatus', description: "Where a parcel is, in the same words for every carrier" });

export const TrackingLocation = Type.Object(
  {
    city: Type.String({ description: 'City, as the carrier writes it', examples: ['AUSTIN'] }),
    state: Type.String({ description: 'Two-letter state code', examples: ['TX'] }),
    zip: Type.String({ description: 'ZIP code', examples: ['78701'] }),
    country: Type.String({ description: 'Two-letter country code', examples: ['US'] }),
  },
  { additionalProperties: false },
);

export const TrackingEvent = Type.Object(
  {
    occurred_at: timestamp('When the carrier scanned the parcel'),
    status: Type.Ref(TrackingStatus, { description: 'Where the parcel was after this scan' }),
    description: Type.String({ description: "The carrier's words for the scan", examples: ['Arrived at facility'] }),
    location: Type.Union([TrackingLocation, Type.Null()], { description: 'Where the scan happened; null when the carrier does not say' }),
  },
  { $id: 'TrackingEvent', title: 'TrackingEvent', description: 'One scan of the parcel by the carrier', additionalProperties: false, examples: [trackingEvents[2]] },
);

export const Tracker = Type.Object(
  {
    id: Type.String({ description: "trk_ and the label's own id; for a magic test number, trk_ and the number", examples: [tracker.id] }),
    object: Type.Literal('tracker', { description: 'Always `tracker`' }),
    tracking_number: Type.String({ description: "The label's tracking number; in a box's tracker, the box's own number", examples: [trackingNumber] }),
    package: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 19,
        description:
          "Only in a box's tracker, of a shipment with several boxes: the box's index in the shipment's `packages` (0 for the first). Without it the tracker is the whole shipment's, whose status is derived from its boxes",
        examples: [1],
      }),
    ),
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier carrying the parcel' }),
    order_id: Type.Union([Type.String(), Type.Null()], { description: 'null only for the magic test numbers' }),
    shipment_id: Type.Union([Type.String(), Type.Null()], { description: 'null only for the magic test numbers' }),
    status: Type.Ref(TrackingStatus, {
      description:
        'Where the parcel is now: the status of the latest scan. For a shipment of several boxes: `delivered` once every box is; else `failure`, `return_to_sender` or `error` as soon as one box has it; else the least advanced box\'s status',
    }),
    status_detail: Type.String({ description: "The carrier's words for the latest scan", examples: ['Delivered, front door'] }),
    estimated_delivery_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'The day the carrier expects to deliver; null when it gives none' }),
    events: Type.Array(Type.Ref(TrackingEvent), { description: 'Carrier scans, oldest first' }),
    updated_at: timestamp('When the latest scan happened; before any, when the label was bought'),
  },
  { $id: 'Tracker', title: 'Tracker', description: "A label's journey: its status now and every carrier scan", additionalProperties: false, examples: [tracker] },
);
export type Tracker = Static<typeof Tracker>;

export const TrackingRequest = Type.Object(
  {
    order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Track the order's current label" })),
    tracking_number: Type.Optional(Type.String({ minLength: 4, maxLength: 64, pattern: '^[A-Za-z0-9_ -]+$', description: 'Or track by number' })),
    carrier: Type.Optional(Type.Ref(CarrierIdSchema, { description: "The number's carrier; told from its format when not given" })),
  },
  {
    $id: 'TrackingRequest',
    title: 'TrackingRequest',
    description: 'Either `order_id`, or `tracking_number` with an optional `carrier`',
    additionalProperties: false,
    examples: [{ order_id: ids.order }, { tracking_number: trackingNumber, carrier: 'ups' }],
  },
);
export type TrackingRequest = Static<typeof TrackingRequest>;
