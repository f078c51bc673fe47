import type { Kysely } from 'kysely';
import type { DB, OrdersTable } from '../../db/schema.ts';
import type { LineItem, Order, OrderCreate, OrderStatus, OrderUpdate, Parcel } from '../../schemas/order.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import type { Customs, CustomsInput } from '../../schemas/customs.ts';
import type { Context } from '../core/context.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { checkService, field, packageIdFor, resolveBoxes, resolvePackage, resolveShipFrom } from '../shipments/shipment-inputs.ts';
import { normalizedAddress } from '../addresses/address-rules.ts';
import { buildDeclaration } from '../customs/declaration.ts';
import { declarationErrors } from '../customs/checks.ts';
import { failIfAnyWithCustoms } from '../customs/crossing.ts';
import { recordEvent } from '../webhooks/events.ts';
import { hasPrefix, newId } from '../../kernel/ids.ts';
import { fetchPage, type ListInput, type Page } from '../core/pagination.ts';
import { boxesGiven } from './parcels.ts';
import { inTransaction } from '../core/transaction.ts';

export function toOrder(row: OrdersTable): Order {
  return {
    id: row.id,
    object: 'order',
    status: row.status,
    order_number: row.order_number,
    ship_to: JSON.parse(row.ship_to),
    ship_from: JSON.parse(row.ship_from),
    ship_from_id: row.ship_from_id,
    items: JSON.parse(row.items),
    parcel: row.parcel === null ? null : JSON.parse(row.parcel),
    parcels: orderParcels(row),
    package_id: row.package_id,
    requested_service: row.requested_service === null ? null : JSON.parse(row.requested_service),
    customs: row.customs === null ? null : JSON.parse(row.customs),
    notes: row.notes,
    metadata: JSON.parse(row.metadata),
    shipment_id: row.shipment_id,
    mode: row.mode,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Every box of the order, its first (`parcel`) first; none before a box is given. */
export function orderParcels(row: Pick<OrdersTable, 'parcel' | 'parcels'>): Parcel[] {
  if (row.parcels !== null) return JSON.parse(row.parcels);
  return row.parcel === null ? [] : [JSON.parse(row.parcel)];
}

/**
 * The columns several boxes are kept in: each box with the package it resolved to (so a later change of the
 * account's default box never changes what the order ships in), the first also as `parcel`.
 */
async function severalBoxes(trx: Kysely<DB>, ctx: Context, boxes: Parcel[], packageId: string | null | undefined, errors: FieldError[]): Promise<Pick<OrdersTable, 'parcel' | 'parcels'>> {
  const resolved = await resolveBoxes(trx, ctx, boxes, packageId, errors, (i) => `/parcels/${i}`);
  const kept = resolved.map((b) => ({ ...b.parcel, ...(b.pkg && { package_id: b.pkg.preset.id }) }));
  return { parcel: JSON.stringify(kept[0]), parcels: JSON.stringify(kept) };
}

/**
 * The declaration an order keeps: the one sent, built from the order's line items, or else the one it has; each
 * checked against the order's parcel and destination as they will be. The parcel is blamed for a weight fault when it
 * is what changed.
 */
function orderDeclaration(
  sent: CustomsInput | null | undefined,
  kept: Customs | null,
  order: { items: LineItem[]; parcel: Parcel | null; parcels?: Parcel[] | null; shipTo: AnyAddress },
  errors: FieldError[],
): Customs | null {
  const customs = sent === undefined ? kept : sent === null ? null : (buildDeclaration(sent, order.items, '/customs', errors) ?? null);
  if (customs) {
    const weightPointer = sent === undefined ? '/parcel/weight/value' : undefined;
    errors.push(...declarationErrors(customs, { to: order.shipTo, parcel: order.parcel, parcels: order.parcels ?? null, weightPointer }, '/customs'));
  }
  return customs;
}

export async function createOrder(ctx: Context, input: OrderCreate): Promise<Order> {
  return inTransaction(ctx.db, async (trx) => {
    const errors: FieldError[] = [];
    const shipTo = normalizedAddress(input.ship_to, '/ship_to', errors);
    const shipFrom = await resolveShipFrom(trx, ctx, input, errors);
    const boxes = boxesGiven(input, errors);
    const one = boxes?.length === 1 ? boxes[0] : undefined;
    const packageId = boxes && !one ? input.package_id : await packageIdFor(trx, ctx, input.package_id, one);
    const kept: Pick<OrdersTable, 'parcel' | 'parcels'> = boxes && !one ? await severalBoxes(trx, ctx, boxes, packageId, errors) : { parcel: one ? JSON.stringify(one) : null, parcels: null };
    if (one && (packageId || one.package_id)) await resolveBoxes(trx, ctx, [one], packageId, errors, () => (input.parcels ? '/parcels/0' : '/parcel'));
    if (input.requested_service) checkService(input.requested_service, shipTo, '/requested_service', errors);
    const customs = orderDeclaration(input.customs, null, { items: input.items ?? [], parcel: boxes?.[0] ?? null, parcels: boxes ?? null, shipTo }, errors);
    failIfAnyWithCustoms(errors, '/customs');
    const now = ctx.clock.now();
    const at = now.toISOString();
    const row: OrdersTable = {
      id: newId('ord', now.getTime()),
      owner_key_id: ctx.principal.keyId,
      account_id: ctx.principal.accountId,
      mode: ctx.principal.mode,
      status: 'incomplete',
      order_number: input.order_number ?? null,
      ship_to: JSON.stringify(shipTo),
      ship_from: JSON.stringify(shipFrom.address),
      ship_from_id: shipFrom.id,
      items: JSON.stringify(input.items ?? []),
      ...kept,
      package_id: packageId ?? null,
      requested_service: input.requested_service ? JSON.stringify(input.requested_service) : null,
      customs: customs ? JSON.stringify(customs) : null,
      notes: input.notes ?? null,
      metadata: JSON.stringify(input.metadata ?? {}),
      shipment_id: null,
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('orders').values(row).execute();
    const order = toOrder(row);
    await recordEvent(trx, ctx, 'order.created', order, at);
    return order;
  });
}

/** The caller's order (404 for anyone else's), read for change: locked on PostgreSQL; SQLite's one writer already serializes. */
export async function ownOrderRow(db: Kysely<DB>, ctx: Context, id: string, forUpdate: boolean): Promise<OrdersTable> {
  let q = db.selectFrom('orders').selectAll().where('id', '=', id).where('owner_key_id', '=', ctx.principal.keyId);
  if (forUpdate && ctx.dbKind === 'postgres') q = q.forUpdate();
  const row = hasPrefix(id, 'ord') ? await q.executeTakeFirst() : undefined;
  if (!row) throw new ApiError('not_found', `No order ${id}`);
  return row;
}

/** An order whose label is being bought stays as the purchase saw it until the purchase ends. */
async function refuseWhilePurchasing(trx: Kysely<DB>, row: OrdersTable, what: 'changed' | 'cancelled'): Promise<void> {
  const pending = await trx.selectFrom('shipments').select('id').where('order_id', '=', row.id).where('status', '=', 'pending').where('is_return', '=', 0).executeTakeFirst();
  if (pending) {
    throw new ApiError(what === 'changed' ? 'order_not_editable' : 'order_not_cancellable', `A label for order ${row.id} is being bought (${pending.id}); it cannot be ${what} until that ends`);
  }
}

export async function getOrder(ctx: Context, id: string): Promise<Order> {
  return toOrder(await ownOrderRow(ctx.db, ctx, id, false));
}

export async function listOrders(ctx: Context, query: ListInput & { status?: OrderStatus; order_number?: string }): Promise<Page<Order>> {
  let q = ctx.db.selectFrom('orders').selectAll().where('owner_key_id', '=', ctx.principal.keyId);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.order_number) q = q.where('order_number', '=', query.order_number);
  return fetchPage(q, query, 'ord', toOrder);
}

export async function updateOrder(ctx: Context, id: string, patch: OrderUpdate): Promise<Order> {
  return inTransaction(ctx.db, async (trx) => {
    const row = await ownOrderRow(trx, ctx, id, true);
    if (row.status !== 'incomplete') throw new ApiError('order_not_editable', `Order ${id} is ${row.status}; only incomplete orders can be changed`);
    await refuseWhilePurchasing(trx, row, 'changed');
    const errors: FieldError[] = [];
    const next: Partial<OrdersTable> = {};
    if (patch.order_number !== undefined) next.order_number = patch.order_number;
    if (patch.ship_to) next.ship_to = JSON.stringify(normalizedAddress(patch.ship_to, '/ship_to', errors));
    if (patch.ship_from || patch.ship_from_id) {
      const shipFrom = await resolveShipFrom(trx, ctx, patch, errors);
      next.ship_from = JSON.stringify(shipFrom.address);
      next.ship_from_id = shipFrom.id;
    }
    if (patch.items) next.items = JSON.stringify(patch.items);
    const boxesChanged = patch.parcel !== undefined || patch.parcels !== undefined;
    const boxes = boxesChanged ? (boxesGiven(patch, errors) ?? null) : undefined;
    const one = boxes?.length === 1 ? boxes[0] : undefined;
    if (patch.package_id !== undefined) next.package_id = patch.package_id;
    else if (one && row.package_id === null) {
      // Only a patch that sets the parcel picks up the default box: an order's box never changes behind its back.
      const fallback = await packageIdFor(trx, ctx, undefined, one);
      if (fallback) next.package_id = fallback;
    }
    const packageId = next.package_id !== undefined ? next.package_id : row.package_id;
    if (boxes && !one) Object.assign(next, await severalBoxes(trx, ctx, boxes, packageId, errors));
    else if (boxesChanged) Object.assign(next, { parcel: one ? JSON.stringify(one) : null, parcels: null });
    const oneAfter = next.parcels !== undefined ? next.parcels === null : row.parcels === null;
    if (oneAfter && (patch.package_id || one)) {
      const parcel = next.parcel !== undefined ? (next.parcel === null ? null : JSON.parse(next.parcel)) : row.parcel === null ? null : JSON.parse(row.parcel);
      if (parcel) await resolveBoxes(trx, ctx, [parcel], packageId, errors, () => (patch.parcels ? '/parcels/0' : '/parcel'));
      else if (packageId) await resolvePackage(trx, ctx, packageId, null, errors);
    }
    if (patch.requested_service !== undefined) {
      if (patch.requested_service) checkService(patch.requested_service, JSON.parse(next.ship_to ?? row.ship_to), '/requested_service', errors);
      next.requested_service = patch.requested_service === null ? null : JSON.stringify(patch.requested_service);
    }
    if (patch.notes !== undefined) next.notes = patch.notes;
    if (patch.metadata) {
      const metadata: Record<string, string> = JSON.parse(row.metadata);
      for (const [k, v] of Object.entries(patch.metadata)) {
        if (v === null) delete metadata[k];
        else metadata[k] = v;
      }
      if (Object.keys(metadata).length > 20) errors.push(field('/metadata', 'would hold more than 20 keys'));
      next.metadata = JSON.stringify(metadata);
    }
    const after = { ...row, ...next };
    const customs = orderDeclaration(
      patch.customs,
      row.customs === null ? null : JSON.parse(row.customs),
      { items: JSON.parse(after.items), parcel: after.parcel === null ? null : JSON.parse(after.parcel), parcels: after.parcels === null ? null : JSON.parse(after.parcels), shipTo: JSON.parse(after.ship_to) },
      errors,
    );
    if (patch.customs !== undefined) next.customs = customs ? JSON.stringify(customs) : null;
    failIfAnyWithCustoms(errors, '/customs');
    const at = ctx.clock.now().toISOString();
    const updated: OrdersTable = { ...row, ...next, updated_at: at };
    await trx.updateTable('orders').set({ ...next, updated_at: at }).where('id', '=', id).execute();
    const order = toOrder(updated);
    await recordEvent(trx, ctx, 'order.updated', order, at);
    return order;
  });
}

export async function cancelOrder(ctx: Context, id: string): Promise<Order> {
  return inTransaction(ctx.db, async (trx) => {
    const row = await ownOrderRow(trx, ctx, id, true);
    if (row.status !== 'incomplete') throw new ApiError('order_not_cancellable', `Order ${id} is ${row.status}; only incomplete orders can be cancelled`);
    await refuseWhilePurchasing(trx, row, 'cancelled');
    const at = ctx.clock.now().toISOString();
    await trx.updateTable('orders').set({ status: 'cancelled', updated_at: at }).where('id', '=', id).execute();
    const order = toOrder({ ...row, status: 'cancelled', updated_at: at });
    await recordEvent(trx, ctx, 'order.updated', order, at);
    return order;
  });
}
