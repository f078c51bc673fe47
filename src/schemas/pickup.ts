import { Type, type Static } from '@sinclair/typebox';
import { Address } from './address.ts';
import { Money } from './money.ts';
import { Weight } from './weight.ts';
import { CarrierIdSchema } from './carrier.ts';
import { ListOf, StringEnum, timestamp, timestampOrNull } from './common.ts';
import { listQueryFields } from './list.ts';
import { ids, livePickup, pickup, pickupAvailability, pickupAvailabilityQuery, pickupCreate } from './examples.ts';

export const PickupStatus = StringEnum(['scheduled', 'cancelled'], { $id: 'PickupStatus', title: 'PickupStatus', description: '`scheduled` until POST /pickups/{id}/cancel makes it `cancelled`' });
export type PickupStatus = Static<typeof PickupStatus>;

const localTime = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description, examples: ['13:00'] });
const pickupDate = Type.String({ format: 'date', description: 'YYYY-MM-DD, a business day at the pickup address', examples: ['2026-11-24'] });

export const PickupWindow = Type.Object(
  {
    start: localTime('HH:MM, local time at the pickup address; from 08:00'),
    end: localTime('HH:MM, local time; at least 2 hours after start, until 20:00'),
  },
  {
    $id: 'PickupWindow',
    title: 'PickupWindow',
    additionalProperties: false,
    description: 'When the driver may come, local time at the pickup address',
    examples: [pickup.window],
  },
);

export const PickupCreate = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier whose driver comes' }),
    ship_from_id: Type.Optional(Type.String({ pattern: '^loc_[0-9a-z]{26}$', description: "One of the account's ship-from locations (GET /ship-from); or give address" })),
    address: Type.Optional(Type.Ref(Address, { description: 'Where the driver comes; or give ship_from_id' })),
    date: pickupDate,
    window: Type.Ref(PickupWindow, { description: 'When the driver may come' }),
    shipment_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 100,
        uniqueItems: true,
        description: "The labels to collect: this key's purchased labels of the same carrier",
      }),
    ),
    instructions: Type.Optional(Type.String({ maxLength: 500, description: 'For the driver, such as where to find the parcels' })),
    parcel_count: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 999,
        description:
          'How many parcels the driver collects, when shipment_ids does not name them all: the carriers ask it of every live pickup (required with a live key and no shipment_ids, with total_weight; UPS takes at most 999 a service)',
        examples: [4],
      }),
    ),
    total_weight: Type.Optional(
      Type.Ref(Weight, { description: "The parcels' total weight, with parcel_count; left out, the named shipments' boxes give both", examples: [{ value: 38.5, unit: 'lb' }] }),
    ),
  },
  {
    $id: 'PickupCreate',
    title: 'PickupCreate',
    additionalProperties: false,
    description: 'Give exactly one of ship_from_id and address',
    examples: [pickupCreate],
  },
);
export type PickupCreate = Static<typeof PickupCreate>;

