import { sql } from 'kysely';
import type { BatchesTable, BatchItemsTable } from '../../db/schema.ts';
import { enqueue } from '../../db/job-queue.ts';
import { batchRound, toBatch } from './batches.ts';
import { buildBatchDocument } from './batch-document.ts';
import type { Context } from '../core/context.ts';
import { ApiError, problemDocument } from '../../kernel/errors.ts';
import { recordEvent } from '../webhooks/events.ts';
import { buyLabel, pendingStaleMs } from '../shipments/purchase.ts';
import { ownerOf } from '../shipments/shipments.ts';
import { inTransaction } from '../core/transaction.ts';

interface Log {
  info(o: object, m: string): void;
}

export interface BatchRunOptions {
  /** Purchases under way at once for one batch. */
  concurrency: number;
  /** How long one round starts new purchases before it hands the rest to the next round. */
  roundMs: number;
}

type Outcome = { status: 'purchased'; shipmentId: string } | { status: 'failed'; problem: Record<string, unknown> } | { status: 'later' };

/** Answers that mean "not decided yet": a purchase still running elsewhere, or one the reconcile job will finish. */
const undecided = new Set(['idempotency_key_in_use', 'carrier_timeout']);

/**
 * One order's label, bought as POST /shipments would buy it, under an Idempotency-Key of the batch's own. A round
 * that runs again after a crash finds the purchase its predecessor started instead of starting a second one.
 */
async function buyItem(owner: Context, batch: BatchesTable, item: BatchItemsTable): Promise<Outcome> {
  const ctx: Context = { ...owner, idempotencyKey: `${batch.id}:${item.position}`, requestId: `${batch.id}:${item.position}` };
  try {
    // Asked before every label: a revoked key's requests are refused from the moment it is revoked, this one too.
    const key = await ctx.db.selectFrom('api_keys').select('revoked_at').where('id', '=', batch.owner_key_id).executeTakeFirst();
    if (!key || key.revoked_at !== null) {
      throw new ApiError('revoked_api_key', `The API key that handed in ${batch.id} was revoked at ${key?.revoked_at}; the orders left were not bought`);
    }
    const ask = {
      order_id: item.order_id,
      label_format: batch.label_format,
      label_size: batch.label_size,
      ...(batch.label_format === 'zpl' && { label_resolution: batch.label_resolution }),
      ...(batch.ship_date !== null && { ship_date: batch.ship_date }),
      ...(batch.options !== null && { options: JSON.parse(batch.options) }),
    };
    const shipment = await buyLabel(ctx, ask, batch.selection);
    return { status: 'purchased', shipmentId: shipment.id };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (undecided.has(err.code)) return { status: 'later' };
    return { status: 'failed', problem: problemDocument(err, ctx.requestId, ctx.config.publicUrl) };
  }
}

/** Records one order's outcome and moves the batch's counts with it, once, however many rounds reach it. */
async function record(ctx: Omit<Context, 'principal'>, batch: BatchesTable, item: BatchItemsTable, outcome: Exclude<Outcome, { status: 'later' }>): Promise<void> {
  const at = ctx.clock.now().toISOString();
  await inTransaction(ctx.db, async (trx) => {
    const updated = await trx
      .updateTable('batch_items')
      .set({
        status: outcome.status,
        shipment_id: outcome.status === 'purchased' ? outcome.shipmentId : null,
        error: outcome.status === 'failed' ? JSON.stringify(outcome.problem) : null,
        updated_at: at,
      })
      .where('batch_id', '=', batch.id)
      .where('position', '=', item.position)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return;
    const counter = outcome.status === 'purchased' ? 'purchased' : 'failed';
    await trx
      .updateTable('batches')
      .set({ [counter]: sql`${sql.ref(counter)} + 1`, status: 'processing', updated_at: at })
      .where('id', '=', batch.id)
      .execute();
  });
}

/** Marks the batch completed and reports it, once. */
async function complete(ctx: Omit<Context, 'principal'>, batch: BatchesTable, log: Log): Promise<void> {
  // Read before the labels are: a label voided while the file is made has a later voided_at than the batch's mark,
  // so the next download finds it and makes the file again without it.
  const at = ctx.clock.now().toISOString();
  const documentFormat = await buildBatchDocument(ctx, batch);
  await inTransaction(ctx.db, async (trx) => {
    const updated = await trx
      .updateTable('batches')
      .set({ status: 'completed', document_format: documentFormat, completed_at: at, updated_at: at })
      .where('id', '=', batch.id)
      .where('status', '!=', 'completed')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return;
    const done = await trx.selectFrom('batches').selectAll().where('id', '=', batch.id).executeTakeFirstOrThrow();
    await recordEvent(trx, ownerOf(done), 'batch.completed', toBatch(ctx, done), at);
    log.info({ batch: batch.id, purchased: done.purchased, failed: done.failed }, 'batch completed');
  });
}

/**
 * One round of a batch: buys the labels of its pending orders, a few at a time, until none is left or the round's
 * time is up, then either completes the batch or enqueues the next round. Orders whose purchase is still undecided
 * are taken up again by a later round, after the reconcile job has had time to decide them.
 */
export async function runBatchRound(ctx: Omit<Context, 'principal'>, batchId: string, round: number, options: BatchRunOptions, log: Log): Promise<void> {
  const batch = await ctx.db.selectFrom('batches').selectAll().where('id', '=', batchId).executeTakeFirst();
  if (!batch || batch.status === 'completed') return;
  // The key's plan was checked when it handed the batch in; the batch is that request, carried out later.
  const owner: Context = { ...ctx, principal: { ...ownerOf(batch).principal, plan: 'api' } };
  const pending = await ctx.db.selectFrom('batch_items').selectAll().where('batch_id', '=', batchId).where('status', '=', 'pending').orderBy('position').execute();
  const stopAt = Date.now() + options.roundMs;
  let next = 0;
  let later = 0;
  const work = async () => {
    while (next < pending.length && Date.now() < stopAt) {
      const item = pending[next++]!;
      const outcome = await buyItem(owner, batch, item);
      if (outcome.status === 'later') later++;
      else await record(ctx, batch, item, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, pending.length) }, work));
  const now = ctx.clock.now();
  if (next < pending.length) {
    await enqueue(ctx.db, batchRound(batchId, round + 1), now);
  } else if (later > 0) {
    await enqueue(ctx.db, { ...batchRound(batchId, round + 1), runAt: new Date(now.getTime() + pendingStaleMs(ctx)) }, now);
  } else {
    await complete(ctx, batch, log);
  }
}
