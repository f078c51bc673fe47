import { Type, type Static } from '@sinclair/typebox';
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

const locationName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'What the account calls it (not blank)', examples: ['Austin warehouse'] });

export const LocationCreate = Type.Object(
  {
    name: locationName,
    address: Type.Ref(Address, { description: 'Where parcels ship from: in the US (a state, territory or military post office), checked as POST /addresses/validate checks it and kept normalized' }),
    is_default: Type.Optional(Type.Boolean({ description: "Make it the default (the account's first location is the default anyway)" })),
  },
  { $id: 'LocationCreate', title: 'LocationCreate', description: 'A new ship-from location', additionalProperties: false, examples: [{ name: location.name, address: location.address, is_default: true }] },
);
export type LocationCreate = Static<typeof LocationCreate>;

export const LocationUpdate = Type.Object(
  {
    name: Type.Optional(locationName),
    address: Type.Optional(Type.Ref(Address, { description: 'A new address, checked as on creation; orders already made keep the one they were made with' })),
    is_default: Type.Optional(Type.Boolean({ description: 'true makes it the default in place of the current one; false is refused on the default (make another the default instead)' })),
  },
  { $id: 'LocationUpdate', title: 'LocationUpdate', description: 'Only what is given changes', additionalProperties: false, examples: [{ is_default: true }] },
);
export type LocationUpdate = Static<typeof LocationUpdate>;

export const LocationIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The location's loc_ id" }) }, { additionalProperties: false });
