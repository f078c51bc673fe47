import { setImmediate } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { DB, TrackersTable } from '../../db/schema.ts';
import type { Carrier, CarrierResult, TrackedNumbers, TrackingResult } from '../../carriers/carrier.ts';
import { carriersFor } from '../../carriers/registry.ts';
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
import { carrierAccess, type CarrierAccess } from '../carrier-accounts/carrier-access.ts';
import { carrierPace } from './carrier-pace.ts';
import { firstLiveCheck, liveNextCheck, spread } from './schedule.ts';
import { ownOrderRow } from '../orders/orders.ts';
import { recordEvents, type NewEvent } from '../webhooks/events.ts';
import { jsonList, jsonRows } from '../../events/fan-out.ts';
import { subscribeLater, unsubscribeLater } from './carrier-subscriptions.ts';
import { asOfScan, finalStatuses, pollMs, proofDueAt, toEvents, toTracker, trackerOwner } from './tracker-rows.ts';
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
 * The carrier an external tracker's number is asked of, and its lane (whose calls the pace counts together): the
 * simulator in test mode; in live mode the carrier with the credentials the key's account would buy its labels with,
 * its own where it connected them (a lane of its own), else the platform's (one lane for every such account).
 */
export async function trackerCarrier(ctx: Pick<Context, 'db' | 'config' | 'clock'>, row: Pick<TrackersTable, 'mode' | 'carrier' | 'account_id'>, accesses?: Map<string, Promise<CarrierAccess>>): Promise<{ carrier: Carrier; lane: string }> {
  const id = row.carrier as CarrierId;
  if (row.mode === 'test') return { carrier: carriersFor('test', ctx.config, ctx.clock)[id], lane: `test:${id}` };
  let access = accesses?.get(row.account_id);
  if (!access) {
    access = carrierAccess(ctx, row.account_id, 'live');
    accesses?.set(row.account_id, access);
  }
  const { carriers, own } = await access;
  return { carrier: carriers[id], lane: own.has(id) ? `${id}:${row.account_id}` : id };
}

/** Asks the carrier about several numbers in one call, within the time-out: the call's failure, or each number's answer. */
function askCarrier(ctx: Pick<Context, 'config'>, carrier: Carrier, rows: Pick<TrackersTable, 'tracking_number' | 'created_at'>[]): Promise<CarrierResult<TrackedNumbers>> {
  const parcels = rows.map((r) => ({ trackingNumber: r.tracking_number, followedSince: new Date(r.created_at) }));
  return callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.trackNumbers(parcels, signal));
}

/** The carrier's call failed as a whole (throttled, down): what the pace counts, with the carrier's Retry-After. */
class CarrierCallFailed extends ApiError {
  constructor(
    code: 'carrier_timeout' | 'carrier_error',
    detail: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(code, detail);
  }
}

/** What the carrier says now of one external tracker's number, for a request that waits on it. */
async function askNow(
  ctx: Pick<Context, 'db' | 'config' | 'clock'>,
  row: Pick<TrackersTable, 'mode' | 'carrier' | 'account_id' | 'tracking_number' | 'created_at'>,
  given?: Carrier,
): Promise<TrackingResult> {
  const carrier = given ?? (await trackerCarrier(ctx, row)).carrier;
  const answer = await askCarrier(ctx, carrier, [row]);
  const detail = (d: string) => `${carrier.name} did not answer for ${row.tracking_number}: ${d}`;
  if (!answer.ok) throw new CarrierCallFailed(answer.error.code === 'carrier_timeout' ? 'carrier_timeout' : 'carrier_error', detail(answer.error.detail), answer.error.retryAfterMs);
  const mine = answer.value.get(row.tracking_number) ?? { ok: false as const, error: { code: 'carrier_error' as const, detail: 'no answer for the number' } };
  if (!mine.ok) throw new ApiError(mine.error.code === 'carrier_timeout' ? 'carrier_timeout' : 'carrier_error', detail(mine.error.detail));
  return mine.value;
}

interface NextCheck {
  next_check_at: string | null;
  /** Why shipd stopped asking, where it gave up on a live parcel that had not ended its journey. */
  stopDetail: string | null;
}