export const Pickup = Type.Object(
  {
    id: Type.String({ description: "The pickup's id", examples: [ids.pickup] }),
    object: Type.Literal('pickup', { description: 'Always `pickup`' }),
    status: Type.Ref(PickupStatus, { description: 'Whether it is still on' }),
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier whose driver comes' }),
    confirmation_number: Type.String({ description: "The carrier's own reference for the pickup", examples: ['2929602E9CP', 'WTC123456789', 'NQAA3001'] }),
    ship_from_id: Type.Union([Type.String(), Type.Null()], { description: 'The location the address came from; null when an address was given' }),
    address: Type.Ref(Address, { description: 'Where the driver comes, resolved from ship_from_id when one was given' }),
    date: pickupDate,
    window: Type.Ref(PickupWindow, { description: 'When the driver may come' }),
    shipment_ids: Type.Array(Type.String(), { description: 'The labels to collect; empty when none were named' }),
    instructions: Type.Union([Type.String(), Type.Null()], { description: 'For the driver, if you gave any' }),
    parcel_count: Type.Union([Type.Integer(), Type.Null()], { description: 'How many parcels the carrier was told of; null on a pickup booked before shipd told carriers', examples: [4] }),
    total_weight: Type.Union([Type.Ref(Weight), Type.Null()], { description: "The parcels' total weight the carrier was told of, in pounds; null with parcel_count", examples: [{ value: 38.5, unit: 'lb' }] }),
    price: Type.Union([Type.Ref(Money), Type.Null()], {
      description:
        "What the carrier charges for the pickup, quoted before it was booked and charged to the account's payment method as postage is (refunded when it is cancelled); null where the carrier charges nothing or states no price (every test-mode pickup: UPS publishes no on-call pickup charge to simulate)",
      examples: [{ amount: '8.95', currency: 'USD' }],
    }),
    mode: StringEnum(['test', 'live'], { description: 'Booked with a test key (simulated carrier) or a live one' }),
    created_at: timestamp('When it was booked'),
    cancelled_at: timestampOrNull('When it was cancelled; null while it is scheduled'),
  },
  {
    $id: 'Pickup',
    title: 'Pickup',
    description: 'A carrier driver booked to collect parcels on a day, within a window',
    additionalProperties: false,
    examples: [pickup, livePickup],
  },
);
export type Pickup = Static<typeof Pickup>;

export const PickupAvailabilityQuery = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier whose driver would come' }),
    ship_from_id: Type.Optional(Type.String({ pattern: '^loc_[0-9a-z]{26}$', description: "One of the account's ship-from locations (GET /ship-from); or give address" })),
    address: Type.Optional(Type.Ref(Address, { description: 'Where the driver would come; or give ship_from_id' })),
    date: Type.String({ format: 'date', description: 'YYYY-MM-DD: the day asked about, from today to 30 days ahead at the address', examples: ['2026-11-24'] }),
  },
  {
    $id: 'PickupAvailabilityQuery',
    title: 'PickupAvailabilityQuery',
    additionalProperties: false,
    description: 'Give exactly one of ship_from_id and address',
    examples: [pickupAvailabilityQuery],
  },
);
export type PickupAvailabilityQuery = Static<typeof PickupAvailabilityQuery>;

const localTimeOrNull = (description: string) => Type.Union([Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }), Type.Null()], { description, examples: ['18:00'] });

export const PickupAvailability = Type.Object(
  {
    object: Type.Literal('pickup_availability', { description: 'Always `pickup_availability`' }),
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier asked' }),
    date: pickupDate,
    available: Type.Boolean({ description: 'Whether a driver can come to the address that day' }),
    earliest: localTimeOrNull('HH:MM local at the address: the earliest a window may start; null where the carrier does not say'),
    latest: localTimeOrNull('HH:MM local: the latest the driver can come (a window\'s end); null where the carrier does not say'),
    book_by: localTimeOrNull("HH:MM local: the latest a pickup for that day can be booked (the carrier's cut-off); null where it does not say"),
    reason: Type.Union([Type.String(), Type.Null()], { description: "Why no driver can come, in the carrier's words where it gave them; null when one can" }),
  },
  {
    $id: 'PickupAvailability',
    title: 'PickupAvailability',
    additionalProperties: false,
    description: "Whether and when a carrier's driver can come to an address on a day: the carrier's own answer with live keys, the simulated carriers' rules with test keys",
    examples: [pickupAvailability],
  },
);
export type PickupAvailability = Static<typeof PickupAvailability>;

export const PickupList = ListOf(Pickup, 'PickupList', 'Pickups, newest first');

export const PickupIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The pickup's pku_ id" }) }, { additionalProperties: false });
export const PickupListQuery = Type.Object(
  {
    ...listQueryFields,
    status: Type.Optional(Type.Ref(PickupStatus, { description: 'Only pickups in this status' })),
    carrier: Type.Optional(Type.Ref(CarrierIdSchema, { description: "Only this carrier's pickups" })),
    date: Type.Optional(Type.String({ format: 'date', description: 'Only pickups on this day (YYYY-MM-DD)' })),
  },
  { additionalProperties: false },
);
