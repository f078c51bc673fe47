import { setImmediate } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { DB, TrackersTable } from '../../db/schema.ts';
import type { TrackingResult } from '../../carriers/carrier.ts';
import { carriersFor } from '../../carriers/registry.ts';
import { externalParcel } from '../../carriers/sim/external-tracking.ts';
import { magicTrackingNumbers } from '../../carriers/sim/magic-tracking.ts';
import { detectCarrier, type TrackingCarrier } from '../../carriers/tracking-numbers.ts';
import type { Tracker, TrackerBatch, TrackerBatchCreate, TrackerCreate } from '../../schemas/tracker.ts';
import { ApiError, problemDocument } from '../../kernel/errors.ts';
import { newId } from '../../kernel/ids.ts';
import type { Mode } from '../../kernel/mode.ts';
import type { Context } from '../core/context.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { inTransaction } from '../core/transaction.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import { ownOrderRow } from '../orders/orders.ts';
import { recordEvent } from '../webhooks/events.ts';
import { asOfScan, finalStatuses, pollMs, toEvents, toTracker, trackerOwner } from './tracker-rows.ts';
import type { TrackingContext } from './tracking.ts';

/** Trackers one pass of the trackers worker takes; a full batch means more may be due. */
export const trackerPollBatch = 200;
/** A tracker being checked is not checked again by another worker for this long. */
const claimLeaseMs = 60_000;
/** Trackers whose checks the worker records in one transaction. */
const recordGroup = 20;

/** As a person may write it: spaces and dashes between groups of digits, any letter case. */
const normalized = (trackingNumber: string) => trackingNumber.replace(/[\s-]/g, '').toUpperCase();

const carrierNames = (carriers: readonly string[]) => carriers.map((c) => c.toUpperCase()).join(' or ');

/**
 * The carrier of a number: the one given, if the number is in one of its formats; else the one carrier whose
 * format it is in. A number in no format, or in the given carrier's none, is a 400 at the field at fault; one in
 * several carriers' formats is `tracking_number_ambiguous`, naming them, until `carrier` says which. In test mode the
 * magic numbers are USPS's unless `carrier` says otherwise, as POST /tracking takes them.
 */
export function chooseCarrier(number: string, given: CarrierId | undefined, mode: Mode, detect: (n: string) => TrackingCarrier[] = detectCarrier): CarrierId {
  if (mode === 'test' && (magicTrackingNumbers as readonly string[]).includes(number)) return given ?? 'usps';
  const fits = detect(number);
  if (given !== undefined) {
    if (fits.includes(given)) return given;
    const hint = fits.length > 0 ? `; it has the form of a ${carrierNames(fits)} number` : '';
    throw new ApiError('validation_failed', `${number} is not a ${given.toUpperCase()} tracking number${hint}`, [
      { in: 'body', pointer: '/carrier', detail: `the number is in no ${given.toUpperCase()} format, or its check digit is wrong` },
    ]);
  }
  if (fits.length === 1) return fits[0]!;
  if (fits.length === 0) {
    throw new ApiError('validation_failed', `${number} is in no carrier's tracking number format, or its check digit is wrong`, [
      { in: 'body', pointer: '/tracking_number', detail: "is in no carrier's format: UPS 1Z…, USPS IMpb (20, 22 or 26 digits) or S10 (…US), FedEx 12, 15, 20, 22 or 34 digits" },
    ]);
  }
  throw new ApiError('tracking_number_ambiguous', `${number} could be a ${carrierNames(fits)} number; send \`carrier\` to say which`, [
    { in: 'body', pointer: '/carrier', detail: `must be given: the number fits ${fits.join(', ')}` },
  ]);
}

/** The trackers the key follows for this number (of this carrier, if given): one per carrier at most. */
function followedRows(db: Kysely<DB>, keyId: string, number: string, carrier: CarrierId | undefined): Promise<TrackersTable[]> {
  return db
    .selectFrom('trackers')
    .selectAll()
    .where('owner_key_id', '=', keyId)
    .where('tracking_number', '=', number)
    .where('deleted_at', 'is', null)
    .$if(carrier !== undefined, (q) => q.where('carrier', '=', carrier!))
    .execute();
}