/**
 * Test mode checks when the simulator says the journey next moves (the bench and tests rely on that); live mode
 * by the schedule (schedule.ts): by status, spread by the tracker's id, given up on when it goes quiet.
 */
function nextCheckAt(now: Date, result: TrackingResult, row: Pick<TrackersTable, 'id' | 'mode' | 'created_at' | 'updated_at'>, changed: boolean): NextCheck {
  if (finalStatuses.has(result.status)) return { next_check_at: null, stopDetail: null };
  if (row.mode === 'test') {
    return { next_check_at: new Date(Math.max(now.getTime() + 1_000, result.nextEventAt?.getTime() ?? now.getTime() + pollMs.test)).toISOString(), stopDetail: null };
  }
  const next = liveNextCheck({
    trackerId: row.id,
    status: result.status,
    events: result.events.length,
    estimatedDeliveryDate: result.estimatedDeliveryDate,
    lastEventAt: result.events.at(-1)?.occurredAt ?? null,
    lastChangeAt: changed ? now : new Date(row.updated_at),
    createdAt: new Date(row.created_at),
    now,
  });
  return { next_check_at: next.nextCheckAt?.toISOString() ?? null, stopDetail: next.stopDetail };
}

/**
 * A live tracker as it is made: its carrier is asked by the trackers worker, which asks about many numbers a call,
 * so that following a thousand numbers is a few dozen calls, not a thousand. The account must have credentials the
 * carrier can be asked with, its own or the platform's.
 */
async function notAskedYet(ctx: Context, db: Kysely<DB>, carrierId: CarrierId): Promise<TrackingResult> {
  // Read in the caller's transaction: a batch's holds SQLite's one connection.
  const { carrier } = await trackerCarrier({ db, config: ctx.config, clock: ctx.clock }, { mode: 'live', carrier: carrierId, account_id: ctx.principal.accountId });
  if (!carrier.usable) {
    throw new ApiError('not_supported_by_carrier', `shipd cannot ask ${carrier.name} about numbers with live keys here: it has no ${carrier.name} credentials for this account or the platform`, [
      { in: 'body', pointer: '/tracking_number', detail: `${carrier.name} cannot be asked: connect the account's own ${carrier.name} account, or set the platform's credentials` },
    ]);
  }
  return { status: 'unknown', statusDetail: `Not asked yet: shipd asks ${carrier.name} within a minute`, estimatedDeliveryDate: null, events: [] };
}

/** Numbers per statement where a batch is read or written whole, well under both databases' bound-parameter limits. */
const setChunk = 500;

/** What one number of a batch came to: the tracker followed, or the problem POST /trackers would answer. */
type Followed = TrackersTable | ApiError;

/**
 * Follows numbers for the key, in `db` (the request's transaction, or a batch's): answers the tracker it already has
 * for each number, or makes one with the journey as the carrier tells it now. Its scans so far are in the answer;
 * tracking.updated is sent for each one that comes later. The numbers already followed are read in one query per
 * 500, and the new trackers written in one insert per 500, so a batch of a thousand costs a handful of statements
 * instead of two per number; a number given twice answers the one tracker.
 */
