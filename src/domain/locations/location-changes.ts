import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import type { LocationCreate, LocationUpdate } from '../../schemas/location.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import { checkAddress } from '../addresses/address-check.ts';
import { isUsAddress, usOriginErrors } from '../addresses/address-rules.ts';
import type { Context } from '../core/context.ts';
import { inTransaction } from '../core/transaction.ts';
import { takeAccountTurn } from '../accounts/account-turn.ts';
import { field, failIfAny } from '../shipments/shipment-inputs.ts';
import { addLocation, getLocation, setDefaultLocation, toLocation, updateLocation, type Location } from './locations.ts';

/** Which field of the address each finding of the address check is about. */
const findingField: Record<string, string> = {
  zip_not_found: 'zip',
  zip_city_mismatch: 'zip',
  zip_state_mismatch: 'zip',
  zip_required: 'zip',
  zip_format: 'zip',
  unknown_state: 'state',
  state_required: 'state',
  missing_house_number: 'street1',
  missing_street: 'street1',
  undeliverable: 'street1',
};

/**
 * The address checked as POST /addresses/validate checks it (with a carrier's street-level answer for live keys):
 * a place parcels cannot be picked up from is refused at the field at fault, and a good one is kept as normalized.
 */
async function checkedAddress(ctx: Context, address: AnyAddress): Promise<Address> {
  const errors: FieldError[] = usOriginErrors(address, '/address');
  failIfAny(errors);
  const checked = await checkAddress(ctx, address);
  if (!checked.valid) {
    const problems = checked.messages.filter((m) => m.code !== 'street_not_checked');
    for (const m of problems.length > 0 ? problems : checked.messages) errors.push(field(`/address/${findingField[m.code] ?? 'street1'}`, m.detail));
    failIfAny(errors);
  }
  // The check keeps the country's form; a US origin stays one (usOriginErrors passed).
  if (!isUsAddress(checked.address)) throw new ApiError('validation_failed', 'The address is not in the United States', [field('/address/country', 'must be US')]);
  return { ...address, ...checked.address, country: 'US' };
}

async function ownLocation(db: Kysely<DB>, accountId: string, id: string): Promise<Location> {
  const row = hasPrefix(id, 'loc') ? await db.selectFrom('locations').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst() : undefined;
  if (!row) throw new ApiError('not_found', `No ship-from location ${id}`);
  return toLocation(row);
}

export async function getShipFrom(ctx: Context, id: string): Promise<Location> {
  return ownLocation(ctx.db, ctx.principal.accountId, id);
}

/** POST /ship-from: the account's first location, or one sent with is_default, becomes the default. */
export async function createShipFrom(ctx: Context, input: LocationCreate): Promise<Location> {
  // Checked before any transaction opens: a live check asks a carrier, and no write may wait on that.
  const address = await checkedAddress(ctx, input.address);
  return inTransaction(ctx.db, async (trx) => {
    const location = await addLocation(trx, ctx.clock, ctx.principal.accountId, { name: input.name, address, isDefault: input.is_default === true });
    await ctx.answer?.(trx, location);
    return location;
  });
}

function keepsDefault(patch: LocationUpdate, current: Location): void {
  if (patch.is_default === false && current.is_default) {
    throw new ApiError('validation_failed', 'The default location stays the default until another is made the default', [
      field('/is_default', 'cannot be false on the default location: send is_default true on another location instead'),
    ]);
  }
}

/**
 * PATCH /ship-from/{id}: orders already made keep the address they were made with. The location is read again in
 * the account's turn, so a concurrent delete or change of default answers as if it came first.
 */
export async function updateShipFrom(ctx: Context, id: string, patch: LocationUpdate): Promise<Location> {
  const { accountId } = ctx.principal;
  keepsDefault(patch, await ownLocation(ctx.db, accountId, id));
  const address = patch.address ? await checkedAddress(ctx, patch.address) : undefined;
  return inTransaction(ctx.db, async (trx) => {
    await takeAccountTurn(trx, accountId);
    const current = await ownLocation(trx, accountId, id);
    keepsDefault(patch, current);
    if (patch.name !== undefined || address !== undefined) {
      await updateLocation(trx, ctx.clock, accountId, id, { name: patch.name ?? current.name, address: address ?? current.address });
    }
    if (patch.is_default === true && !current.is_default) await setDefaultLocation(trx, ctx.clock, accountId, id);
    return getLocation(trx, accountId, id);
  });
}

/** What still needs the location: orders not yet shipped from it, and pickups still to come there. */
async function usesOf(db: Kysely<DB>, accountId: string, id: string): Promise<string[]> {
  const orders = await db.selectFrom('orders').select('id').where('account_id', '=', accountId).where('ship_from_id', '=', id).where('status', '=', 'incomplete').orderBy('id').limit(4).execute();
  const pickups = await db.selectFrom('pickups').select('id').where('account_id', '=', accountId).where('ship_from_id', '=', id).where('status', '=', 'scheduled').orderBy('id').limit(4).execute();
  const say = (rows: { id: string }[], what: string) => (rows.length === 0 ? [] : [`${what}${rows.length > 3 ? ' (the first three)' : ''}: ${rows.slice(0, 3).map((r) => r.id).join(', ')}`]);
  return [...say(orders, 'orders not yet shipped'), ...say(pickups, 'scheduled pickups')];
}

/**
 * DELETE /ship-from/{id}: refused while something still needs it (409 resource_in_use naming it). The default's
 * place goes to the oldest location left, so orders without a ship-from keep one.
 */
export async function deleteShipFrom(ctx: Context, id: string): Promise<Location> {
  const { accountId } = ctx.principal;
  return inTransaction(ctx.db, async (trx) => {
    await takeAccountTurn(trx, accountId);
    const location = await ownLocation(trx, accountId, id);
    const uses = await usesOf(trx, accountId, id);
    if (uses.length > 0) throw new ApiError('resource_in_use', `Ship-from location ${id} is still used by ${uses.join('; ')}. Ship, change or cancel them first.`);
    await trx.deleteFrom('locations').where('id', '=', id).where('account_id', '=', accountId).execute();
    if (!location.is_default) return location;
    const next = await trx.selectFrom('locations').select('id').where('account_id', '=', accountId).orderBy('created_at').orderBy('id').executeTakeFirst();
    if (next) await trx.updateTable('locations').set({ is_default: 1, updated_at: ctx.clock.now().toISOString() }).where('id', '=', next.id).execute();
    return location;
  });
}
