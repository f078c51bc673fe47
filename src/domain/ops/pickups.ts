import type { Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { DB, PickupsTable } from '../../db/schema.ts';
import type { Carrier, CarrierFailure, PickupParcels } from '../../carriers/carrier.ts';
import { carrierCatalog } from '../../carriers/catalog.ts';
import { usFederalHoliday } from '../../carriers/sim/calendar.ts';
import { minimumWindowMinutes, pickupHours } from '../../carriers/sim/pickups.ts';
import type { Address } from '../../schemas/address.ts';
import type { Pickup, PickupCreate, PickupStatus } from '../../schemas/pickup.ts';
import { carrierAccess } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { hasPrefix, newId } from '../../kernel/ids.ts';
import { localClock, minutesOf, timeOf, type LocalClock } from '../core/local-time.ts';
import { toLocation } from '../locations/locations.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { failIfAny, field, normalizeOrigin } from '../shipments/shipment-inputs.ts';
import { isUsAddress } from '../addresses/address-rules.ts';
import { recordBoxes, visibleStatuses, type PurchaseRecord } from '../shipments/shipments.ts';

/** How far ahead a pickup may be scheduled: carriers plan routes weeks, not months, out. */
export const maxDaysAhead = 30;

export function toPickup(row: PickupsTable): Pickup {
  return {
    id: row.id,
    object: 'pickup',
    status: row.status,
    carrier: row.carrier as CarrierId,
    confirmation_number: row.confirmation_number,
    ship_from_id: row.ship_from_id,
    address: JSON.parse(row.address),
    date: row.date,
    window: { start: row.window_start, end: row.window_end },
    shipment_ids: JSON.parse(row.shipment_ids),
    instructions: row.instructions,
    mode: row.mode,
    created_at: row.created_at,
    cancelled_at: row.cancelled_at,
  };
}

export interface Place {
  address: Address;
  id: string | null;
  /** The local day and time there, by its state's time zone. */
  clock: LocalClock;
}

/** Where the driver comes: exactly one of an inline address and one of the account's locations. */
export async function pickupPlace(ctx: Context, input: Pick<PickupCreate, 'address' | 'ship_from_id'>, errors: FieldError[]): Promise<Place | undefined> {
  if (input.address && input.ship_from_id) {
    errors.push(field('/ship_from_id', 'give address or ship_from_id, not both'));
    return undefined;
  }
  let found: { address: Address; id: string | null; pointer: string };
  if (input.address) {
    const address = normalizeOrigin(input.address, '/address', errors);
    // Drivers come to US addresses only: one abroad has no US time zone to schedule in.
    if (!isUsAddress(address)) return undefined;
    found = { address, id: null, pointer: '/address/state' };
  } else if (input.ship_from_id) {
    const row = await ctx.db.selectFrom('locations').selectAll().where('account_id', '=', ctx.principal.accountId).where('id', '=', input.ship_from_id).executeTakeFirst();
    if (!row) {
      errors.push(field('/ship_from_id', "is not one of the account's ship-from locations (GET /ship-from)"));
      return undefined;
    }
    found = { address: toLocation(row).address, id: row.id, pointer: '/ship_from_id' };
  } else {
    errors.push(field('/address', 'is required: give address or ship_from_id'));
    return undefined;
  }
  const clock = localClock(found.address.state, ctx.clock.now());
  if (!clock) {
    errors.push(field(found.pointer, `is a military post office (${found.address.state}); carriers do not pick up at APO, FPO or DPO addresses`));
    return undefined;
  }
  return { address: found.address, id: found.id, clock };
}

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Whole days from one YYYY-MM-DD to another. */
export function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Business days only, not in the past, not too far ahead; a window carriers can serve that has not begun. Without
 * the place's clock (the place itself is at fault) the rules that need no time zone are still checked, so one
 * answer lists every broken rule.
 */
function whenErrors(input: PickupCreate, local: LocalClock | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const ahead = local ? daysFrom(local.date, input.date) : undefined;
  const weekday = new Date(`${input.date}T00:00:00Z`).getUTCDay();
  const holiday = usFederalHoliday(input.date);
  if (ahead !== undefined && ahead < 0) errors.push(field('/date', `is in the past: it is ${local!.date} at the pickup address`));
  else if (ahead !== undefined && ahead > maxDaysAhead) errors.push(field('/date', `is more than ${maxDaysAhead} days ahead; schedule it ${maxDaysAhead} days out at most`));
  else if (weekday === 0 || weekday === 6) errors.push(field('/date', `is a ${weekdays[weekday]}; carriers pick up Monday to Friday`));
  else if (holiday) errors.push(field('/date', `is ${holiday}, a US federal holiday; carriers do not pick up`));

  const start = minutesOf(input.window.start);
  const end = minutesOf(input.window.end);
  if (start < minutesOf(pickupHours.opens)) errors.push(field('/window/start', `is before ${pickupHours.opens}, when carrier pickups begin`));
  if (end > minutesOf(pickupHours.closes)) errors.push(field('/window/end', `is after ${pickupHours.closes}, when carrier pickups end`));
  if (end <= start) errors.push(field('/window/end', 'must be after the start'));
  else if (end - start < minimumWindowMinutes) errors.push(field('/window/end', `must be at least ${minimumWindowMinutes / 60} hours after the start; the window is ${end - start} minutes`));
  // The start minute itself counts as begun, as it does for cancelling.
  if (ahead === 0 && start <= local!.minutes) errors.push(field('/window/start', `has passed: it is ${timeOf(local!.minutes)} at the pickup address`));
  return errors;
}

interface Collected {
  trackingNumbers: string[];
  services: string[];
  parcels: PickupParcels;
}

const carrierName = (id: string) => carrierCatalog.find((c) => c.id === id)?.name ?? id;

/** The labels to collect: the key's own purchased labels of the pickup's carrier. Their tracking numbers, boxes and services go to the carrier. */
async function labelsToCollect(ctx: Context, carrier: Carrier, ids: string[], errors: FieldError[]): Promise<Collected> {
  const collected: Collected = { trackingNumbers: [], services: [], parcels: { count: 0, weightLb: 0 } };
  if (ids.length === 0) return collected;
  const rows = await ctx.db
    .selectFrom('shipments')
    .select(['id', 'status', 'carrier', 'service', 'tracking_number', 'purchase'])
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('id', 'in', ids)
    .where('status', 'in', visibleStatuses)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  ids.forEach((id, i) => {
    const row = byId.get(id);
    const pointer = `/shipment_ids/${i}`;
    if (!row) errors.push(field(pointer, 'is not a shipment of this key (GET /shipments)'));
    else if (row.status !== 'purchased') errors.push(field(pointer, `is ${row.status}; only purchased labels can be picked up`));
    else if (row.carrier !== carrier.id) errors.push(field(pointer, `is a ${carrierName(row.carrier)} label; ${carrier.name} would not take it`));
    else {
      collected.trackingNumbers.push(row.tracking_number!);
      if (!collected.services.includes(row.service)) collected.services.push(row.service);
      const boxes = recordBoxes(JSON.parse(row.purchase) as PurchaseRecord);
      collected.parcels.count += boxes.length;
      collected.parcels.weightLb += boxes.reduce((sum, b) => sum + b.weightLb, 0);
    }
  });
  return collected;
}

export function carrierRefusal(carrier: Carrier, failure: CarrierFailure, what: string): ApiError {
  if (failure.code === 'carrier_timeout') return new ApiError('carrier_timeout', `${failure.detail}; ${what}`);
  return new ApiError('carrier_error', `${carrier.name}: ${failure.detail}; ${what}`);
}

function unsupported(carrier: Carrier, mode: string): ApiError {
  return new ApiError('not_supported_by_carrier', `${carrier.name} pickups cannot be scheduled or cancelled through shipd with ${mode} keys; arrange them with ${carrier.name} directly`);
}

/** POST /pickups: checks everything first, then books the carrier, then records what it confirmed. */
export async function schedulePickup(ctx: Context, input: PickupCreate): Promise<Pickup> {
  const { mode } = ctx.principal;
  const carrier = (await carrierAccess(ctx, ctx.principal.accountId, mode)).carriers[input.carrier];
  const schedule = carrier.schedulePickup?.bind(carrier);
  if (!schedule) throw unsupported(carrier, mode);

  const errors: FieldError[] = [];
  const place = await pickupPlace(ctx, input, errors);
  const labels = await labelsToCollect(ctx, carrier, input.shipment_ids ?? [], errors);
  errors.push(...whenErrors(input, place?.clock));
  failIfAny(errors);
  // pickupPlace records an error whenever it finds no place, so past failIfAny there is one.
  const where = place!;

  const now = ctx.clock.now();
  const id = newId('pku', now.getTime());
  const booked = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) =>
    schedule(
      {
        address: where.address,
        date: input.date,
        window: input.window,
        trackingNumbers: labels.trackingNumbers,
        parcels: labels.parcels,
        services: labels.services,
        ...(input.instructions && { instructions: input.instructions }),
        reference: id,
      },
      signal,
    ),
  );
  if (!booked.ok) throw carrierRefusal(carrier, booked.error, 'no pickup was scheduled');
  const row: PickupsTable = {
    id,
    owner_key_id: ctx.principal.keyId,
    account_id: ctx.principal.accountId,
    mode,
    status: 'scheduled',
    carrier: carrier.id,
    confirmation_number: booked.value.confirmationNumber,
    ship_from_id: where.id,
    address: JSON.stringify(where.address),
    date: input.date,
    window_start: input.window.start,
    window_end: input.window.end,
    shipment_ids: JSON.stringify(input.shipment_ids ?? []),
    instructions: input.instructions ?? null,
    created_at: now.toISOString(),
    cancelled_at: null,
    carrier_data: booked.value.carrierData ? JSON.stringify(booked.value.carrierData) : null,
  };
  await ctx.db.insertInto('pickups').values(row).execute();
  return toPickup(row);
}

