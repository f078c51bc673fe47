import type { Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { DB, PickupsTable } from '../../db/schema.ts';
import type { Carrier, CarrierFailure, PickupParcels, PickupRequest } from '../../carriers/carrier.ts';
import { carrierName } from '../../carriers/catalog.ts';
import { usFederalHoliday } from '../../carriers/sim/calendar.ts';
import { minimumWindowMinutes, pickupHours } from '../../carriers/sim/pickups.ts';
import type { Address } from '../../schemas/address.ts';
import type { Pickup, PickupCreate, PickupStatus } from '../../schemas/pickup.ts';
import { carrierAccess, type CarrierAccess } from '../carrier-accounts/carrier-access.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { Context } from '../core/context.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { hasPrefix, newId } from '../../kernel/ids.ts';
import { localClock, minutesOf, timeOf, type LocalClock } from '../core/local-time.ts';
import { toLocation } from '../locations/locations.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { failIfAny, field, normalizeOrigin } from '../shipments/shipment-inputs.ts';
import { isUsAddress } from '../addresses/address-rules.ts';
import { recordBoxes, visibleStatuses, type PurchaseRecord, type StoredBox } from '../shipments/shipments.ts';
import { pendingStaleMs } from '../shipments/purchase.ts';
import { weightInLb } from '../orders/parcels.ts';
import { requirePaymentMethod } from '../billing/payment-methods.ts';
import { authorizeCardCharge, cardFor, markRefundDue, openCardCharge, settleCardCharge } from '../billing/card-charges.ts';
import { inTransaction } from '../core/transaction.ts';
import { idempotencyTtlMs } from '../core/idempotency.ts';
import { money } from '../core/money.ts';
import { takeAccountTurn } from '../accounts/account-turn.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

/** How far ahead a pickup may be scheduled: carriers plan routes weeks, not months, out. */
export const maxDaysAhead = 30;

/** The parcels as the carrier was told of them, in pounds to the hundredth. */
function parcelsShown(row: PickupsTable): Pick<Pickup, 'parcel_count' | 'total_weight'> {
  if (row.parcels === null) return { parcel_count: null, total_weight: null };
  const p: PickupParcels = JSON.parse(row.parcels);
  return { parcel_count: p.count, total_weight: { value: Math.round(p.weightLb * 100) / 100, unit: 'lb' } };
}

export function toPickup(row: PickupsTable): Pickup {
  return {
    id: row.id,
    object: 'pickup',
    // Only scheduled and cancelled pickups are shown (shownStatuses).
    status: row.status as PickupStatus,
    carrier: row.carrier as CarrierId,
    confirmation_number: row.confirmation_number,
    ship_from_id: row.ship_from_id,
    address: JSON.parse(row.address),
    date: row.date,
    window: { start: row.window_start, end: row.window_end },
    shipment_ids: JSON.parse(row.shipment_ids),
    instructions: row.instructions,
    ...parcelsShown(row),
    price: row.price_cents === null ? null : money(row.price_cents),
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


/** What the driver collects as the named labels give it: their tracking numbers, and their boxes' count and weight. */
interface Labels {
  trackingNumbers: string[];
  /** The labels' service codes: FedEx sends its Express and Ground drivers apart. */
  services: string[];
  parcels: PickupParcels | null;
}

/** The labels to collect: the key's own purchased labels of the pickup's carrier. Their tracking numbers go to the carrier. */
async function labelsToCollect(ctx: Context, carrier: Carrier, ids: string[], errors: FieldError[]): Promise<Labels> {
  if (ids.length === 0) return { trackingNumbers: [], services: [], parcels: null };
  const rows = await ctx.db
    .selectFrom('shipments')
    .select(['id', 'status', 'carrier', 'service', 'tracking_number', 'packages', 'purchase'])
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('id', 'in', ids)
    .where('status', 'in', visibleStatuses)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const trackingNumbers: string[] = [];
  const services: string[] = [];
  const parcels: PickupParcels = { count: 0, weightLb: 0 };
  ids.forEach((id, i) => {
    const row = byId.get(id);
    const pointer = `/shipment_ids/${i}`;
    if (!row) errors.push(field(pointer, 'is not a shipment of this key (GET /shipments)'));
    else if (row.status !== 'purchased') errors.push(field(pointer, `is ${row.status}; only purchased labels can be picked up`));
    else if (row.carrier !== carrier.id) errors.push(field(pointer, `is a ${carrierName(row.carrier)} label; ${carrier.name} would not take it`));
    else {
      const boxes: StoredBox[] | null = row.packages === null ? null : JSON.parse(row.packages);
      const specs = recordBoxes(JSON.parse(row.purchase) as PurchaseRecord);
      // A box voided on its own stays behind.
      const shipping = specs.filter((_, b) => !boxes?.[b]?.status);
      trackingNumbers.push(...(boxes ? boxes.filter((b) => !b.status).map((b) => b.tracking_number) : [row.tracking_number!]));
      if (!services.includes(row.service)) services.push(row.service);
      parcels.count += shipping.length;
      parcels.weightLb += shipping.reduce((sum, b) => sum + b.weightLb, 0);
    }
  });
  return { trackingNumbers, services, parcels };
}

/**
 * The parcels the carrier is told of: parcel_count and total_weight when given (more parcels than the named labels,
 * say), else the named labels' boxes. A live carrier needs them: every carrier's pickup request asks them.
 */
function parcelsOf(input: PickupCreate, labels: Labels, live: boolean, errors: FieldError[]): PickupParcels | null {
  if ((input.parcel_count === undefined) !== (input.total_weight === undefined)) {
    errors.push(field(input.parcel_count === undefined ? '/parcel_count' : '/total_weight', 'is required with ' + (input.parcel_count === undefined ? 'total_weight' : 'parcel_count')));
    return null;
  }
  if (input.parcel_count !== undefined && input.total_weight !== undefined) {
    if (labels.parcels && input.parcel_count < labels.parcels.count) {
      errors.push(field('/parcel_count', `is less than the ${labels.parcels.count} boxes of the labels named in shipment_ids`));
    }
    return { count: input.parcel_count, weightLb: weightInLb(input.total_weight) };
  }
  if (labels.parcels) return labels.parcels;
  if (live) errors.push(field('/parcel_count', 'is required with a live key when shipment_ids is not given: the carrier asks how many parcels, and their total_weight, it collects'));
  return null;
}

export function carrierRefusal(carrier: Carrier, failure: CarrierFailure, what: string, place?: string): ApiError {
  if (failure.code === 'carrier_timeout') return new ApiError('carrier_timeout', `${failure.detail}; ${what}`);
  if (failure.code === 'pickup_unavailable') return new ApiError('pickup_unavailable', `${carrier.name}: ${failure.detail}; ${what}`, [{ in: 'body', pointer: '/date', detail: failure.detail }]);
  if (failure.code === 'outside_pickup_window') return new ApiError('outside_pickup_window', `${carrier.name}: ${failure.detail}; ${what}`, [{ in: 'body', pointer: '/window', detail: failure.detail }]);
  // A pickup the carrier does not do as asked (FedEx: Ground and Express labels in one pickup) is the request's to change.
  if (failure.code === 'not_serviced') return new ApiError('not_supported_by_carrier', `${carrier.name}: ${failure.detail}; ${what}`);
  if (failure.code === 'address_invalid' && place) return new ApiError('validation_failed', `${carrier.name}: ${failure.detail}; ${what}`, [{ in: 'body', pointer: place, detail: failure.detail }]);
  return new ApiError('carrier_error', `${carrier.name}: ${failure.detail}; ${what}`);
}

/**
 * Carriers that keep one pickup per address and day. UPS's PickupCreationResponse.PRN: "Same PRN will be returned if a
 * pickup request already exists for a pickup address/ point" (Pickup.yaml, UPS-API/api-documentation at
 * e6f36df4da29ac1b448c898a79aac48f653bbb44, 2026-07-21), a pickup request being for a day. A second pickup of ours
 * there would be the same driver charged twice, and cancelling either would cancel UPS's only one. USPS's Carrier
 * Pickup v3 (3.1.8) and FedEx's Pickup Request API (1.0.0) publish no such rule: each booking is its own. Simulated
 * pickups keep it too, so test keys meet what live keys do.
 */
const onePickupPerPlace: ReadonlySet<string> = new Set<CarrierId>(['ups']);

/**
 * The address as UPS is told it (one address line of both street lines, the state, the ZIP Code), in one case and
 * spacing and without punctuation; a ZIP+4 is the same place as its ZIP. UPS may take more addresses for one than
 * this does: the confirmation number it answers is checked as well (completePickup).
 */
export function placeOf(a: Address): string {
  const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return [(a.country ?? 'US').toUpperCase(), a.state.toUpperCase(), a.zip.slice(0, 5), words([a.street1, a.street2].filter(Boolean).join(' '))].join('|');
}

/** The account's pickup with the carrier, being booked or booked, that already holds the place on the day. */
function pickupAtPlace(db: Kysely<DB>, row: PickupsTable): Promise<PickupsTable | undefined> {
  return db
    .selectFrom('pickups')
    .selectAll()
    .where('account_id', '=', row.account_id)
    .where('mode', '=', row.mode)
    .where('carrier', '=', row.carrier)
    .where('date', '=', row.date)
    .where('place', '=', row.place)
    .where('status', 'in', ['pending', 'scheduled'])
    .executeTakeFirst();
}

/**
 * Another booked pickup of ours holding the confirmation the carrier just answered: one driver. Pickups booked before
 * places were kept are looked at too, and those of other accounts booked through the same carrier account.
 */
function pickupWithConfirmation(db: Kysely<DB>, row: PickupsTable, confirmationNumber: string): Promise<PickupsTable | undefined> {
  return db
    .selectFrom('pickups')
    .selectAll()
    .where('mode', '=', row.mode)
    .where('carrier', '=', row.carrier)
    .where('confirmation_number', '=', confirmationNumber)
    .where('status', '=', 'scheduled')
    .where('id', '<>', row.id)
    .executeTakeFirst();
}

const placePointer = (row: PickupsTable): string => (row.ship_from_id ? '/ship_from_id' : '/address');

/** 409 naming the pickup in the way, where it is the account's: the client may use it, or cancel it and book again. */
function alreadyScheduled(ctx: Context, holder: PickupsTable, pointer: string): ApiError {
  const name = carrierName(holder.carrier);
  const rule = `${name} keeps one pickup per address and day, and answers a second booking there with the first one's confirmation: the same driver`;
  if (holder.account_id !== ctx.principal.accountId) {
    return new ApiError('pickup_already_scheduled', `${name} already has a pickup at this address on ${holder.date}, booked through another account: ${rule}. Nothing was booked or charged`, [
      { in: 'body', pointer, detail: `already has a ${name} pickup on ${holder.date}, booked through another account` },
    ]);
  }
  const ours = holder.owner_key_id === ctx.principal.keyId;
  const whose = ours ? `Pickup ${holder.id}` : `Pickup ${holder.id}, of another API key of this account,`;
  const state = holder.status === 'pending' ? 'is still being booked' : `is booked (confirmation ${holder.confirmation_number})`;
  const next =
    holder.status === 'pending'
      ? 'its own request, retried with its Idempotency-Key, gets its outcome'
      : ours
        ? `use it, or cancel it (POST /pickups/${holder.id}/cancel) and schedule again`
        : 'use it, or cancel it with the key that booked it and schedule again';
  return new ApiError('pickup_already_scheduled', `${whose} ${state} with ${name} at this address on ${holder.date}: ${rule}. Nothing was booked or charged; ${next}`, [
    { in: 'body', pointer, detail: `already has ${name} pickup ${holder.id} on ${holder.date}` },
  ]);
}

function unsupported(carrier: Carrier, mode: string): ApiError {
  return new ApiError('not_supported_by_carrier', `${carrier.name} pickups cannot be scheduled or cancelled through shipd with ${mode} keys; arrange them with ${carrier.name} directly`);
}

/** What schedulePickup asks the carrier, from the recorded pickup alone: a retry asks exactly the same. */
function pickupRequest(row: PickupsTable): PickupRequest {
  const parcels: PickupParcels = row.parcels ? JSON.parse(row.parcels) : { count: 0, weightLb: 0 };
  return {
    address: JSON.parse(row.address),
    date: row.date,
    window: { start: row.window_start, end: row.window_end },
    trackingNumbers: JSON.parse(row.tracking_numbers ?? '[]'),
    parcels,
    ...(row.services && { services: JSON.parse(row.services) }),
    ...(row.instructions && { instructions: row.instructions }),
    reference: row.id,
  };
}

/** A pickup's card charge as the billing module settles a label's: booked is `purchased`, anything else lets it go. */
function chargeView(row: PickupsTable, status: 'purchased' | 'voided' | 'failed') {
  return { id: row.id, account_id: row.account_id, status, postage_cents: row.price_cents, quoted_cents: row.price_cents ?? 0, return_charge: null, packages: null };
}

const cardBilled = (row: PickupsTable): boolean => row.payment === 'platform' && row.mode === 'live' && (row.price_cents ?? 0) > 0;

/** After a request's own step, best effort: what Stripe does not answer now is the reconcile job's to finish. */
async function settleCharge(ctx: Context, row: PickupsTable, status: 'purchased' | 'voided' | 'failed'): Promise<void> {
  if (!cardBilled(row)) return;
  try {
    await settleCardCharge(ctx, chargeView(row, status));
  } catch (err) {
    await ctx.db.updateTable('card_charges').set({ last_error: err instanceof Error ? err.message : String(err) }).where('shipment_id', '=', row.id).execute();
  }
}

/** The pickup this Idempotency-Key started, if any; one started for another request is refused. */
async function pickupByKey(ctx: Context, key: string, input: PickupCreate): Promise<PickupsTable | undefined> {
  const row = await ctx.db
    .selectFrom('pickups')
    .selectAll()
    .where('owner_key_id', '=', ctx.principal.keyId)
    .where('idempotency_key', '=', key)
    // A refused booking booked nothing: the same key may try again.
    .where('status', '<>', 'failed')
    .where('created_at', '>', new Date(ctx.clock.now().getTime() - idempotencyTtlMs).toISOString())
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row) return undefined;
  const same = row.carrier === input.carrier && row.date === input.date && row.window_start === input.window.start && row.window_end === input.window.end && row.shipment_ids === JSON.stringify(input.shipment_ids ?? []);
  if (!same) throw new ApiError('idempotency_key_reused', `This Idempotency-Key already started the pickup ${row.id} with a different request; use a new key for a new request`);
  return row;
}

/** A retry of a booking whose first request never answered: the pickup if it was booked, else finish booking it. */
async function resumePickup(ctx: Context, row: PickupsTable): Promise<Pickup> {
  if (row.status === 'abandoned') throw new ApiError('carrier_error', `The pickup ${row.id} failed: ${row.last_error}`);
  if (row.status !== 'pending') return toPickup(row);
  if (Date.parse(row.updated_at ?? row.created_at) > ctx.clock.now().getTime() - pendingStaleMs(ctx)) {
    throw new ApiError('idempotency_key_in_use', `The pickup ${row.id} with this Idempotency-Key is still being booked; retry in a few seconds for its answer`);
  }
  return finishPendingPickup(ctx, row);
}

/**
 * POST /pickups: checks everything first; a priced pickup is quoted and its payment settled before anything is
 * booked; the pickup is recorded `pending` (its id the reference the carrier is sent), then booked, then recorded
 * as the carrier confirmed it and charged, so that a crash at any point leaves nothing, or a pending pickup that the
 * reconcile job or a retry with the same Idempotency-Key finds at the carrier by its reference rather than books again.
 */
export async function schedulePickup(ctx: Context, input: PickupCreate): Promise<Pickup> {
  const earlier = ctx.idempotencyKey ? await pickupByKey(ctx, ctx.idempotencyKey, input) : undefined;
  if (earlier) return resumePickup(ctx, earlier);

  const { mode } = ctx.principal;
  const access = await carrierAccess(ctx, ctx.principal.accountId, mode);
  const carrier = access.carriers[input.carrier];
  const schedule = carrier.schedulePickup?.bind(carrier);
  if (!schedule) throw unsupported(carrier, mode);

  const errors: FieldError[] = [];
  const place = await pickupPlace(ctx, input, errors);
  const labels = await labelsToCollect(ctx, carrier, input.shipment_ids ?? [], errors);
  const parcels = parcelsOf(input, labels, mode === 'live', errors);
  errors.push(...whenErrors(input, place?.clock));
  failIfAny(errors);
  // pickupPlace records an error whenever it finds no place, so past failIfAny there is one.
  const where = place!;

  const now = ctx.clock.now();
  const at = now.toISOString();
  const id = newId('pku', now.getTime());
  const row: PickupsTable = {
    id,
    owner_key_id: ctx.principal.keyId,
    account_id: ctx.principal.accountId,
    mode,
    status: 'pending',
    carrier: carrier.id,
    confirmation_number: '',
    ship_from_id: where.id,
    address: JSON.stringify(where.address),
    date: input.date,
    window_start: input.window.start,
    window_end: input.window.end,
    shipment_ids: JSON.stringify(input.shipment_ids ?? []),
    tracking_numbers: JSON.stringify(labels.trackingNumbers),
    services: labels.services.length > 0 ? JSON.stringify(labels.services) : null,
    place: onePickupPerPlace.has(carrier.id) ? placeOf(where.address) : null,
    carrier_data: null,
    instructions: input.instructions ?? null,
    created_at: at,
    cancelled_at: null,
    parcels: parcels ? JSON.stringify(parcels) : null,
    price_cents: null,
    payment: null,
    payment_method: null,
    idempotency_key: ctx.idempotencyKey ?? null,
    last_error: null,
    updated_at: at,
  };
  // Before the carrier is asked anything, a price included.
  const holder = row.place === null ? undefined : await pickupAtPlace(ctx.db, row);
  if (holder) throw alreadyScheduled(ctx, holder, placePointer(row));
  const priced = await quote(ctx, carrier, access, row);
  const booking = { ...row, ...priced };
  const card = cardBilled(booking) ? await cardFor(ctx.db, booking.account_id, booking.payment_method!) : null;
  await inTransaction(ctx.db, async (trx) => {
    if (booking.place !== null) {
      // In the account's turn, so that two bookings of one place at once answer 201 and 409 rather than meeting at
      // the unique index.
      await takeAccountTurn(trx, booking.account_id);
      const first = await pickupAtPlace(trx, booking);
      if (first) throw alreadyScheduled(ctx, first, placePointer(booking));
    }
    await trx.insertInto('pickups').values(booking).execute();
    if (card) await openCardCharge(trx, { id, account_id: booking.account_id, quoted_cents: booking.price_cents!, created_at: at }, card);
  });
  await holdPrice(ctx, booking);
  return bookAndComplete(ctx, carrier, booking);
}

/**
 * What the pickup costs and who pays it. Where the carrier prices pickups, platform billing needs a payment method
 * before the carrier is asked anything (402), as postage does; a carrier account of the account's own is billed by
 * the carrier itself. The price is the carrier's quote; null where it charges nothing.
 */
async function quote(ctx: Context, carrier: Carrier, access: CarrierAccess, row: PickupsTable): Promise<Pick<PickupsTable, 'price_cents' | 'payment' | 'payment_method'>> {
  const price = carrier.quotePickup?.bind(carrier);
  if (!price) return { price_cents: null, payment: null, payment_method: null };
  const own = access.own.has(carrier.id);
  const paymentMethod = own ? null : await requirePaymentMethod(ctx, ctx.principal.accountId, ctx.principal.mode);
  const quoted = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => price(pickupRequest(row), signal));
  if (!quoted.ok) throw carrierRefusal(carrier, quoted.error, 'no pickup was scheduled', row.ship_from_id ? '/ship_from_id' : '/address');
  return { price_cents: quoted.value?.amountCents ?? null, payment: own ? 'carrier_account' : 'platform', payment_method: paymentMethod };
}

/** A live card is held for the quoted price before the carrier books anything: a card that will not pay books nothing. */
async function holdPrice(ctx: Context, row: PickupsTable): Promise<void> {
  if (!cardBilled(row)) return;
  const problem = await authorizeCardCharge(ctx, row);
  if (!problem) return;
  await failPickup(ctx, row, problem.detail);
  throw problem;
}

async function failPickup(ctx: Context, row: PickupsTable, detail: string, status: 'failed' | 'abandoned' = 'failed'): Promise<void> {
  await ctx.db.updateTable('pickups').set({ status, last_error: detail, updated_at: ctx.clock.now().toISOString() }).where('id', '=', row.id).where('status', '=', 'pending').execute();
  await settleCharge(ctx, row, 'failed');
}

async function bookAndComplete(ctx: Context, carrier: Carrier, row: PickupsTable): Promise<Pickup> {
  const schedule = carrier.schedulePickup!.bind(carrier);
  const booked = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => schedule(pickupRequest(row), signal));
  if (!booked.ok) {
    if (booked.error.code === 'carrier_timeout') {
      // The carrier may have booked it without our hearing of it: the reconcile job looks for it by its reference.
      throw new ApiError('carrier_timeout', `${booked.error.detail}. The pickup ${row.id} will be found at ${carrier.name} or booked shortly; retry with the same Idempotency-Key for the outcome`);
    }
    await failPickup(ctx, row, booked.error.detail);
    throw carrierRefusal(carrier, booked.error, 'no pickup was scheduled', row.ship_from_id ? '/ship_from_id' : '/address/phone');
  }
  return completePickup(ctx, row, booked.value.confirmationNumber, booked.value.carrierData);
}