async function followAll(ctx: Context, db: Kysely<DB>, inputs: TrackerCreate[]): Promise<Followed[]> {
  const numbers = inputs.map((i) => normalized(i.tracking_number));
  const followed = new Map<string, TrackersTable[]>();
  const distinct = [...new Set(numbers)];
  for (let i = 0; i < distinct.length; i += setChunk) {
    const rows = await db
      .selectFrom('trackers')
      .selectAll()
      .where('owner_key_id', '=', ctx.principal.keyId)
      .where('tracking_number', 'in', distinct.slice(i, i + setChunk))
      .where('deleted_at', 'is', null)
      .execute();
    for (const row of rows) followed.set(row.tracking_number, [...(followed.get(row.tracking_number) ?? []), row]);
  }
  const live = ctx.principal.mode === 'live';
  const answers: Followed[] = [];
  const made: TrackersTable[] = [];
  for (const [i, input] of inputs.entries()) {
    try {
      const number = numbers[i]!;
      const order = input.order_id === undefined ? undefined : await ownOrderRow(db, ctx, input.order_id, false);
      const mine = (followed.get(number) ?? []).filter((t) => input.carrier === undefined || t.carrier === input.carrier);
      if (mine.length > 1) {
        throw new ApiError('tracking_number_ambiguous', `You follow ${number} with ${carrierNames(mine.map((t) => t.carrier))}; send \`carrier\` to say which`, [
          { in: 'body', pointer: '/carrier', detail: `must be given: the number is followed with ${mine.map((t) => t.carrier).join(', ')}` },
        ]);
      }
      if (mine.length === 1) {
        answers.push(mine[0]!);
        continue;
      }
      const carrier = chooseCarrier(number, input.carrier, ctx.principal.mode);
      const now = ctx.clock.now();
      const at = now.toISOString();
      const id = newId('trk', now.getTime());
      const result = live ? await notAskedYet(ctx, db, carrier) : await askNow(ctx, { mode: 'test', carrier, account_id: ctx.principal.accountId, tracking_number: number, created_at: at });
      const row: TrackersTable = {
        id,
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
        // A live number is asked about by the trackers worker, many numbers a call, within a minute.
        last_checked_at: live ? null : at,
        next_check_at: live ? firstLiveCheck(id, now).toISOString() : nextCheckAt(now, result, { id, mode: 'test', created_at: at, updated_at: at }, true).next_check_at,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        proof_of_delivery: null,
        proof_due_at: proofDueAt({ status: 'unknown', proof_due_at: null, proof_of_delivery: null }, result, at),
        proof_attempts: 0,
      };
      // A later item of the batch with the number answers this tracker, as it would once written.
      followed.set(number, [...(followed.get(number) ?? []), row]);
      made.push(row);
      answers.push(row);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      answers.push(err);
    }
  }
  const written = new Set<string>();
  for (let i = 0; i < made.length; i += setChunk) {
    const inserted = await db
      .insertInto('trackers')
      .values(made.slice(i, i + setChunk))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    for (const r of inserted) written.add(r.id);
  }
  if (written.size === made.length) return answers;
  // Another request of the key made some meanwhile: theirs are the trackers.
  const mine = new Set(made);
  for (const [i, a] of answers.entries()) {
    if (a instanceof ApiError || !mine.has(a) || written.has(a.id)) continue;
    const theirs = await followedRows(db, ctx.principal.keyId, a.tracking_number, a.carrier as CarrierId);
    if (!theirs[0]) throw new Error(`The tracker of ${a.tracking_number} could not be written, and no other request made it`);
    answers[i] = theirs[0];
  }
  return answers;
}

/** A live number followed is subscribed with its carrier, so its scans are pushed (carrier-subscriptions.ts). */
async function followLive(ctx: Context, db: Kysely<DB>, row: TrackersTable): Promise<TrackersTable> {
  if (row.mode === 'live') await subscribeLater(db, row.carrier, row.tracking_number, ctx.clock.now().toISOString());
  return row;
}

