import { Type } from '@sinclair/typebox';
import { Address } from './address.ts';
import { ListOf, Timestamp } from './common.ts';

export const Location = Type.Object(
  {
    id: Type.String({ examples: ['loc_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('location'),
    name: Type.String({ examples: ['Austin warehouse'] }),
    address: Type.Ref(Address),
    is_default: Type.Boolean({ description: 'Used by orders and rates that give neither ship_from nor ship_from_id' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Location', title: 'Location', additionalProperties: false },
);

export const LocationList = ListOf(Type.Ref(Location), 'LocationList', "The account's ship-from locations, default first");
