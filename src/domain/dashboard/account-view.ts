// What the dashboard shows: an account's resources in one mode, whichever of its keys owns them. The API shows a
// key only its own; a person signed in for the account sees all of the account's, and acts as the owning key.
import type { Kysely } from 'kysely';
import type { ApiKeysTable, CarrierManifestState, DB, ManifestsTable, ShipmentsTable, WebhooksTable } from '../../db/schema.ts';
import type { CarrierId } from '../../config.ts';
import type { Manifest } from '../../schemas/manifest.ts';
import type { Pickup, PickupStatus } from '../../schemas/pickup.ts';
import type { Order, OrderStatus } from '../../schemas/order.ts';
import type { Shipment } from '../../schemas/shipment.ts';
import type { Tracker } from '../../schemas/tracker.ts';
import type { Webhook } from '../../schemas/webhook.ts';
import type { Plan } from '../accounts/accounts.ts';
import type { Mode } from '../../kernel/mode.ts';
import type { Context } from '../core/context.ts';
import { ApiError } from '../../kernel/errors.ts';
import { toOrder } from '../orders/orders.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { toShipment, visibleStatuses } from '../shipments/shipments.ts';
import { labelTrackerId, toTracker } from '../tracking/tracker-rows.ts';
import { toWebhook } from '../webhooks/webhooks.ts';
import { shipmentIds, toManifest } from '../ops/manifests.ts';
import { shownStatuses, toPickup } from '../ops/pickups.ts';
import { localClock } from '../core/local-time.ts';

export interface AccountScope {
  accountId: string;
  plan: Plan;
  mode: Mode;
}

/** A domain context acting as the key that owns a resource, so the domain's own ownership checks apply. */
export function asOwner(base: Omit<Context, 'principal'>, scope: AccountScope, ownerKeyId: string): Context {
  return { ...base, principal: { keyId: ownerKeyId, accountId: scope.accountId, mode: scope.mode, plan: scope.plan } };
}

export type KeyRow = ApiKeysTable & { last_used_at: string | null };

/** The account's keys of the mode, newest first, with when each was last used. */
export async function keysOf(db: Kysely<DB>, scope: AccountScope): Promise<KeyRow[]> {
  return db
    .selectFrom('api_keys as k')
    .leftJoin('api_key_usage as u', 'u.key_id', 'k.id')
    .selectAll('k')
    .select('u.last_used_at')
    .where('k.account_id', '=', scope.accountId)
    .where('k.mode', '=', scope.mode)
    .orderBy('k.created_at', 'desc')
    .execute();
}

/** One key of the account in the mode (404 for any other); with `active`, only one not revoked. */
export async function keyOf(db: Kysely<DB>, scope: AccountScope, keyId: string, active = false): Promise<ApiKeysTable> {
  let q = db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('account_id', '=', scope.accountId).where('mode', '=', scope.mode);
  if (active) q = q.where('revoked_at', 'is', null);
  const key = await q.executeTakeFirst();
  if (!key) throw new ApiError('not_found', active ? `No active ${scope.mode} key ${keyId}` : `No ${scope.mode} key ${keyId}`);
  return key;
}

export type OwnedWebhook = Webhook & { owner_key_id: string };

export async function webhooksOf(db: Kysely<DB>, scope: AccountScope): Promise<OwnedWebhook[]> {
  const rows = await db.selectFrom('webhooks').selectAll().where('account_id', '=', scope.accountId).where('mode', '=', scope.mode).orderBy('id', 'desc').execute();
  return rows.map((r) => ({ ...toWebhook(r), owner_key_id: r.owner_key_id }));
}

export async function webhookOf(db: Kysely<DB>, scope: AccountScope, id: string): Promise<WebhooksTable> {
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId).where('mode', '=', scope.mode).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No ${scope.mode} webhook ${id}`);
  return row;
}

/** What was sent for each event: its type and body as delivered. */
export async function eventBodies(db: Kysely<DB>, scope: AccountScope, eventIds: string[]): Promise<Map<string, { type: string; data: unknown; created_at: string }>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('events')
    .select(['id', 'type', 'data', 'created_at'])
    .where('id', 'in', eventIds)
    .where('account_id', '=', scope.accountId)
    .where('mode', '=', scope.mode)
    .execute();
  return new Map(rows.map((r) => [r.id, { type: r.type, data: JSON.parse(r.data), created_at: r.created_at }]));
}

export async function ordersOf(db: Kysely<DB>, scope: AccountScope, query: ListInput & { status?: OrderStatus; order_number?: string }): Promise<Page<Order>> {
  let q = db.selectFrom('orders').selectAll().where('account_id', '=', scope.accountId).where('mode', '=', scope.mode);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.order_number) q = q.where('order_number', '=', query.order_number);
  return fetchPage(q, query, 'ord', toOrder);
}

export async function shipmentsOf(
  ctx: Pick<Context, 'db' | 'config' | 'clock'>,
  scope: AccountScope,
  query: ListInput & { status?: Shipment['status']; carrier?: string; tracking_number?: string },
): Promise<Page<Shipment & { tracking_status: string | null }>> {
  let q = ctx.db.selectFrom('shipments').selectAll().where('account_id', '=', scope.accountId).where('mode', '=', scope.mode);
  q = query.status ? q.where('status', '=', query.status) : q.where('status', 'in', visibleStatuses);
  if (query.carrier) q = q.where('carrier', '=', query.carrier);
  if (query.tracking_number) q = q.where('tracking_number', '=', query.tracking_number.replace(/[\s-]/g, '').toUpperCase());
  // Where the parcel is, beside the label's own status: a delivered label is not just "purchased" to a person.
  return fetchPage(q, query, 'shp', (row) => ({ ...toShipment(ctx, row), tracking_status: row.tracking_status }));
}

export async function shipmentOf(db: Kysely<DB>, scope: AccountScope, id: string): Promise<ShipmentsTable> {
  const row = await db
    .selectFrom('shipments')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('mode', '=', scope.mode)
    .where('status', 'in', visibleStatuses)
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No ${scope.mode} shipment ${id}`);
  return row;
}