/** POST /trackers. */
export async function createTracker(ctx: Context, input: TrackerCreate): Promise<Tracker> {
  const [followed] = await followAll(ctx, ctx.db, [input]);
  if (followed instanceof ApiError) throw followed;
  return toTracker(await followLive(ctx, ctx.db, followed!), ctx);
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
    const followed = await followAll(ctx, trx, input.trackers);
    const results: TrackerBatch['results'] = [];
    for (const [i, item] of input.trackers.entries()) {
      const f = followed[i]!;
      if (f instanceof ApiError) {
        results.push({ tracking_number: item.tracking_number, tracker: null, error: itemProblem(ctx, f, i) as TrackerBatch['results'][number]['error'] });
      } else {
        results.push({ tracking_number: item.tracking_number, tracker: toTracker(await followLive(ctx, trx, f), ctx), error: null });
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
  return toTracker(await ownTracker(ctx, id), ctx);
}

export async function listTrackers(ctx: Context, query: ListInput & { status?: Tracker['status']; carrier?: CarrierId }): Promise<Page<Tracker>> {
  const q = ctx.db
    .selectFrom('trackers')
    .selectAll()
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('deleted_at', 'is', null)
    .$if(query.status !== undefined, (q) => q.where('status', '=', query.status!))
    .$if(query.carrier !== undefined, (q) => q.where('carrier', '=', query.carrier!));
  return fetchPage(q, query, 'trk', (row) => toTracker(row, ctx));
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
  if (row.deleted_at !== null) return toTracker(row, ctx);
  const at = ctx.clock.now().toISOString();
  const stopped = { deleted_at: at, next_check_at: null, updated_at: at };
  const changed = await ctx.db.updateTable('trackers').set(stopped).where('id', '=', row.id).where('deleted_at', 'is', null).executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 1) {
    // The carrier is told to stop pushing the number once no live tracker follows it (carrier-subscriptions.ts).
    if (row.mode === 'live') await unsubscribeLater(ctx.db, row.carrier, row.tracking_number, at);
    return toTracker({ ...row, ...stopped }, ctx);
  }
  return toTracker(await ownTracker(ctx, id), ctx);
}

/** Text as carriers vary it between their APIs: case, runs of spaces, ends. */
const folded = (s: string | undefined) => (s ?? '').trim().replace(/\s+/g, ' ').toUpperCase();

/**
 * What makes two reports one scan: the second it happened, the status shipd reads from it, and where (city, state,
 * country). The description is left out because the same scan is worded differently by a carrier's push and its
 * tracking API (UPS Track Alert's status description is "a very brief (a few words)" one: "On the Way" where the
 * Track API says "Departed from Facility"), and so is the postal code, which Track Alert leaves blank until delivery.
 */
export function scanKey(e: Tracker['events'][number]): string {
  const second = e.occurred_at.slice(0, 19);
  const l = e.location;
  return [second, e.status, folded(l?.city), folded(l?.state), folded(l?.country)].join('|');
}

/**
 * The scans known and told, each once, oldest first (a scan told again keeps its first telling), and the places in
 * that list of the ones not known before.
 */
export function mergeScans(known: Tracker['events'], told: Tracker['events']): { events: Tracker['events']; added: number[] } {
  const keys = new Set(known.map(scanKey));
  const fresh: Tracker['events'] = [];
  for (const e of told) {
    const k = scanKey(e);
    if (keys.has(k)) continue;
    keys.add(k);
    fresh.push(e);
  }
  if (fresh.length === 0) return { events: known, added: [] };
  const isFresh = new Set(fresh);
  // A stable sort: scans of the same instant keep the order they were known, then told in.
  const events = [...known, ...fresh].sort((a, b) => Date.parse(a.occurred_at) - Date.parse(b.occurred_at));
  const added = events.flatMap((e, i) => (isFresh.has(e) ? [i] : []));
  return { events, added };
}

/**
 * Records a check of an external tracker, in the caller's transaction: its journey as the carrier told it, whole
 * (a poll) or in part (a push), merged with the scans already recorded by scan identity (scanKey), so a scan pushed
 * and then polled, polled and then pushed, or pushed twice is one scan; one tracking.updated per scan not recorded
 * before (each the tracker as that scan left it), or one for a status that moved without a scan, owned by the key
 * that made the tracker. The status is the one told unless what was told is older than a scan already known. The
 * events and status read guard the write, so two checks that see the same scans report them once; a stopped tracker
 * is written no more. Answers the tracker as written, or undefined when another check or a stop came first.
 */
export async function recordCheck(ctx: TrackingContext, trx: Kysely<DB>, row: TrackersTable, result: TrackingResult, byWorker: boolean): Promise<TrackersTable | undefined> {
  const events: NewEvent[] = [];
  const [written] = await writeChecks(ctx, trx, [{ row, result }], byWorker, events);
  await recordEvents(trx, ctx.dbKind, events);
  return written;
}

/**
 * A check's write: the guard (the events and status read), and each column's new value, or null to leave it as it
 * is. next_check_at is always written, null when shipd stops asking.
 */
const checkColumns = [
  ['id', 'text'],
  ['old_events', 'text'],
  ['old_status', 'text'],
  ['status', 'text'],
  ['status_detail', 'text'],
  ['events', 'text'],
  ['estimated_delivery_date', 'text'],
  ['signed_by', 'text'],
  ['proof_due_at', 'text'],
  ['next_check_at', 'text'],
  ['last_checked_at', 'text'],
  ['updated_at', 'text'],
] as const;
type CheckWrite = Record<(typeof checkColumns)[number][0], string | null>;

/**
 * recordCheck's writes of several trackers (distinct ones) in one UPDATE, their tracking.updated added to `events`
 * for the caller to record; answers each tracker as written, or undefined where the guard refused it.
 */
async function writeChecks(ctx: TrackingContext, trx: Kysely<DB>, checks: { row: TrackersTable; result: TrackingResult }[], byWorker: boolean, events: NewEvent[]): Promise<(TrackersTable | undefined)[]> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const planned = checks.map(({ row, result }) => {
    const known = JSON.parse(row.events) as Tracker['events'];
    const { events: scans, added } = mergeScans(known, toEvents(result.events));
    const toldNewest = result.events.at(-1)?.occurredAt.getTime();
    const told = toldNewest === undefined ? scans.length === 0 : toldNewest >= Date.parse(scans.at(-1)!.occurred_at);
    const status = (told ? result.status : row.status) as TrackingResult['status'];
    const unchanged = added.length === 0 && status === row.status;
    const { next_check_at, stopDetail } = nextCheckAt(now, { ...result, status }, row, !unchanged);
    const toldDetail = told ? result.statusDetail : row.status_detail;
    const write: CheckWrite = {
      id: row.id,
      old_events: row.events,
      old_status: row.status,
      status: null,
      status_detail: null,
      events: null,
      estimated_delivery_date: null,
      signed_by: null,
      proof_due_at: null,
      next_check_at,
      last_checked_at: byWorker ? at : null,
      updated_at: null,
    };
    if (unchanged) {
      // A live carrier's words may change without a scan (a number it now says it does not know), and so does the reason shipd stopped asking.
      const detail = row.mode === 'live' ? (stopDetail ?? toldDetail) : row.status_detail;
      if (detail !== row.status_detail) write.status_detail = detail;
    } else {
      Object.assign(write, {
        status,
        status_detail: stopDetail ?? toldDetail,
        events: added.length === 0 ? null : JSON.stringify(scans),
        estimated_delivery_date: result.estimatedDeliveryDate,
        signed_by: result.signedBy ?? null,
        proof_due_at: proofDueAt(row, { ...result, status }, at),
        updated_at: at,
      });
    }
    const next: TrackersTable = {
      ...row,
      status: write.status ?? row.status,
      status_detail: write.status_detail ?? row.status_detail,
      events: write.events ?? row.events,
      estimated_delivery_date: write.estimated_delivery_date ?? row.estimated_delivery_date,
      signed_by: write.signed_by ?? row.signed_by,
      proof_due_at: write.proof_due_at ?? row.proof_due_at,
      next_check_at,
      last_checked_at: write.last_checked_at ?? row.last_checked_at,
      updated_at: write.updated_at ?? row.updated_at,
    };
    return { row, write, next, unchanged, added };
  });
  if (planned.length === 0) return [];
  const updated = await sql<{ id: string }>`
    update trackers set status = coalesce(v.status, trackers.status), status_detail = coalesce(v.status_detail, trackers.status_detail),
      events = coalesce(v.events, trackers.events), estimated_delivery_date = coalesce(v.estimated_delivery_date, trackers.estimated_delivery_date),
      signed_by = coalesce(v.signed_by, trackers.signed_by), proof_due_at = coalesce(v.proof_due_at, trackers.proof_due_at), next_check_at = v.next_check_at,
      last_checked_at = coalesce(v.last_checked_at, trackers.last_checked_at), updated_at = coalesce(v.updated_at, trackers.updated_at)
    from ${jsonRows(ctx.dbKind, planned.map((p) => p.write), checkColumns)}
    where trackers.id = v.id and trackers.deleted_at is null and trackers.events = v.old_events and trackers.status = v.old_status
    returning trackers.id`.execute(trx);
  const written = new Set(updated.rows.map((r) => r.id));
  return planned.map(({ row, next, unchanged, added }) => {
    if (!written.has(row.id)) return undefined;
    if (unchanged) return next;
    const view = toTracker(next, ctx);
    const owner = trackerOwner(row);
    for (const i of added) events.push({ owner, type: 'tracking.updated', resource: asOfScan(view, i + 1), at });
    if (added.length === 0) events.push({ owner, type: 'tracking.updated', resource: view, at });
    return next;
  });
}