/**
 * Where the carrier answered the confirmation of a pickup of ours already booked (an address it takes for the same
 * that shipd did not, a pickup booked before places were kept, another account's through the same carrier
 * account), this booking is that driver: it is not recorded as a second pickup nor charged, and its card hold is let go.
 */
async function refuseSharedBooking(ctx: Context, row: PickupsTable, holder: PickupsTable): Promise<never> {
  const name = carrierName(row.carrier);
  await failPickup(ctx, row, `${name} answered the confirmation ${holder.confirmation_number} of pickup ${holder.id}, already booked at this address on ${holder.date}: ${name} keeps one pickup per address and day`);
  throw alreadyScheduled(ctx, holder, placePointer(row));
}

/** Records the carrier's confirmation and the charge, all or nothing; the card's hold is captured after. */
async function completePickup(ctx: Context, row: PickupsTable, confirmationNumber: string, carrierData?: Record<string, string>): Promise<Pickup> {
  const samePlace = onePickupPerPlace.has(row.carrier);
  const holder = samePlace ? await pickupWithConfirmation(ctx.db, row, confirmationNumber) : undefined;
  if (holder) return refuseSharedBooking(ctx, row, holder);
  const at = ctx.clock.now().toISOString();
  const booked = { status: 'scheduled' as const, confirmation_number: confirmationNumber, carrier_data: carrierData ? JSON.stringify(carrierData) : null, updated_at: at };
  const done: PickupsTable = { ...row, ...booked };
  const pickup = await recordBooking(ctx, row, booked, done).catch(async (err: unknown) => {
    // Another booking recorded the same confirmation since the look above, and the unique index refused this one.
    const first = samePlace && isUniqueViolation(err) ? await pickupWithConfirmation(ctx.db, row, confirmationNumber) : undefined;
    if (!first) throw err;
    return refuseSharedBooking(ctx, row, first);
  });
  await settleCharge(ctx, done, 'purchased');
  return pickup;
}

