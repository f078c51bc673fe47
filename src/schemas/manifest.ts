import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum, Timestamp } from './common.ts';
import { listQueryFields } from './list.ts';
import { CarrierIdSchema } from './carrier.ts';
import { Money, Weight } from './order.ts';

const ShipDate = Type.String({ format: 'date', description: 'YYYY-MM-DD: the day the labels were bought (UTC)', examples: ['2026-11-23'] });

export const ManifestCreate = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema),
    ship_date: ShipDate,
    shipment_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 1000,
        uniqueItems: true,
        description: "Only these labels; without it, all of the key's purchased, not yet manifested outbound labels of the carrier bought that day",
      }),
    ),
  },
  { $id: 'ManifestCreate', title: 'ManifestCreate', additionalProperties: false, examples: [{ carrier: 'usps', ship_date: '2026-11-23' }] },
);
export type ManifestCreate = Static<typeof ManifestCreate>;

export const Manifest = Type.Object(
  {
    id: Type.String({ examples: ['man_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('manifest'),
    carrier: Type.Ref(CarrierIdSchema),
    ship_date: ShipDate,
    shipment_ids: Type.Array(Type.String(), { description: 'The labels on the form, in the order listed' }),
    shipment_count: Type.Integer({ minimum: 1 }),
    total_weight: Type.Ref(Weight),
    total_postage: Type.Ref(Money),
    form_url: Type.String({
      format: 'uri',
      description: 'The end-of-day form as a PDF (each label with tracking number, service, weight and destination ZIP; totals; a Code 128 barcode of the manifest id), fetchable without the API key for 7 days',
    }),
    mode: StringEnum(['test', 'live'] as const),
    created_at: Timestamp,
  },
  { $id: 'Manifest', title: 'Manifest', additionalProperties: false },
);
export type Manifest = Static<typeof Manifest>;

export const ManifestList = ListOf(Type.Ref(Manifest), 'ManifestList', "The calling key's manifests, newest first");

export const ManifestIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const ManifestListQuery = Type.Object(
  { ...listQueryFields, carrier: Type.Optional(Type.Ref(CarrierIdSchema)), ship_date: Type.Optional(ShipDate) },
  { additionalProperties: false },
);
