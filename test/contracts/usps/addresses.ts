import { Type } from '@sinclair/typebox';
import { UspsState } from './common.ts';

// Addresses v3 `GET /addresses/v3/address`. Source: addresses.yaml version 3.2.3 (karrioapi/karrio
// modules/connectors/usps/vendor/, commit deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a), operation get-address: its
// declared query parameters, streetAddress and state required, and "Must specify a street address, a state, and
// either a city or a ZIP Code" from the operation's description.
export const AddressQuery = Type.Intersect([
  Type.Object(
    {
      firm: Type.Optional(Type.String({ minLength: 0, maxLength: 50 })),
      streetAddress: Type.String({ minLength: 1 }),
      secondaryAddress: Type.Optional(Type.String()),
      city: Type.Optional(Type.String({ minLength: 1 })),
      state: UspsState,
      urbanization: Type.Optional(Type.String()),
      ZIPCode: Type.Optional(Type.String({ pattern: '^\\d{5}$' })),
      ZIPPlus4: Type.Optional(Type.String({ pattern: '^\\d{4}$' })),
    },
    { additionalProperties: false },
  ),
  Type.Union([Type.Object({ city: Type.String() }), Type.Object({ ZIPCode: Type.String() })]),
]);