async function recordBooking(ctx: Context, row: PickupsTable, booked: Pick<PickupsTable, 'status' | 'confirmation_number' | 'carrier_data' | 'updated_at'>, done: PickupsTable): Promise<Pickup> {
  const at = booked.updated_at!;
  return inTransaction(ctx.db, async (trx) => {
    const updated = await trx.updateTable('pickups').set(booked).where('id', '=', row.id).where('status', '=', 'pending').executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      // A retry or the reconcile job finished it first; theirs is the answer.
      const now = await trx.selectFrom('pickups').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      if (now.status === 'failed' || now.status === 'abandoned') throw new ApiError('carrier_error', `The pickup ${row.id} failed: ${now.last_error}`);
      return toPickup(now);
    }
    if (row.payment === 'platform' && (row.price_cents ?? 0) > 0) {
      await trx
        .insertInto('pickup_ledger')
        .values({
          id: newId('led', Date.parse(at)),
          account_id: row.account_id,
          mode: row.mode,
          owner_key_id: row.owner_key_id,
          pickup_id: row.id,
          kind: 'charge',
          amount_cents: row.price_cents!,
          payment_method: row.payment_method!,
          created_at: at,
        })
        .onConflict((oc) => oc.columns(['pickup_id', 'kind']).doNothing())
        .execute();
    }
    const pickup = toPickup(done);
    await ctx.answer?.(trx, pickup);
    return pickup;
  });
}

