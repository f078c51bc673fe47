import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum } from './common.ts';

export const CarrierIdSchema = StringEnum(['ups', 'usps', 'fedex'], { $id: 'CarrierId', title: 'CarrierId' });

export const Carrier = Type.Object(
  {
    id: Type.Ref(CarrierIdSchema),
    object: Type.Literal('carrier'),
    name: Type.String({ examples: ['UPS'] }),
    services: Type.Array(
      Type.Object(
        {
          code: Type.String({ description: "The carrier's own service code", examples: ['03'] }),
          name: Type.String({ examples: ['UPS Ground'] }),
          domestic: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
    mode: StringEnum(['test', 'live'], { description: "The calling key's mode" }),
    connected: Type.Boolean({
      description: 'Whether this carrier can be used with the calling key now: always in test mode (simulated); in live mode, once its live adapter has credentials',
    }),
  },
  { $id: 'Carrier', title: 'Carrier', additionalProperties: false },
);
export type Carrier = Static<typeof Carrier>;

export const CarrierList = ListOf(Type.Ref(Carrier), 'CarrierList', 'The carriers shipd works with');