/**
 * POST /tracking of a number the key follows through an external tracker: the carrier is asked now. A live carrier
 * is asked within its pace, as the trackers worker asks it: while its lane is out of room or backed off after a
 * throttled or failed call, the answer is the tracker as last checked (its last_checked_at says when), not a call
 * that would be throttled or would crowd out the worker's checks; a failed call counts against the lane.
 */
export async function refreshExternal(ctx: TrackingContext, row: TrackersTable): Promise<Tracker> {
  let result: TrackingResult;
  if (row.mode === 'live') {
    const { carrier, lane } = await trackerCarrier(ctx, row);
    const pace = carrierPace(ctx.clock, ctx.config);
    if (!pace.take(lane, carrier.id, ctx.clock.now().getTime())) return toTracker(row, ctx);
    try {
      result = await askNow(ctx, row, carrier);
      pace.succeeded(lane);
    } catch (err) {
      if (err instanceof CarrierCallFailed) pace.failed(lane, carrier.id, ctx.clock.now().getTime(), err.retryAfterMs);
      throw err;
    }
  } else {
    result = await askNow(ctx, row);
  }
  const written = await inTransaction(ctx.db, (trx) => recordCheck(ctx, trx, row, result, false));
  if (written) return toTracker(written, ctx);
  const now = await ctx.db.selectFrom('trackers').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  return toTracker(now, ctx);
}

