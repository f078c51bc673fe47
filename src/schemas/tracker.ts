import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum, timestamp, timestampOrNull } from './common.ts';
import { CarrierIdSchema } from './carrier.ts';
import { listQueryFields } from './list.ts';
import { Metadata } from './order.ts';
import { externalTracker, externalTrackingNumber, ids, problem, tracker, trackingEvents, trackingNumber } from './examples.ts';

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
    occurred_at: timestamp('When the carrier scanned the parcel, in UTC like every time shipd writes'),
    utc_offset: Type.Union([Type.String({ pattern: '^[+-]\\d{2}:\\d{2}$', examples: ['-06:00'] }), Type.Null()], {
      description:
        "The scan's local clock: its offset from UTC at that moment, as the carrier gave it or as the zone of the scan's place had it then. The local time of the scan is `occurred_at` moved by it. Null when neither the carrier nor the place tells",
    }),
    time_zone: Type.Union([Type.String({ examples: ['America/Chicago'] }), Type.Null()], {
      description:
        "The IANA time zone of the scan's place (from its ZIP or state), where shipd knows it and it agrees with the carrier's offset; null abroad, for a place the carrier does not give, or where the place's state spans zones and the carrier's offset says it is the other one",
    }),
    status: Type.Ref(TrackingStatus, { description: 'Where the parcel was after this scan' }),
    description: Type.String({ description: "The carrier's words for the scan", examples: ['Arrived at facility'] }),
    location: Type.Union([TrackingLocation, Type.Null()], { description: 'Where the scan happened; null when the carrier does not say' }),
  },
  { $id: 'TrackingEvent', title: 'TrackingEvent', description: 'One scan of the parcel by the carrier', additionalProperties: false, examples: [trackingEvents[2]] },
);

export const ProofOfDelivery = Type.Object(
  {
    type: StringEnum(['signature', 'document'] as const, { description: '`signature`: an image of the signature; `document`: a proof-of-delivery letter (UPS POD, FedEx SPOD)' }),
    content_type: Type.String({ description: 'The media type of the file, as its bytes tell it; application/octet-stream where they tell none', examples: ['application/pdf'] }),
    url: Type.String({ format: 'uri', description: 'The file, fetchable without the API key for 7 days, as label_url is; each answer carries a fresh link' }),
  },
  { additionalProperties: false },
);

export const TrackerOrigin = StringEnum(['label', 'external'] as const, {
  $id: 'TrackerOrigin',
  title: 'TrackerOrigin',
  description: '`label`: a label bought through shipd, followed from its purchase; `external`: a number bought elsewhere, followed with POST /trackers',
});

export const Tracker = Type.Object(
  {
    id: Type.String({
      description:
        "trk_…: a label's tracker has the label's own id after trk_ (a later box's, the next ids after it); POST /tracking answers a magic test number that no tracker follows as trk_ and the number",
      examples: [tracker.id],
    }),
    object: Type.Literal('tracker', { description: 'Always `tracker`' }),
    tracking_number: Type.String({ description: "The number followed; in a box's tracker, the box's own number", examples: [trackingNumber] }),
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
    origin: Type.Ref(TrackerOrigin, { description: 'Whether shipd sold the label or the number was brought to it' }),
    order_id: Type.Union([Type.String(), Type.Null()], { description: "A label's order, or the order given when an external tracker was made; null otherwise" }),
    shipment_id: Type.Union([Type.String(), Type.Null()], { description: "The label's shipment; null for an external tracker" }),
    status: Type.Ref(TrackingStatus, {
      description:
        'Where the parcel is now: the status of the latest scan. For a shipment of several boxes: `delivered` once every box is; else `failure`, `return_to_sender` or `error` as soon as one box has it; else the least advanced box\'s status',
    }),
    status_detail: Type.String({ description: "The carrier's words for the latest scan", examples: ['Delivered, front door'] }),
    estimated_delivery_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'The day the carrier expects to deliver; null when it gives none' }),
    signed_by: Type.Union([Type.String({ examples: ['LOVELACE'] }), Type.Null()], {
      description:
        "Who signed for or received the parcel, as the carrier wrote it (UPS deliveryInformation.receivedBy, FedEx deliveryDetails.signedByName or receivedByName, USPS the delivery event's name); null until delivery and where the carrier does not say. In test mode every delivery is signed for with the recipient's surname in capitals",
    }),
    proof_of_delivery: Type.Array(ProofOfDelivery, {
      description:
        "The carrier's proofs of delivery, once delivered and fetched (within a minute or so of delivery being recorded): UPS's signature image and POD (its tracking asked with returnSignature and returnPOD), FedEx's signature proof of delivery letter (SPOD, where its tracking answer lists one), none from USPS (its API only mails a proof-of-delivery letter). Empty before delivery and where the carrier has none. In test mode every delivered parcel has one: a sample PDF signed by `signed_by`",
    }),
    events: Type.Array(Type.Ref(TrackingEvent), { description: 'Carrier scans, oldest first, each with its local time zone' }),
    metadata: Type.Ref(Metadata, { description: 'Your own keys and values; `{}` for a label\'s tracker' }),
    last_checked_at: timestampOrNull(
      "When shipd's tracking worker last asked the carrier, or the tracker was made in test mode (which asks the simulator too); null for a label's tracker until its first check, and for a live external tracker until the worker first asks (within a minute)",
    ),
    next_check_at: timestampOrNull(
      'When shipd next asks the carrier: in live mode more often near delivery (30 minutes out for delivery or due today, 2 hours in transit, hours before the carrier has it), spread by tracker; null once the journey has ended (delivered, returned, failed, voided), the tracker was stopped, or shipd gave up on it (no change for 30 days, or unknown to the carrier 7 days after it was followed: `status_detail` says which)',
    ),
    created_at: timestamp('When it was made: for a label, when the label was bought'),
    updated_at: timestamp('When shipd last recorded a change to it: a new scan or status, its proofs of delivery, or its stopping'),
    deleted: Type.Optional(Type.Literal(true, { description: 'Only on a tracker stopped with DELETE /trackers/{id}: it is checked no more and sends no more events' })),
  },
  {
    $id: 'Tracker',
    title: 'Tracker',
    description: "A parcel's journey, whoever sold its label: its status now and every carrier scan",
    additionalProperties: false,
    examples: [tracker, externalTracker],
  },
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