/** The external tracker through which the key follows this number, for POST /tracking. */
export async function followedTracker(ctx: Context, number: string, carrier: CarrierId | undefined): Promise<TrackersTable | undefined> {
  return (await followedRows(ctx.db, ctx.principal.keyId, number, carrier)).find((t) => t.origin === 'external');
}

/**
 * What the carrier says now of an external tracker's number. Only the test-mode simulators are asked (live keys
 * cannot make external trackers yet); they tell a journey decided by the number, begun when it was first followed.
 */
async function askCarrier(ctx: Pick<Context, 'config' | 'clock'>, carrierId: CarrierId, number: string, followedSince: Date): Promise<TrackingResult> {
  const carrier = carriersFor('test', ctx.config, ctx.clock)[carrierId];
  const answer = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.track(externalParcel(number, followedSince), signal));
  if (!answer.ok) throw new ApiError(answer.error.code === 'carrier_timeout' ? 'carrier_timeout' : 'carrier_error', `${carrier.name} did not answer for ${number}: ${answer.error.detail}`);
  return answer.value;
}

function nextCheckAt(now: Date, result: TrackingResult, mode: Mode): string | null {
  if (finalStatuses.has(result.status)) return null;
  return new Date(Math.max(now.getTime() + 1_000, result.nextEventAt?.getTime() ?? now.getTime() + pollMs[mode])).toISOString();
}

/**
 * Follows one number for the key, in `db` (the request's transaction, or a batch's): answers the tracker it already
 * has for the number, or makes one with the journey as the carrier tells it now. Its scans so far are in the answer;
 * tracking.updated is sent for each one that comes later.
 */
async function follow(ctx: Context, db: Kysely<DB>, input: TrackerCreate): Promise<TrackersTable> {
  const number = normalized(input.tracking_number);
  const order = input.order_id === undefined ? undefined : await ownOrderRow(db, ctx, input.order_id, false);
  const followed = await followedRows(db, ctx.principal.keyId, number, input.carrier);
  if (followed.length > 1) {
    throw new ApiError('tracking_number_ambiguous', `You follow ${number} with ${carrierNames(followed.map((t) => t.carrier))}; send \`carrier\` to say which`, [
      { in: 'body', pointer: '/carrier', detail: `must be given: the number is followed with ${followed.map((t) => t.carrier).join(', ')}` },
    ]);
  }
  if (followed.length === 1) return followed[0]!;
  const carrier = chooseCarrier(number, input.carrier, ctx.principal.mode);
  if (ctx.principal.mode === 'live') {
    throw new ApiError('not_supported_by_carrier', `shipd does not yet ask the live carriers about numbers it did not sell; with a test key, ${number} gets a simulated journey`, [
      { in: 'body', pointer: '/tracking_number', detail: 'live trackers follow the labels bought through shipd for now' },
    ]);
  }
  const now = ctx.clock.now();
  const at = now.toISOString();
  const result = await askCarrier(ctx, carrier, number, now);
  const row: TrackersTable = {
    id: newId('trk', now.getTime()),
    owner_key_id: ctx.principal.keyId,
    account_id: ctx.principal.accountId,
    mode: ctx.principal.mode,
    carrier,
    tracking_number: number,
    origin: 'external',
    shipment_id: null,
    package: null,
    order_id: order?.id ?? null,
    status: result.status,
    status_detail: result.statusDetail,
    events: JSON.stringify(toEvents(result.events)),
    estimated_delivery_date: result.estimatedDeliveryDate,
    signed_by: result.signedBy ?? null,
    metadata: JSON.stringify(input.metadata ?? {}),
    last_checked_at: at,
    next_check_at: nextCheckAt(now, result, ctx.principal.mode),
    created_at: at,
    updated_at: at,
    deleted_at: null,
  };
  const inserted = await db.insertInto('trackers').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return row;
  // Another request of the key made it meanwhile: theirs is the tracker.
  const theirs = await followedRows(db, ctx.principal.keyId, number, carrier);
  if (!theirs[0]) throw new Error(`The tracker of ${number} could not be written, and no other request made it`);
  return theirs[0];
}