/** The label's tracking as last reported (its newest tracking.updated event), without asking the carrier. */
export async function lastTracker(db: Kysely<DB>, scope: AccountScope, shipmentId: string): Promise<Tracker | null> {
  const row = await db
    .selectFrom('events')
    .select('data')
    .where('account_id', '=', scope.accountId)
    .where('mode', '=', scope.mode)
    .where('type', '=', 'tracking.updated')
    .where('resource_id', '=', labelTrackerId(shipmentId))
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? (JSON.parse(row.data) as Tracker) : null;
}

export interface TrackerFilters {
  status?: Tracker['status'];
  carrier?: string;
  tracking_number?: string;
}

/**
 * The account's trackers of the mode, of every key and both origins (labels' and numbers followed with POST
 * /trackers), newest first; stopped ones are left out, as GET /trackers leaves them.
 */
export async function trackersOf(db: Kysely<DB>, links: Pick<Context, 'config' | 'clock'>, scope: AccountScope, query: ListInput & TrackerFilters): Promise<Page<Tracker>> {
  let q = db.selectFrom('trackers').selectAll().where('account_id', '=', scope.accountId).where('mode', '=', scope.mode).where('deleted_at', 'is', null);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.carrier) q = q.where('carrier', '=', query.carrier);
  if (query.tracking_number) q = q.where('tracking_number', '=', query.tracking_number.replace(/[\s-]/g, '').toUpperCase());
  return fetchPage(q, query, 'trk', (row) => toTracker(row, links));
}

/** One tracker of the account in the mode, a stopped one too (it says so); 404 for any other. */
export async function trackerOf(db: Kysely<DB>, links: Pick<Context, 'config' | 'clock'>, scope: AccountScope, id: string): Promise<Tracker> {
  const row = await db.selectFrom('trackers').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId).where('mode', '=', scope.mode).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No ${scope.mode} tracker ${id}`);
  return toTracker(row, links);
}

/** The id of a label's own tracker, where one was made (labels bought before trackers existed get theirs at their next check). */
export async function labelTrackerOf(db: Kysely<DB>, scope: AccountScope, shipmentId: string): Promise<string | null> {
  const id = labelTrackerId(shipmentId);
  const row = await db.selectFrom('trackers').select('id').where('id', '=', id).where('account_id', '=', scope.accountId).where('mode', '=', scope.mode).executeTakeFirst();
  return row ? row.id : null;
}

/** The day a warehouse means by "today": at the account's default ship-from location, else in UTC. */
export async function todayFor(db: Kysely<DB>, scope: AccountScope, now: Date): Promise<string> {
  const home = await db.selectFrom('locations').select('address').where('account_id', '=', scope.accountId).where('is_default', '=', 1).executeTakeFirst();
  const state = home ? (JSON.parse(home.address) as { state?: string }).state : undefined;
  return (state && localClock(state, now)?.date) || now.toISOString().slice(0, 10);
}

export interface ManifestFilters {
  ship_date?: string;
  carrier?: CarrierId;
  carrier_manifest?: CarrierManifestState;
}

/** The account's manifests of the mode, of every key, newest first. */
export async function manifestsOf(ctx: Pick<Context, 'db' | 'config' | 'clock'>, scope: AccountScope, query: ListInput & ManifestFilters): Promise<Page<Manifest>> {
  let q = ctx.db.selectFrom('manifests').selectAll().where('account_id', '=', scope.accountId).where('mode', '=', scope.mode);
  if (query.ship_date) q = q.where('ship_date', '=', query.ship_date);
  if (query.carrier) q = q.where('carrier', '=', query.carrier);
  if (query.carrier_manifest) q = q.where('carrier_manifest', '=', query.carrier_manifest);
  const page = await fetchPage(q, query, 'man', (row) => row);
  const ids = await shipmentIds(ctx.db, page.data.map((row) => row.id));
  return { ...page, data: page.data.map((row) => toManifest(ctx, row, ids.get(row.id)!)) };
}

/** One manifest of the account in the mode; 404 for any other. */
export async function manifestOf(db: Kysely<DB>, scope: AccountScope, id: string): Promise<ManifestsTable> {
  const row = await db.selectFrom('manifests').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId).where('mode', '=', scope.mode).executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No ${scope.mode} manifest ${id}`);
  return row;
}

export interface PickupFilters {
  date?: string;
  carrier?: CarrierId;
  status?: PickupStatus;
}

/** The account's pickups of the mode, of every key, newest first. */
export async function pickupsOf(db: Kysely<DB>, scope: AccountScope, query: ListInput & PickupFilters): Promise<Page<Pickup>> {
  let q = db.selectFrom('pickups').selectAll().where('account_id', '=', scope.accountId).where('mode', '=', scope.mode).where('status', 'in', shownStatuses);
  if (query.date) q = q.where('date', '=', query.date);
  if (query.carrier) q = q.where('carrier', '=', query.carrier);
  if (query.status) q = q.where('status', '=', query.status);
  return fetchPage(q, query, 'pku', toPickup);
}
