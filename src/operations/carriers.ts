import { Type } from '@sinclair/typebox';
import { listCarriers } from '../domain/carrier-accounts/carriers.ts';
import { CarrierList } from '../schemas/carrier.ts';
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
];