export const TrackerCreate = Type.Object(
  {
    tracking_number: Type.String({
      minLength: 4,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_ -]+$',
      description: "A UPS, USPS or FedEx number, in the carrier's real format with its check digit; spaces and dashes are ignored, and letter case. In test mode also the magic numbers (SHIPD_TEST_DELIVERED…)",
      examples: [externalTrackingNumber],
    }),
    carrier: Type.Optional(Type.Ref(CarrierIdSchema, { description: "The number's carrier; told from its format when not given" })),
    order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'An order of yours the parcel belongs to, say one whose label was bought elsewhere' })),
    metadata: Type.Optional(Type.Ref(Metadata, { description: 'Your own keys and values, kept with the tracker' })),
  },
  {
    $id: 'TrackerCreate',
    title: 'TrackerCreate',
    description: 'A number to follow',
    additionalProperties: false,
    examples: [{ tracking_number: externalTrackingNumber, metadata: externalTracker.metadata }, { tracking_number: '1Z SHP D01 03 3297 2354', carrier: 'ups' }],
  },
);
export type TrackerCreate = Static<typeof TrackerCreate>;

export const trackerBatchLimit = 1000;

export const TrackerBatchCreate = Type.Object(
  {
    trackers: Type.Array(Type.Ref(TrackerCreate), {
      minItems: 1,
      maxItems: trackerBatchLimit,
      description: `Up to ${trackerBatchLimit} numbers, each as POST /trackers takes it. One that cannot be followed gets its own problem in \`results\`; the others are made all the same.`,
    }),
  },
  {
    $id: 'TrackerBatchCreate',
    title: 'TrackerBatchCreate',
    description: 'Numbers to follow at once',
    additionalProperties: false,
    examples: [{ trackers: [{ tracking_number: externalTrackingNumber }, { tracking_number: '1234', carrier: 'usps' }] }],
  },
);
export type TrackerBatchCreate = Static<typeof TrackerBatchCreate>;

const TrackerBatchResult = Type.Object(
  {
    tracking_number: Type.String({ description: 'The number, as given' }),
    tracker: Type.Union([Type.Ref(Tracker), Type.Null()], { description: 'The tracker made, or the one the key already had for the number; null when refused' }),
    error: Type.Union([Type.Ref('Problem'), Type.Null()], { description: 'Why the number is not followed: the problem POST /trackers would have answered' }),
  },
  { additionalProperties: false },
);

export const TrackerBatch = Type.Object(
  {
    object: Type.Literal('tracker_batch', { description: 'Always `tracker_batch`' }),
    results: Type.Array(TrackerBatchResult, { description: 'Each number, in the order given' }),
  },
  {
    $id: 'TrackerBatch',
    title: 'TrackerBatch',
    description: 'What became of each number of a POST /trackers/batch',
    additionalProperties: false,
    examples: [
      {
        object: 'tracker_batch',
        results: [
          { tracking_number: externalTrackingNumber, tracker: externalTracker, error: null },
          {
            tracking_number: '1234',
            tracker: null,
            error: {
              ...problem,
              type: 'http://localhost:8080/problems/validation_failed',
              title: 'The request is not valid',
              status: 400,
              code: 'validation_failed',
              detail: '1234 is not in any USPS number format',
              errors: [{ in: 'body', pointer: '/carrier', detail: 'the number is not a USPS number' }],
            },
          },
        ],
      },
    ],
  },
);
export type TrackerBatch = Static<typeof TrackerBatch>;

export const TrackerList = ListOf(Tracker, 'TrackerList', "The calling key's trackers, newest first, stopped ones left out", externalTracker);

export const TrackerIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The tracker's trk_ id" }) }, { additionalProperties: false });
export const TrackerListQuery = Type.Object(
  {
    ...listQueryFields,
    status: Type.Optional(Type.Ref(TrackingStatus, { description: 'Only trackers in this status' })),
    carrier: Type.Optional(Type.Ref(CarrierIdSchema, { description: "Only this carrier's" })),
    updated_after: Type.Optional(timestamp('Only those updated at or after this time')),
    updated_before: Type.Optional(timestamp('Only those updated before this time')),
  },
  { additionalProperties: false },
);
