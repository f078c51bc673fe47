import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum } from './common.ts';
import { carrier } from './examples.ts';

export const CarrierIdSchema = StringEnum(['ups', 'usps', 'fedex'], { $id: 'CarrierId', title: 'CarrierId', description: 'A carrier shipd works with: UPS, USPS or FedEx' });

export const Carrier = Type.Object(
  {
    id: Type.Ref(CarrierIdSchema, { description: "The carrier's id, as requests name it" }),
    object: Type.Literal('carrier', { description: 'Always `carrier`' }),
    name: Type.String({ description: "The carrier's name", examples: ['UPS'] }),
    services: Type.Array(
      Type.Object(
        {
          code: Type.String({ description: "The carrier's own service code", examples: ['03'] }),
          name: Type.String({ description: "The service's name", examples: ['UPS Ground'] }),
          domestic: Type.Boolean({ description: 'Whether it ships between US addresses' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The services shipd rates and buys' },
    ),
    mode: StringEnum(['test', 'live'], { description: "The calling key's mode" }),
    connected: Type.Boolean({
      description: 'Whether this carrier can be used with the calling key now: always in test mode (simulated); in live mode, once the account has connected its own live carrier account (POST /carrier-accounts) or the server has the platform\'s credentials for it',
    }),
  },
  { $id: 'Carrier', title: 'Carrier', description: 'A carrier and its services', additionalProperties: false, examples: [carrier] },
);
export type Carrier = Static<typeof Carrier>;

export const CarrierList = ListOf(Carrier, 'CarrierList', 'The carriers shipd works with');

export const CarrierLocation = Type.Object(
  {
    object: Type.Literal('carrier_location', { description: 'Always `carrier_location`' }),
    carrier: Type.Ref(CarrierIdSchema, { description: 'Whose location it is' }),
    id: Type.String({ description: "The carrier's own id of the location: give it as `options.hold_location.id` to hold a parcel there" }),
    name: Type.String({ description: 'The name the carrier gives the location' }),
    kind: Type.String({ description: "What kind of location it is, in the carrier's words", examples: ['UPS Access Point', 'Post Office', 'FedEx Office'] }),
    address: Type.Object(
      {
        street1: Type.String({ description: 'Street address' }),
        street2: Type.Optional(Type.String({ description: 'Suite, unit or building, where the carrier gives one' })),
        city: Type.String({ description: 'City' }),
        state: Type.String({ description: 'Two-letter state code' }),
        zip: Type.String({ description: 'ZIP Code' }),
        country: Type.String({ description: 'ISO 3166-1 alpha-2 country code' }),
      },
      { description: 'Where the recipient collects the parcel', additionalProperties: false },
    ),
    distance_miles: Type.Union([Type.Number(), Type.Null()], { description: 'How far it is from the ZIP Code searched, where the carrier says' }),
  },
  {
    $id: 'CarrierLocation',
    title: 'CarrierLocation',
    description: 'A carrier location where a parcel can be held for its recipient to collect (`options.hold_for_pickup`)',
    additionalProperties: false,
    examples: [
      {
        object: 'carrier_location',
        carrier: 'fedex',
        id: 'YBZA',
        name: 'FedEx Office Print & Ship Center',
        kind: 'FedEx Office',
        address: { street1: '100 California St', city: 'San Francisco', state: 'CA', zip: '94111', country: 'US' },
        distance_miles: 0.6,
      },
    ],
  },
);
export type CarrierLocation = Static<typeof CarrierLocation>;

export const CarrierLocationList = ListOf(CarrierLocation, 'CarrierLocationList', 'Carrier locations near a ZIP Code, nearest first');

export const CarrierLocationQuery = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema, { description: "Whose locations to find" }),
    zip: Type.String({ pattern: '^[0-9]{5}$', description: 'The US ZIP Code to search around: usually the recipient\'s' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 25, default: 10, description: 'At most this many locations, nearest first' })),
  },
  { additionalProperties: false },
);
export type CarrierLocationQuery = Static<typeof CarrierLocationQuery>;