/** What the worker holds of a claimed tracker: what its carrier is asked with; the rest is read when it is recorded. */
type Claimed = Pick<TrackersTable, 'id' | 'mode' | 'carrier' | 'account_id' | 'tracking_number' | 'created_at'>;

interface Check {
  row: Claimed;
  result: TrackingResult;
}

/**
 * Records a group of checks in one transaction: the trackers read as they are now (one query), each written, and
 * their tracking.updated in one insert. If the group fails, each alone, so one cannot hold up the rest.
 */
async function recordChecks(ctx: TrackingContext, log: { warn(o: object, m: string): void }, checks: Check[]): Promise<void> {
  const recordGroup = async (trx: Kysely<DB>, group: Check[]) => {
    const rows = await trx
      .selectFrom('trackers')
      .selectAll()
      .where('id', 'in', sql<string>`${jsonList(ctx.dbKind, group.map((c) => c.row.id))}`)
      .where('deleted_at', 'is', null)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const events: NewEvent[] = [];
    // A tracker stopped since it was claimed is written no more.
    const current = group.flatMap(({ row, result }) => (byId.has(row.id) ? [{ row: byId.get(row.id)!, result }] : []));
    await writeChecks(ctx, trx, current, true, events);
    await recordEvents(trx, ctx.dbKind, events);
  };
  try {
    await inTransaction(ctx.db, (trx) => recordGroup(trx, checks));
  } catch {
    for (const check of checks) {
      await inTransaction(ctx.db, (trx) => recordGroup(trx, [check])).catch((err: unknown) => log.warn({ err, tracker_id: check.row.id }, 'could not record a tracker check'));
    }
  }
}

/** The trackers of one lane in one pass, and the carrier they are asked of. */
interface LaneWork {
  lane: string;
  carrier: Carrier;
  rows: Claimed[];
}