/** POST /trackers. */
export async function createTracker(ctx: Context, input: TrackerCreate): Promise<Tracker> {
  return toTracker(await follow(ctx, ctx.db, input));
}

/** A batch item's problem, its pointers into the item where the body holds it. */
function itemProblem(ctx: Context, err: ApiError, index: number): Record<string, unknown> {
  const errors = err.errors?.map((e) => (e.in === 'body' ? { ...e, pointer: `/trackers/${index}${e.pointer}` } : e));
  return problemDocument(new ApiError(err.code, err.detail, errors, err.headers), ctx.requestId, ctx.config.publicUrl);
}

/**
 * POST /trackers/batch: each number as POST /trackers takes it, in one transaction. Each is checked before anything
 * of it is written, and a number followed meanwhile is answered, not refused, so one number's refusal never undoes
 * another's tracker.
 */
export async function createTrackerBatch(ctx: Context, input: TrackerBatchCreate): Promise<TrackerBatch> {
  return inTransaction(ctx.db, async (trx) => {
    const results: TrackerBatch['results'] = [];
    for (const [i, item] of input.trackers.entries()) {
      try {
        results.push({ tracking_number: item.tracking_number, tracker: toTracker(await follow(ctx, trx, item)), error: null });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        results.push({ tracking_number: item.tracking_number, tracker: null, error: itemProblem(ctx, err, i) as TrackerBatch['results'][number]['error'] });
      }
    }
    return { object: 'tracker_batch', results };
  });
}

async function ownTracker(ctx: Context, id: string): Promise<TrackersTable> {
  const row = await ctx.db.selectFrom('trackers').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst();
  if (!row) throw new ApiError('tracker_not_found', `No tracker ${id}`);
  return row;
}

export async function getTracker(ctx: Context, id: string): Promise<Tracker> {
  return toTracker(await ownTracker(ctx, id));
}

export async function listTrackers(ctx: Context, query: ListInput & { status?: Tracker['status']; carrier?: CarrierId }): Promise<Page<Tracker>> {
  const q = ctx.db
    .selectFrom('trackers')
    .selectAll()
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('deleted_at', 'is', null)
    .$if(query.status !== undefined, (q) => q.where('status', '=', query.status!))
    .$if(query.carrier !== undefined, (q) => q.where('carrier', '=', query.carrier!));
  return fetchPage(q, query, 'trk', toTracker);
}

/**
 * DELETE /trackers/{id}: stops following the number: no more checks, no more events. As Stripe answers a deletion,
 * the answer is the tracker marked `deleted`, and so is a GET of it later; lists leave it out, and the same number
 * can be followed again as a new tracker. Stopping one again answers the same. A label's tracker ends with its label.
 */
export async function deleteTracker(ctx: Context, id: string): Promise<Tracker> {
  const row = await ownTracker(ctx, id);
  if (row.origin === 'label') {
    throw new ApiError('resource_in_use', `${id} is the tracker of the label ${row.shipment_id}: it follows the label until its journey ends or it is voided`);
  }
  if (row.deleted_at !== null) return toTracker(row);
  const at = ctx.clock.now().toISOString();
  const stopped = { deleted_at: at, next_check_at: null, updated_at: at };
  const changed = await ctx.db.updateTable('trackers').set(stopped).where('id', '=', row.id).where('deleted_at', 'is', null).executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 1) return toTracker({ ...row, ...stopped });
  return toTracker(await ownTracker(ctx, id));
}

/**
 * Records a check of an external tracker, in the caller's transaction: its journey as the carrier told it, one
 * tracking.updated per scan not recorded before (each the tracker as that scan left it), or one for a status that
 * moved without a scan, owned by the key that made the tracker. The events and status read guard the write, so two
 * checks that see the same scans report them once; a stopped tracker is written no more. Answers the tracker as
 * written, or undefined when another check or a stop came first.
 */
