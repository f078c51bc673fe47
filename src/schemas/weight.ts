import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.ts';

export const Weight = Type.Object(
  {
    value: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'The weight in `unit`', examples: [2.5] }),
    unit: StringEnum(['lb', 'oz', 'kg', 'g'], { description: 'Pounds, ounces, kilograms or grams' }),
  },
  { $id: 'Weight', title: 'Weight', additionalProperties: false, description: 'At most 150 lb' },
);
export type Weight = Static<typeof Weight>;