async function ownPickupRow(db: Kysely<DB>, ctx: Context, id: string): Promise<PickupsTable> {
  const row = hasPrefix(id, 'pku')
    ? await db.selectFrom('pickups').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId).executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError('not_found', `No pickup ${id}`);
  return row;
}

export async function getPickup(ctx: Context, id: string): Promise<Pickup> {
  return toPickup(await ownPickupRow(ctx.db, ctx, id));
}

export async function listPickups(ctx: Context, query: ListInput & { status?: PickupStatus; carrier?: CarrierId; date?: string }): Promise<Page<Pickup>> {
  let q = ctx.db.selectFrom('pickups').selectAll().where('owner_key_id', '=', ctx.principal.keyId);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.carrier) q = q.where('carrier', '=', query.carrier);
  if (query.date) q = q.where('date', '=', query.date);
  return fetchPage(q, query, 'pku', toPickup);
}

/** POST /pickups/{id}/cancel: until the window begins, since a driver may be on the way after that. */
export async function cancelPickup(ctx: Context, id: string): Promise<Pickup> {
  const row = await ownPickupRow(ctx.db, ctx, id);
  if (row.status === 'cancelled') throw new ApiError('pickup_already_cancelled', `Pickup ${id} was already cancelled at ${row.cancelled_at}`);
  const address: Address = JSON.parse(row.address);
  const now = ctx.clock.now();
  // The state had a time zone when the pickup was scheduled, so it has one now.
  const local = localClock(address.state, now)!;
  if (row.date < local.date || (row.date === local.date && minutesOf(row.window_start) <= local.minutes)) {
    throw new ApiError('pickup_not_cancellable', `Pickup ${id} was for ${row.date} from ${row.window_start} (local time), which has begun; it is ${local.date} ${timeOf(local.minutes)} there`);
  }
  const carrier = (await carrierAccess(ctx, row.account_id, row.mode)).carriers[row.carrier as CarrierId];
  const cancel = carrier.cancelPickup?.bind(carrier);
  if (!cancel) throw unsupported(carrier, row.mode);
  const outcome = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => cancel({ confirmationNumber: row.confirmation_number, date: row.date, ...(row.carrier_data && { carrierData: JSON.parse(row.carrier_data) }) }, signal));
  if (!outcome.ok) throw carrierRefusal(carrier, outcome.error, 'the pickup is still scheduled');
  const at = now.toISOString();
  const changed = await ctx.db.updateTable('pickups').set({ status: 'cancelled', cancelled_at: at }).where('id', '=', row.id).where('status', '=', 'scheduled').executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) throw new ApiError('pickup_already_cancelled', `Pickup ${id} was cancelled by another request`);
  return toPickup({ ...row, status: 'cancelled', cancelled_at: at });
}