async function recordCheck(ctx: TrackingContext, trx: Kysely<DB>, row: TrackersTable, result: TrackingResult, byWorker: boolean): Promise<TrackersTable | undefined> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const seen = (JSON.parse(row.events) as unknown[]).length;
  const checked = { next_check_at: nextCheckAt(now, result, row.mode), ...(byWorker && { last_checked_at: at }) };
  const tracker = trx.updateTable('trackers').where('id', '=', row.id).where('deleted_at', 'is', null).where('events', '=', row.events).where('status', '=', row.status);
  if (result.events.length <= seen && result.status === row.status) {
    const same = await tracker.set(checked).executeTakeFirst();
    return Number(same.numUpdatedRows) === 1 ? { ...row, ...checked } : undefined;
  }
  const moved = {
    ...checked,
    status: result.status,
    status_detail: result.statusDetail,
    events: JSON.stringify(toEvents(result.events)),
    estimated_delivery_date: result.estimatedDeliveryDate,
    signed_by: result.signedBy ?? row.signed_by,
    updated_at: at,
  };
  const written = await tracker.set(moved).executeTakeFirst();
  if (Number(written.numUpdatedRows) !== 1) return undefined;
  const next = { ...row, ...moved };
  const view = toTracker(next);
  for (let i = seen; i < result.events.length; i++) await recordEvent(trx, trackerOwner(row), 'tracking.updated', asOfScan(view, i + 1), at);
  if (result.events.length <= seen) await recordEvent(trx, trackerOwner(row), 'tracking.updated', view, at);
  return next;
}

/** POST /tracking of a number the key follows through an external tracker: the carrier is asked now. */
export async function refreshExternal(ctx: TrackingContext, row: TrackersTable): Promise<Tracker> {
  const result = await askCarrier(ctx, row.carrier as CarrierId, row.tracking_number, new Date(row.created_at));
  const written = await inTransaction(ctx.db, (trx) => recordCheck(ctx, trx, row, result, false));
  if (written) return toTracker(written);
  const now = await ctx.db.selectFrom('trackers').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  return toTracker(now);
}

interface Check {
  row: TrackersTable;
  result: TrackingResult;
}

/** Records a group of checks in one transaction; if the group fails, each alone, so one cannot hold up the rest. */
async function recordChecks(ctx: TrackingContext, log: { warn(o: object, m: string): void }, checks: Check[]): Promise<void> {
  try {
    await inTransaction(ctx.db, async (trx) => {
      for (const { row, result } of checks) await recordCheck(ctx, trx, row, result, true);
    });
  } catch {
    for (const { row, result } of checks) {
      await inTransaction(ctx.db, (trx) => recordCheck(ctx, trx, row, result, true)).catch((err: unknown) => log.warn({ err, tracker_id: row.id }, 'could not record a tracker check'));
    }
  }
}

/**
 * The trackers worker's pass: takes the external trackers whose next check is due (holding each for a minute, so
 * other workers skip it), asks their carriers, and records what changed in groups. Label trackers are written by
 * the shipments' tracking worker with their labels. Returns how many it checked.
 */
export async function pollTrackers(ctx: TrackingContext, log: { warn(o: object, m: string): void }, limit = trackerPollBatch): Promise<number> {
  const now = ctx.clock.now();
  // The origin is a literal, so that the planner sees the query stays within the due index's rows.
  let due = ctx.db.selectFrom('trackers').select('id').where(sql<boolean>`origin = 'external'`).where('next_check_at', '<=', now.toISOString()).orderBy('next_check_at').limit(limit);
  if (ctx.dbKind === 'postgres') due = due.forUpdate().skipLocked();
  const rows = await ctx.db
    .updateTable('trackers')
    .set({ next_check_at: new Date(now.getTime() + claimLeaseMs).toISOString() })
    .where('id', 'in', due)
    .returningAll()
    .execute();
  let checks: Check[] = [];
  for (const row of rows) {
    // A turn of the event loop between trackers lets requests in during a long pass.
    await setImmediate();
    try {
      checks.push({ row, result: await askCarrier(ctx, row.carrier as CarrierId, row.tracking_number, new Date(row.created_at)) });
    } catch (err) {
      // The claim's lease brings it back in a minute.
      log.warn({ err, tracker_id: row.id }, 'could not check a tracker');
    }
    if (checks.length >= recordGroup) {
      await recordChecks(ctx, log, checks);
      checks = [];
    }
  }
  if (checks.length > 0) await recordChecks(ctx, log, checks);
  return rows.length;
}
