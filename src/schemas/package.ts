import { Type } from '@sinclair/typebox';
import { CarrierIdSchema } from './carrier.ts';
import { ListOf, StringEnum, timestampOrNull } from './common.ts';
import { Dimensions, Weight } from './order.ts';
import { packagePreset } from './examples.ts';

export const PackagePreset = Type.Object(
  {
    id: Type.String({ description: 'Use as package_id in orders and rates', examples: ['pkg_usps_medium_flat_rate_box'] }),
    object: Type.Literal('package', { description: 'Always `package`' }),
    name: Type.String({ description: "The box's name", examples: ['USPS Priority Mail Medium Flat Rate Box'] }),
    kind: StringEnum(['carrier_box', 'custom'], { description: "A carrier's own packaging, or one of the account's boxes" }),
    carrier: Type.Union([Type.Ref(CarrierIdSchema), Type.Null()], { description: 'Carrier boxes ship only with their carrier' }),
    dimensions: Type.Ref(Dimensions, { description: 'Its outside size' }),
    max_weight: Type.Ref(Weight, { description: 'The most it may weigh, filled' }),
    flat_rate: Type.Boolean({ description: 'Priced the same for any weight up to max_weight and any distance' }),
    is_default: Type.Boolean({ description: "The account's default box, used by orders and rates that give neither package_id nor parcel dimensions; always false for carrier boxes" }),
    created_at: timestampOrNull('When a custom box was added; null for carrier boxes'),
  },
  {
    $id: 'PackagePreset',
    title: 'PackagePreset',
    description: "A box a parcel can ship in: a carrier's own, or one of the account's",
    additionalProperties: false,
    examples: [packagePreset],
  },
);

export const PackageList = ListOf(PackagePreset, 'PackageList', "Carrier boxes, then the account's custom boxes");

export const PackageListQuery = Type.Object(
  {
    carrier: Type.Optional(Type.Ref(CarrierIdSchema, { description: "Only this carrier's boxes; the account's own boxes are then left out" })),
    kind: Type.Optional(StringEnum(['carrier_box', 'custom'], { description: "Only carrier boxes, or only the account's own" })),
  },
  { additionalProperties: false },
);
