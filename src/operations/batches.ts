import { Type } from '@sinclair/typebox';
import { createBatch, getBatch, listBatches } from '../domain/ops/batches.ts';
import { Batch, BatchCreate, BatchIdParams, BatchList, BatchListQuery, batchLimit } from '../schemas/batch.ts';
import { defineOperation } from './operation.ts';

const tag = 'Batches';
const feature = 'batches';

export const batchOperations = [
  defineOperation({
    id: 'createBatch',
    method: 'POST',
    path: '/batches',
    tag,
    feature,
    summary: 'Buy labels for many orders',
    description:
      `Buys the labels of up to ${batchLimit} orders in the background, a few at a time, as POST /shipments would buy each. ` +
      'An order that cannot be bought a label (not yours, not incomplete, no rate…) gets its own problem in `results`; the others go on. ' +
      'Poll GET /batches/{id} or subscribe to `batch.completed`; once completed, `label_url` serves every label in one file. ' +
      'Each purchase emits the usual `shipment.created` and `order.updated`. Send an Idempotency-Key: a retried batch is the same batch, ' +
      'and no order is ever bought two labels. 402 up front when platform postage has no payment method. **Spends money with live keys.**',
    body: BatchCreate,
    response: Type.Ref(Batch),
    responseDescription: 'The batch, queued',
    successStatus: 201,
    errors: ['payment_method_required', 'payment_declined', 'billing_not_configured'],
    idempotent: true,
    handler: (ctx, { body }) => createBatch(ctx, body),
  }),
  defineOperation({
    id: 'listBatches',
    method: 'GET',
    path: '/batches',
    tag,
    feature,
    summary: 'List batches',
    description: "The calling key's batches, newest first, a page at a time, with their counts; GET one for its per-order results. Filter by `status`. Changes nothing.",
    query: BatchListQuery,
    response: Type.Ref(BatchList),
    responseDescription: 'A page of batches',
    errors: [],
    readOnly: true,
    handler: (ctx, { query }) => listBatches(ctx, query),
  }),
  defineOperation({
    id: 'getBatch',
    method: 'GET',
    path: '/batches/:id',
    tag,
    feature,
    summary: 'Get a batch',
    description: 'Progress counts, and each order\'s result: its shipment id, or the problem that kept it from getting a label. Once completed, `label_url` serves every label in one file. 404 for an id that is not this key\'s.',
    params: BatchIdParams,
    response: Type.Ref(Batch),
    responseDescription: 'The batch',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getBatch(ctx, params.id),
  }),
];
