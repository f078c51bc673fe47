import { Type, type Static } from '@sinclair/typebox';
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

const packageName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'What the account calls the box (not blank)', examples: ['Mug box'] });

export const PackageCreate = Type.Object(
  {
    name: packageName,
    dimensions: Type.Ref(Dimensions, { description: 'Its outside size; length plus girth at most 165 in' }),
    max_weight: Type.Ref(Weight, { description: 'The most it may weigh, filled; at most 150 lb' }),
    is_default: Type.Optional(Type.Boolean({ description: 'Make it the box orders and rates use when they give neither package_id nor parcel dimensions' })),
  },
  {
    $id: 'PackageCreate',
    title: 'PackageCreate',
    description: 'One of the account\'s own boxes',
    additionalProperties: false,
    examples: [{ name: 'Mug box', dimensions: { length: 10, width: 8, height: 4, unit: 'in' }, max_weight: { value: 20, unit: 'lb' }, is_default: true }],
  },
);
export type PackageCreate = Static<typeof PackageCreate>;

export const PackageUpdate = Type.Object(
  {
    name: Type.Optional(packageName),
    dimensions: Type.Optional(Type.Ref(Dimensions, { description: 'A new size: orders not yet shipped that name the box are rated with it from then on' })),
    max_weight: Type.Optional(Type.Ref(Weight, { description: 'A new weight limit' })),
    is_default: Type.Optional(Type.Boolean({ description: 'true makes it the default box in place of the current one; false leaves the account without a default box' })),
  },
  { $id: 'PackageUpdate', title: 'PackageUpdate', description: 'Only what is given changes', additionalProperties: false, examples: [{ dimensions: { length: 12, width: 8, height: 4, unit: 'in' } }] },
);
export type PackageUpdate = Static<typeof PackageUpdate>;

export const PackageIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The package's pkg_ id (one of the account's own boxes)" }) }, { additionalProperties: false });
