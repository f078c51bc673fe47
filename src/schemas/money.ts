import { Type, type Static } from '@sinclair/typebox';

// Money lives on its own, as Weight does, so Insurance can use it without importing order.ts, whose Parcel takes Insurance.
export const Money = Type.Object(
  {
    amount: Type.String({ pattern: '^[0-9]{1,9}(\\.[0-9]{1,2})?$', description: 'Decimal string, at most 2 decimals', examples: ['12.34'] }),
    currency: Type.Literal('USD', { description: 'Always USD' }),
  },
  { $id: 'Money', title: 'Money', description: 'An amount in US dollars', additionalProperties: false },
);
export type Money = Static<typeof Money>;
