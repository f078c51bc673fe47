import type { BatchesTable, BatchItemsTable } from '../../db/schema.ts';
import { enqueue } from '../../db/job-queue.ts';
import type { Batch, BatchCreate } from '../../schemas/batch.ts';
import { carrierAccess } from '../carrier-accounts/carrier-access.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { labelChoice, platformPayment } from '../shipments/purchase.ts';
import { shipDayAnywhere } from '../shipments/ship-date.ts';
import { checkOptions, storedOptions } from '../shipments/delivery-options.ts';
import { labelUrl } from '../shipments/shipments.ts';
import { inTransaction } from '../core/transaction.ts';

export const batchJob = 'batches.process';

/** The job that works on a batch; each round has its own, so a round can hand over to the next while it still runs. */
export const batchRound = (batchId: string, round: number) => ({ name: batchJob, payload: { batch_id: batchId, round }, uniqueKey: `${batchJob}:${batchId}:${round}` });

export function toBatch(ctx: Pick<Context, 'config' | 'clock'>, row: BatchesTable, items?: BatchItemsTable[]): Batch {
  return {
    id: row.id,
    object: 'batch',
    status: row.status,
    selection: row.selection,
    label_format: row.label_format,
    label_size: row.label_size,
    label_resolution: row.label_format === 'zpl' ? row.label_resolution : null,
    ship_date: row.ship_date,
    options: row.options === null ? {} : JSON.parse(row.options),
    counts: { total: row.total, pending: row.total - row.purchased - row.failed, purchased: row.purchased, failed: row.failed },
    ...(items && {
      results: items.map((i) => ({
        order_id: i.order_id,
        status: i.status,
        shipment_id: i.shipment_id,
        error: i.error === null ? null : JSON.parse(i.error),
      })),
    }),
    label_url: row.document_format ? labelUrl(ctx, row.id, row.document_format) : null,
    metadata: JSON.parse(row.metadata),
    mode: row.mode,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  };
}

/**
 * POST /batches: records the batch and its orders and hands it to the worker. Orders are checked when their
 * turn comes, each on its own, so one bad order id never refuses the others; only a missing payment method,
 * which would fail every order, refuses the whole batch up front.
 */
export async function createBatch(ctx: Context, input: BatchCreate): Promise<Batch> {
  const label = labelChoice(input);
  if (input.ship_date !== undefined) shipDayAnywhere(ctx.clock.now(), input.ship_date);
  // What contradicts itself for every order is refused now; what depends on an order's boxes (dry ice heavier than
  // one) fails that order alone when its turn comes.
  checkOptions(input.options, []);
  const payment = await platformPayment(ctx);
  if (payment instanceof ApiError && (await carrierAccess(ctx, ctx.principal.accountId, ctx.principal.mode)).own.size === 0) throw payment;
  const now = ctx.clock.now();
  const at = now.toISOString();
  const row: BatchesTable = {
    id: newId('bat', now.getTime()),
    owner_key_id: ctx.principal.keyId,
    account_id: ctx.principal.accountId,
    mode: ctx.principal.mode,
    status: 'queued',
    selection: input.selection ?? 'requested',
    label_format: label.format,
    ship_date: input.ship_date ?? null,
    label_size: label.size,
    label_resolution: label.resolution,
    options: storedOptions(input.options),
    total: input.order_ids.length,
    purchased: 0,
    failed: 0,
    document_format: null,
    metadata: JSON.stringify(input.metadata ?? {}),
    created_at: at,
    updated_at: at,
    completed_at: null,
  };
  const items: BatchItemsTable[] = input.order_ids.map((orderId, position) => ({
    batch_id: row.id,
    position,
    order_id: orderId,
    status: 'pending',
    shipment_id: null,
    error: null,
    updated_at: at,
  }));
  await inTransaction(ctx.db, async (trx) => {
    await trx.insertInto('batches').values(row).execute();
    await trx.insertInto('batch_items').values(items).execute();
    await enqueue(trx, batchRound(row.id, 0), now);
  });
  return toBatch(ctx, row, items);
}

export async function getBatch(ctx: Context, id: string): Promise<Batch> {
  const row = await ctx.db.selectFrom('batches').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No batch ${id}`);
  const items = await ctx.db.selectFrom('batch_items').selectAll().where('batch_id', '=', id).orderBy('position').execute();
  return toBatch(ctx, row, items);
}

export async function listBatches(ctx: Context, query: ListInput & { status?: Batch['status'] }): Promise<Page<Batch>> {
  let q = ctx.db.selectFrom('batches').selectAll().where('owner_key_id', '=', ctx.principal.keyId);
  if (query.status) q = q.where('status', '=', query.status);
  return fetchPage(q, query, 'bat', (row) => toBatch(ctx, row));
}
