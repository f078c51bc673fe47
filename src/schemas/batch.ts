import { Type, type Static } from '@sinclair/typebox';
import { ListOf, ShipDateInput, StringEnum, timestamp, timestampOrNull } from './common.ts';
import { listQueryFields } from './list.ts';
import { Metadata } from './order.ts';
import { ShipmentOptions } from './options.ts';
import { LabelFormatSchema, LabelResolutionSchema, LabelSizeSchema } from './shipment.ts';
import { batch, ids } from './examples.ts';

export const batchLimit = 500;

export const BatchSelection = StringEnum(['requested', 'cheapest'] as const, {
  $id: 'BatchSelection',
  title: 'BatchSelection',
  description: "`requested`: each order's requested service, else its cheapest rate (as POST /shipments without rate_id); `cheapest`: the cheapest rate of any carrier, whatever the order requested",
});

export const BatchCreate = Type.Object(
  {
    order_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      minItems: 1,
      maxItems: batchLimit,
      uniqueItems: true,
      description: `Up to ${batchLimit} incomplete orders of yours. An order that cannot be bought a label gets its own error in the results; the others go on.`,
    }),
    selection: Type.Optional(Type.Ref(BatchSelection, { description: 'Which rate to buy for each order: `requested` unless told otherwise' })),
    label_format: Type.Optional(Type.Ref(LabelFormatSchema, { description: 'The format of every label: pdf unless told otherwise' })),
    label_size: Type.Optional(Type.Ref(LabelSizeSchema, { description: "Every label's paper: 4x6 unless told otherwise. An order whose carrier does not print it fails with 422 `not_supported_by_carrier` in its result; without a requested service, only carriers that print it are chosen" })),
    label_resolution: Type.Optional(Type.Ref(LabelResolutionSchema, { description: 'ZPL only: 203 dpi unless told otherwise' })),
    ship_date: Type.Optional(
      Type.String({
        ...ShipDateInput,
        description:
          "The day every parcel of the batch is handed to the carrier (YYYY-MM-DD), as POST /shipments takes it: from today to 7 days ahead in each order's ship-from time zone; the day each label is bought when not given. A day out of range for every US time zone is a 400 `ship_date_out_of_range`; one out of range only for some order's ship-from location fails that order in its result",
      }),
    ),
    options: Type.Optional(
      Type.Ref(ShipmentOptions, {
        description:
          "Delivery options for every label, as POST /shipments takes them. Options that contradict each other are a 400 before anything is written; an order whose requested service cannot do one fails with 422 `option_not_supported` in its result; without a requested service (or with `cheapest`), only services that do every one are chosen",
      }),
    ),
    metadata: Type.Optional(Type.Ref(Metadata, { description: 'Your own keys and values, kept with the batch' })),
  },
  {
    $id: 'BatchCreate',
    title: 'BatchCreate',
    description: 'The orders to buy labels for, and how to choose their rates',
    additionalProperties: false,
    examples: [
      { order_ids: ids.batchOrders, selection: 'cheapest', label_format: 'pdf' },
      { order_ids: ids.batchOrders, label_format: 'zpl', label_size: '4x8', label_resolution: 300, ship_date: '2026-11-30' },
      { order_ids: ids.batchOrders, selection: 'cheapest', options: { signature: 'adult', saturday_delivery: true } },
    ],
  },
);
export type BatchCreate = Static<typeof BatchCreate>;

export const BatchStatus = StringEnum(['queued', 'processing', 'completed'] as const, {
  $id: 'BatchStatus',
  title: 'BatchStatus',
  description: '`completed` once every order has its label or its error, whatever the mix',
});

const BatchResult = Type.Object(
  {
    order_id: Type.String({ description: 'The order, as given' }),
    status: StringEnum(['pending', 'purchased', 'failed'] as const, { description: '`pending` until its label is bought (`purchased`) or refused (`failed`)' }),
    shipment_id: Type.Union([Type.String(), Type.Null()], { description: 'The label bought for the order' }),
    error: Type.Union([Type.Ref('Problem'), Type.Null()], { description: 'Why the order got no label: the problem POST /shipments would have answered' }),
  },
  { additionalProperties: false },
);

export const Batch = Type.Object(
  {
    id: Type.String({ description: "The batch's id", examples: [ids.batch] }),
    object: Type.Literal('batch', { description: 'Always `batch`' }),
    status: Type.Ref(BatchStatus, { description: 'Whether its labels are still being bought' }),
    selection: Type.Ref(BatchSelection, { description: 'How each rate was chosen' }),
    label_format: Type.Ref(LabelFormatSchema, { description: 'The format of every label' }),
    label_size: Type.Ref(LabelSizeSchema, { description: "Every label's paper" }),
    label_resolution: Type.Union([Type.Ref(LabelResolutionSchema), Type.Null()], { description: 'The dots per inch of ZPL labels; null for PDF and PNG' }),
    ship_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'The day every label ships; null: the day each was bought' }),
    options: Type.Ref(ShipmentOptions, { description: 'The delivery options of every label; `{}` for none' }),
    counts: Type.Object(
      {
        total: Type.Integer({ minimum: 1, description: 'Orders in the batch' }),
        pending: Type.Integer({ minimum: 0, description: 'Orders still waiting for their label' }),
        purchased: Type.Integer({ minimum: 0, description: 'Orders bought a label' }),
        failed: Type.Integer({ minimum: 0, description: 'Orders refused a label; results say why' }),
      },
      { additionalProperties: false, description: 'How many orders are in each state' },
    ),
    results: Type.Optional(Type.Array(BatchResult, { description: 'Each order, in the order given. In GET /batches/{id} and the creation answer; lists leave it out.' })),
    label_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description:
        'All labels of the batch in one file, fetchable without the API key for 7 days: a PDF (one page a label) for pdf and png batches, one ZPL stream for zpl batches. Null until the batch has completed with at least one label.',
    }),
    metadata: Type.Ref(Metadata, { description: 'Your own keys and values' }),
    mode: StringEnum(['test', 'live'] as const, { description: 'Made with a test key (simulated, free) or a live one (real postage)' }),
    created_at: timestamp('When it was made'),
    updated_at: timestamp('When it last changed'),
    completed_at: timestampOrNull('When every order had its label or its error; null until then'),
  },
  {
    $id: 'Batch',
    title: 'Batch',
    description: 'Labels bought for many orders in the background, and how far it has got',
    additionalProperties: false,
    examples: [batch],
  },
);
export type Batch = Static<typeof Batch>;

const { results: _results, ...listedBatch } = batch;
export const BatchList = ListOf(Batch, 'BatchList', "The calling key's batches, newest first, without per-order results", listedBatch);

export const BatchIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The batch's bat_ id" }) }, { additionalProperties: false });
export const BatchListQuery = Type.Object(
  { ...listQueryFields, status: Type.Optional(Type.Ref(BatchStatus, { description: 'Only batches in this status' })) },
  { additionalProperties: false },
);
