import { Type } from '@sinclair/typebox';
import { Address } from './address.ts';
import { ListOf, timestamp } from './common.ts';
import { ids, location } from './examples.ts';

export const Location = Type.Object(
  {
    id: Type.String({ description: 'Give it as ship_from_id', examples: [ids.location] }),
    object: Type.Literal('location', { description: 'Always `location`' }),
    name: Type.String({ description: 'What the account calls it', examples: ['Austin warehouse'] }),
    address: Type.Ref(Address, { description: 'The address parcels ship from' }),
    is_default: Type.Boolean({ description: 'Used by orders and rates that give neither ship_from nor ship_from_id' }),
    created_at: timestamp('When it was added'),
    updated_at: timestamp('When it last changed'),
  },
  { $id: 'Location', title: 'Location', description: 'A place the account ships from', additionalProperties: false, examples: [location] },
);

export const LocationList = ListOf(Location, 'LocationList', "The account's ship-from locations, default first");
