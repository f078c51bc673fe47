import { Type } from '@sinclair/typebox';
import { CarrierIdSchema } from './carrier.ts';
import { ListOf, StringEnum, Timestamp } from './common.ts';
import { Dimensions, Weight } from './order.ts';

export const PackagePreset = Type.Object(
  {
    id: Type.String({ description: 'Use as package_id in orders and rates', examples: ['pkg_usps_medium_flat_rate_box'] }),
    object: Type.Literal('package'),
    name: Type.String({ examples: ['USPS Priority Mail Medium Flat Rate Box'] }),
    kind: StringEnum(['carrier_box', 'custom'], { description: "A carrier's own packaging, or one of the account's boxes" }),
    carrier: Type.Union([Type.Ref(CarrierIdSchema), Type.Null()], { description: 'Carrier boxes ship only with their carrier' }),
    dimensions: Type.Ref(Dimensions),
    max_weight: Type.Ref(Weight),
    flat_rate: Type.Boolean({ description: 'Priced the same for any weight up to max_weight and any distance' }),
    is_default: Type.Boolean({ description: "The account's default box, used by orders and rates that give neither package_id nor parcel dimensions; always false for carrier boxes" }),
    created_at: Type.Union([Timestamp, Type.Null()], { description: 'For custom boxes' }),
  },
  { $id: 'PackagePreset', title: 'PackagePreset', additionalProperties: false },
);

export const PackageList = ListOf(Type.Ref(PackagePreset), 'PackageList', "Carrier boxes, then the account's custom boxes");

export const PackageListQuery = Type.Object(
  { carrier: Type.Optional(Type.Ref(CarrierIdSchema)), kind: Type.Optional(StringEnum(['carrier_box', 'custom'])) },
  { additionalProperties: false },
);
