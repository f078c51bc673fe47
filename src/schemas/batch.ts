import { Type, type Static } from '@sinclair/typebox';
import { ListOf, StringEnum, Timestamp } from './common.ts';
import { listQueryFields } from './list.ts';
import { Metadata } from './order.ts';
import { LabelFormatSchema } from './shipment.ts';

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
    selection: Type.Optional(Type.Ref(BatchSelection)),
    label_format: Type.Optional(Type.Ref(LabelFormatSchema)),
    metadata: Type.Optional(Type.Ref(Metadata)),
  },
  {
    $id: 'BatchCreate',
    title: 'BatchCreate',
    additionalProperties: false,
    examples: [{ order_ids: ['ord_01jf3k4m5n6p7q8r9s0t1v2w3x', 'ord_01jf3k4m5n6p7q8r9s0t1v2w3y'], selection: 'cheapest', label_format: 'pdf' }],
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
    order_id: Type.String(),
    status: StringEnum(['pending', 'purchased', 'failed'] as const),
    shipment_id: Type.Union([Type.String(), Type.Null()], { description: 'The label bought for the order' }),
    error: Type.Union([Type.Ref('Problem'), Type.Null()], { description: 'Why the order got no label: the problem POST /shipments would have answered' }),
  },
  { additionalProperties: false },
);

export const Batch = Type.Object(
  {
    id: Type.String({ examples: ['bat_01jf3k4m5n6p7q8r9s0t1v2w3x'] }),
    object: Type.Literal('batch'),
    status: Type.Ref(BatchStatus),
    selection: Type.Ref(BatchSelection),
    label_format: Type.Ref(LabelFormatSchema),
    counts: Type.Object(
      {
        total: Type.Integer({ minimum: 1 }),
        pending: Type.Integer({ minimum: 0 }),
        purchased: Type.Integer({ minimum: 0 }),
        failed: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    results: Type.Optional(Type.Array(BatchResult, { description: 'Each order, in the order given. In GET /batches/{id} and the creation answer; lists leave it out.' })),
    label_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description:
        'All labels of the batch in one file, fetchable without the API key for 7 days: a PDF (one page a label) for pdf and png batches, one ZPL stream for zpl batches. Null until the batch has completed with at least one label.',
    }),
    metadata: Type.Ref(Metadata),
    mode: StringEnum(['test', 'live'] as const),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: 'Batch', title: 'Batch', additionalProperties: false },
);
export type Batch = Static<typeof Batch>;

export const BatchList = ListOf(Type.Ref(Batch), 'BatchList', "The calling key's batches, newest first, without per-order results");

export const BatchIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const BatchListQuery = Type.Object({ ...listQueryFields, status: Type.Optional(Type.Ref(BatchStatus)) }, { additionalProperties: false });
