import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum, timestamp } from './common.ts';
import { listQueryFields } from './list.ts';
import { CarrierIdSchema } from './carrier.ts';
import { Money, Weight } from './order.ts';
import { fedexGroundCloseManifest, ids, manifest, upsLiveManifest, uspsLiveManifest } from './examples.ts';

const ShipDate = Type.String({ format: 'date', description: "YYYY-MM-DD: the labels' ship date (their `ship_date`: the day they were bought, unless bought for a later day)", examples: ['2026-11-23'] });

/** What the carrier was told of a manifest (Manifest.carrier_manifest). */
export const carrierManifestStates = ['simulated', 'pending', 'submitted', 'not_required', 'not_sent', 'failed'] as const;

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
      description:
        "The end-of-day form as a PDF, fetchable without the API key for 7 days. With a live USPS key, USPS's own SCAN forms, one after another, for the driver to scan; otherwise shipd's summary (each label with tracking number, service, weight and destination ZIP; totals; a Code 128 barcode of the manifest id), followed by FedEx's close reports where FedEx sent any",
    }),
    carrier_manifest: StringEnum(carrierManifestStates, {
      description:
        'What the carrier was told. `simulated`: a test key, no carrier was asked. `submitted`: with a live key, the carrier made its forms (USPS SCAN forms, a FedEx Ground close), listed in `carrier_forms`. `not_required`: the carrier needs no end-of-day form for these labels (UPS; FedEx Express), so `form_url` is shipd\'s own summary. `pending`: shipd is asking the carrier now (or, after shipd stopped while asking, the worker is finishing it: a retry with the same Idempotency-Key, or GET, shows the outcome). `failed`: shipd stopped after asking the carrier and before recording its answer, and the carrier, asked again, refused, as it refuses labels already on a form; its forms may exist without shipd holding them, and `carrier_error` says what to do; the labels stay on the manifest. `not_sent`: a live manifest made before shipd told carriers.',
    }),
    carrier_error: Type.Union([Type.String(), Type.Null()], {
      description: 'With `carrier_manifest` `failed`: what went wrong with the carrier and what to do about it. Null otherwise.',
    }),
    carrier_forms: Type.Array(
      Type.Object(
        {
          kind: StringEnum(['usps_scan_form', 'fedex_ground_close'] as const, { description: 'A USPS SCAN form (PS Form 5630), or a FedEx Ground End of Day Close' }),
          number: Type.Union([Type.String(), Type.Null()], { description: "The carrier's number for it: a SCAN form's Electronic File Number; null where the carrier gives none" }),
          shipment_ids: Type.Array(Type.String(), { description: 'The labels it covers' }),
          tracking_count: Type.Integer({ minimum: 1, description: 'How many tracking numbers (boxes) it lists' }),
        },
        { additionalProperties: false },
      ),
      { description: "The carrier's own forms of the manifest, with a live key: USPS makes one SCAN form per origin, split where an origin has more labels than one form lists (40,000). Empty otherwise." },
    ),
    mode: StringEnum(['test', 'live'] as const, { description: 'Made with a test key or a live one' }),
    created_at: timestamp('When it was made'),
  },
  { $id: 'Manifest', title: 'Manifest', description: "A carrier's end-of-day form: the labels handed over on one day", additionalProperties: false, examples: [manifest, uspsLiveManifest, upsLiveManifest, fedexGroundCloseManifest] },
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