/**
 * Finishes a booking a crash or a time-out left pending. The carrier is first asked for a pickup booked with its
 * reference (the pickup's id): found, it is recorded; where the carrier finds none, it is booked again with the same
 * reference. A carrier that cannot find a pickup by reference is never asked again, as that could send a second
 * driver: the pickup is marked failed, saying where to look.
 */
export async function finishPendingPickup(ctx: Context, row: PickupsTable): Promise<Pickup> {
  const carrier = (await carrierAccess(ctx, row.account_id, row.mode)).carriers[row.carrier as CarrierId];
  const find = carrier.findPickup?.bind(carrier);
  if (!find || !carrier.schedulePickup) {
    const detail = `${carrier.name} did not answer the booking, and its API cannot find a pickup by shipd's reference, so asking again could send a second driver. Look in the ${carrier.name} account's pickups for one booked at ${row.created_at} for ${row.date}, and cancel it there if it is not wanted`;
    await failPickup(ctx, row, detail, 'abandoned');
    throw new ApiError('carrier_error', `The pickup ${row.id} failed: ${detail}`);
  }
  const request = pickupRequest(row);
  const found = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => find({ reference: row.id, date: row.date, address: request.address }, signal));
  if (!found.ok) throw carrierRefusal(carrier, found.error, `the pickup ${row.id} is still being booked; retry shortly`);
  if (found.value) return completePickup(ctx, row, found.value.confirmationNumber);
  await holdPrice(ctx, row);
  return bookAndComplete(ctx, carrier, row);
}

