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