/**
 * The trackers worker's pass: takes the external trackers whose next check is due (holding each for a minute, so
 * other workers skip it), groups them by lane (carrier and credentials), and asks each carrier about as many numbers
 * a call as its API takes, the lanes side by side. A live lane is called within its carrier's rate windows; a lane
 * out of room, or backed off after a throttled or failed call, has its trackers put back to when it may be called
 * again, and the other lanes go on. Label trackers are written by the shipments' tracking worker with their labels.
 * Returns how many it took.
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
    .returning(['id', 'mode', 'carrier', 'account_id', 'tracking_number', 'created_at'])
    .execute();
  const accesses = new Map<string, Promise<CarrierAccess>>();
  const lanes = new Map<string, LaneWork>();
  for (const row of rows) {
    const { carrier, lane } = await trackerCarrier(ctx, row, accesses);
    const work = lanes.get(lane) ?? { lane, carrier, rows: [] };
    work.rows.push(row);
    lanes.set(lane, work);
  }
  // Lanes ask side by side; their checks are written one group at a time, so transactions never overlap.
  let writing = Promise.resolve();
  const record = (checks: Check[]) => {
    writing = writing.then(() => recordChecks(ctx, log, checks));
    return writing;
  };
  await Promise.all([...lanes.values()].map((work) => pollLane(ctx, log, work, record)));
  await writing;
  return rows.length;
}

/** Puts trackers back in the queue at `at` (each a little after, by its id, so they do not all fall due at once). */
async function putBack(ctx: TrackingContext, rows: Claimed[], at: number, spreadMs: number): Promise<void> {
  for (const row of rows) {
    const when = new Date(at + Math.round(spread(row.id, spreadMs) - 0.75 * spreadMs)).toISOString();
    await ctx.db.updateTable('trackers').set({ next_check_at: when }).where('id', '=', row.id).where('deleted_at', 'is', null).execute();
  }
}

async function pollLane(ctx: TrackingContext, log: { warn(o: object, m: string): void }, work: LaneWork, record: (checks: Check[]) => Promise<void>): Promise<void> {
  const { carrier, lane } = work;
  const paced = !lane.startsWith('test:');
  const pace = carrierPace(ctx.clock, ctx.config);
  const size = Math.max(1, carrier.trackingBatchLimit);
  let checks: Check[] = [];
  for (let from = 0; from < work.rows.length; from += size) {
    const chunk = work.rows.slice(from, from + size);
    const now = ctx.clock.now().getTime();
    if (paced && !pace.take(lane, carrier.id, now)) {
      // Out of room in the carrier's windows, or backed off: these wait for the lane, the other lanes go on.
      const readyAt = pace.readyAt(lane, carrier.id, now);
      await putBack(ctx, work.rows.slice(from), readyAt, Math.max(1_000, Math.min(60_000, readyAt - now)));
      break;
    }
    // A turn of the event loop between calls lets requests in during a long pass.
    await setImmediate();
    const answer = await askCarrier(ctx, carrier, chunk);
    if (!answer.ok) {
      if (!paced) {
        // The claim's lease brings them back in a minute.
        log.warn({ carrier: carrier.id, error: answer.error }, 'could not check trackers');
        continue;
      }
      const until = pace.failed(lane, carrier.id, ctx.clock.now().getTime(), answer.error.retryAfterMs);
      log.warn({ carrier: carrier.id, lane, error: answer.error, retry_at: new Date(until).toISOString(), trackers: work.rows.length - from }, 'a carrier failed a tracking call; its trackers wait for it');
      await putBack(ctx, work.rows.slice(from), until, Math.max(1_000, Math.min(60_000, until - now)));
      break;
    }
    if (paced) pace.succeeded(lane);
    for (const row of chunk) {
      const mine = answer.value.get(row.tracking_number);
      if (mine?.ok) {
        checks.push({ row, result: mine.value });
      } else {
        log.warn({ tracker_id: row.id, error: mine?.error ?? 'no answer for the number' }, 'could not check a tracker');
        // A live number refused on its own is asked again as one whose state is not known, not every minute.
        if (paced) await putBack(ctx, [row], ctx.clock.now().getTime() + 6 * 3_600_000, 3_600_000);
      }
    }
    if (checks.length >= recordGroup) {
      await record(checks);
      checks = [];
    }
  }
  if (checks.length > 0) await record(checks);
}