/** The reconcile job: every booking left pending past its time, found, booked or marked failed; and their card charges settled. */
export async function reconcilePendingPickups(ctx: Omit<Context, 'principal'>, log: { info(o: object, m: string): void; error(o: object, m: string): void }): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - pendingStaleMs(ctx)).toISOString();
  const rows = await ctx.db.selectFrom('pickups').selectAll().where('status', '=', 'pending').where('updated_at', '<=', before).orderBy('updated_at').limit(100).execute();
  for (const row of rows) {
    const owner = { ...ctx, principal: { keyId: row.owner_key_id, accountId: row.account_id, mode: row.mode } } as Context;
    try {
      const pickup = await finishPendingPickup(owner, row);
      log.info({ pickup: pickup.id, confirmation: pickup.confirmation_number }, 'finished a pickup left pending');
    } catch (err) {
      log.error({ pickup: row.id, err }, 'could not finish a pickup left pending');
    }
  }
  // Card charges a lost Stripe answer left unsettled once their pickup is over (the settle job follows labels' only).
  const charges = await ctx.db
    .selectFrom('card_charges')
    .innerJoin('pickups', 'pickups.id', 'card_charges.shipment_id')
    .selectAll('pickups')
    .where('card_charges.status', 'in', ['authorizing', 'authorized', 'refund_due'])
    .where('card_charges.updated_at', '<=', before)
    .where('pickups.status', '<>', 'pending')
    .limit(100)
    .execute();
  for (const row of charges) {
    const status = row.status === 'scheduled' ? 'purchased' : row.status === 'cancelled' ? 'voided' : 'failed';
    await settleCharge({ ...ctx, principal: { keyId: row.owner_key_id, accountId: row.account_id, mode: row.mode } } as Context, row, status);
  }
  return rows.length + charges.length;
}

