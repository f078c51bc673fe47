import { Type } from '@sinclair/typebox';
import { findCarrierLocations } from '../domain/carrier-accounts/carrier-locations.ts';
import { listCarriers } from '../domain/carrier-accounts/carriers.ts';
import { CarrierList, CarrierLocationList, CarrierLocationQuery } from '../schemas/carrier.ts';
import { defineOperation } from './operation.ts';

export const carrierOperations = [
  defineOperation({
    id: 'listCarriers',
    method: 'GET',
    path: '/carriers',
    tag: 'Carriers',
    summary: 'List carriers and their services',
    description:
      'The carriers shipd rates and buys from, each with its domestic services and whether it can be used with the calling key. ' +
      'A service `code` is what `requested_service.service` and a rate request\'s `services` take. Changes nothing.',
    query: Type.Object({}, { additionalProperties: false }),
    response: Type.Ref(CarrierList),
    responseDescription: 'The carriers',
    errors: [],
    readOnly: true,
    handler: async (ctx) => {
      const data = await listCarriers(ctx);
      return { object: 'list' as const, data, has_more: false, next_cursor: null };
    },
  }),
  defineOperation({
    id: 'findCarrierLocations',
    method: 'GET',
    path: '/carrier-locations',
    tag: 'Carriers',
    summary: 'Find carrier locations that hold parcels',
    description:
      'The carrier\'s locations near a US ZIP Code where it holds a parcel for its recipient to collect, nearest first: UPS Access Points ' +
      '(UPS Locator), Post Offices (USPS Locations), FedEx locations that hold parcels (FedEx Location Search). Give one\'s `carrier` and `id` as ' +
      '`options.hold_location`, with `options.hold_for_pickup: true`, to a rate request or a purchase: the parcel goes there instead of to the ' +
      'door, and only that carrier is rated. Test keys search the simulated carriers, whose locations only test keys can hold at. Changes nothing.',
    query: CarrierLocationQuery,
    response: Type.Ref(CarrierLocationList),
    responseDescription: 'The locations, nearest first',
    errors: ['not_supported_by_carrier', 'carrier_error', 'carrier_timeout'],
    readOnly: true,
    handler: async (ctx, { query }) => {
      const data = await findCarrierLocations(ctx, query);
      return { object: 'list' as const, data, has_more: false, next_cursor: null };
    },
  }),
];
