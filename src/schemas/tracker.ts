import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from './common.ts';
import { CarrierIdSchema } from './carrier.ts';

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

export const TrackingStatus = StringEnum(trackingStatuses, { $id: 'TrackingStatus', description: 'The same vocabulary for every carrier' });

export const TrackingLocation = Type.Object(
  { city: Type.String(), state: Type.String(), zip: Type.String(), country: Type.String() },
  { additionalProperties: false },
);

export const TrackingEvent = Type.Object(
  {
    occurred_at: Timestamp,
    status: Type.Ref(TrackingStatus),
    description: Type.String({ examples: ['Arrived at facility'] }),
    location: Type.Union([TrackingLocation, Type.Null()]),
  },
  { $id: 'TrackingEvent', title: 'TrackingEvent', additionalProperties: false },
);

export const Tracker = Type.Object(
  {
    id: Type.String({ description: "trk_ and the label's own id; for a magic test number, trk_ and the number", examples: ['trk_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('tracker'),
    tracking_number: Type.String(),
    carrier: Type.Ref(CarrierIdSchema),
    order_id: Type.Union([Type.String(), Type.Null()], { description: 'null only for the magic test numbers' }),
    shipment_id: Type.Union([Type.String(), Type.Null()], { description: 'null only for the magic test numbers' }),
    status: Type.Ref(TrackingStatus),
    status_detail: Type.String(),
    estimated_delivery_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
    events: Type.Array(Type.Ref(TrackingEvent), { description: 'Carrier scans, oldest first' }),
    updated_at: Timestamp,
  },
  { $id: 'Tracker', title: 'Tracker', additionalProperties: false },
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
    examples: [{ order_id: 'ord_01jf3k4m5n6p7q8r9s0t1v2w3x' }, { tracking_number: '1Z999AA10123456784', carrier: 'ups' }],
  },
);
export type TrackingRequest = Static<typeof TrackingRequest>;