/** The pickups a client sees: booked ones. A booking still in flight, failed or abandoned is the worker's and the log's. */
export const shownStatuses = ['scheduled', 'cancelled'] as const;

async function ownPickupRow(db: Kysely<DB>, ctx: Context, id: string): Promise<PickupsTable> {
  const row = hasPrefix(id, 'pku')
    ? await db.selectFrom('pickups').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId).where('status', 'in', shownStatuses).executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError('not_found', `No pickup ${id}`);
  return row;
}

export async function getPickup(ctx: Context, id: string): Promise<Pickup> {
  return toPickup(await ownPickupRow(ctx.db, ctx, id));
}

export async function listPickups(ctx: Context, query: ListInput & { status?: PickupStatus; carrier?: CarrierId; date?: string }): Promise<Page<Pickup>> {
  let q = ctx.db.selectFrom('pickups').selectAll().where('owner_key_id', '=', ctx.principal.keyId).where('status', 'in', shownStatuses);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.carrier) q = q.where('carrier', '=', query.carrier);
  if (query.date) q = q.where('date', '=', query.date);
  return fetchPage(q, query, 'pku', toPickup);
}

/**
 * POST /pickups/{id}/cancel: until the window begins, since a driver may be on the way after that. A priced pickup's
 * charge is given back once the carrier has cancelled it: UPS's cancel answer says nothing of its charge, and a
 * pickup cancelled before its window never sent a driver.
 */
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
  const cancelled: PickupsTable = { ...row, status: 'cancelled', cancelled_at: at, updated_at: at };
  await inTransaction(ctx.db, async (trx) => {
    const changed = await trx.updateTable('pickups').set({ status: 'cancelled', cancelled_at: at, updated_at: at }).where('id', '=', row.id).where('status', '=', 'scheduled').executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw new ApiError('pickup_already_cancelled', `Pickup ${id} was cancelled by another request`);
    const charge = await trx.selectFrom('pickup_ledger').selectAll().where('pickup_id', '=', row.id).where('kind', '=', 'charge').executeTakeFirst();
    if (charge) {
      await trx
        .insertInto('pickup_ledger')
        .values({ ...charge, id: newId('led', now.getTime()), kind: 'refund', amount_cents: -charge.amount_cents, created_at: at })
        .onConflict((oc) => oc.columns(['pickup_id', 'kind']).doNothing())
        .execute();
    }
    await markRefundDue(trx, row.id, at);
  });
  await settleCharge(ctx, cancelled, 'voided');
  return toPickup(cancelled);
}
