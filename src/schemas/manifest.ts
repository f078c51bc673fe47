import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum, timestamp } from './common.ts';
import { listQueryFields } from './list.ts';
import { CarrierIdSchema } from './carrier.ts';
import { Money, Weight } from './order.ts';
import { ids, manifest } from './examples.ts';

const ShipDate = Type.String({ format: 'date', description: "YYYY-MM-DD: the labels' ship date (their `ship_date`: the day they were bought, unless bought for a later day)", examples: ['2026-11-23'] });

export const ManifestCreate = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier whose labels go on the form' }),
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
  {
    $id: 'ManifestCreate',
    title: 'ManifestCreate',
    description: 'The carrier and day to close, and optionally which labels',
    additionalProperties: false,
    examples: [{ carrier: 'ups', ship_date: '2026-11-23' }],
  },
);
export type ManifestCreate = Static<typeof ManifestCreate>;

export const Manifest = Type.Object(
  {
    id: Type.String({ description: "The manifest's id, printed on the form as a barcode", examples: [ids.manifest] }),
    object: Type.Literal('manifest', { description: 'Always `manifest`' }),
    carrier: Type.Ref(CarrierIdSchema, { description: 'The carrier the form is for' }),
    ship_date: ShipDate,
    shipment_ids: Type.Array(Type.String(), { description: 'The labels on the form, in the order listed' }),
    shipment_count: Type.Integer({ minimum: 1, description: 'How many labels are on it' }),
    total_weight: Type.Ref(Weight, { description: 'The weight of all its parcels' }),
    total_postage: Type.Ref(Money, { description: 'The postage of all its labels' }),
    form_url: Type.String({
      format: 'uri',
      description: 'The end-of-day form as a PDF (each label with tracking number, service, weight and destination ZIP; totals; a Code 128 barcode of the manifest id), fetchable without the API key for 7 days',
    }),
    mode: StringEnum(['test', 'live'] as const, { description: 'Made with a test key or a live one' }),
    created_at: timestamp('When it was made'),
  },
  { $id: 'Manifest', title: 'Manifest', description: "A carrier's end-of-day form: the labels handed over on one day", additionalProperties: false, examples: [manifest] },
);
export type Manifest = Static<typeof Manifest>;

export const ManifestList = ListOf(Manifest, 'ManifestList', "The calling key's manifests, newest first");

export const ManifestIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The manifest's man_ id" }) }, { additionalProperties: false });
export const ManifestListQuery = Type.Object(
  {
    ...listQueryFields,
    carrier: Type.Optional(Type.Ref(CarrierIdSchema, { description: "Only this carrier's manifests" })),
    ship_date: Type.Optional(Type.String({ ...ShipDate, description: 'Only manifests of this day (YYYY-MM-DD)' })),
  },
  { additionalProperties: false },
);
