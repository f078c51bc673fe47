import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { PackageCreate, PackageUpdate } from '../../schemas/package.ts';
import type { Dimensions, Weight } from '../../schemas/order.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import type { Context } from '../core/context.ts';
import { inTransaction } from '../core/transaction.ts';
import { takeAccountTurn } from '../accounts/account-turn.ts';
import { lengthPlusGirthIn, maxLengthPlusGirthIn, maxWeightLb, weightInLb } from '../orders/parcels.ts';
import { field, failIfAny } from '../shipments/shipment-inputs.ts';
import { addPackage, findPackage, setDefaultPackage, updatePackage, type PackagePreset } from './packages.ts';

/** The carriers' limits every box must fit, at the field at fault. */
function sizeErrors(dimensions: Dimensions, maxWeight: Weight): FieldError[] {
  const errors: FieldError[] = [];
  const girth = lengthPlusGirthIn(dimensions);
  if (girth > maxLengthPlusGirthIn) errors.push(field('/dimensions', `length plus girth is ${Math.round(girth)} in, over the carriers' maximum of ${maxLengthPlusGirthIn} in`));
  if (weightInLb(maxWeight) > maxWeightLb) errors.push(field('/max_weight/value', `is over the carriers' maximum of ${maxWeightLb} lb`));
  return errors;
}

/** One of the account's own boxes; a carrier's box is not the account's to change. */
async function ownPackage(db: Kysely<DB>, accountId: string, id: string): Promise<PackagePreset> {
  const found = await findPackage(db, accountId, id);
  if (found?.box) throw new ApiError('not_found', `${id} is a carrier's own box: only the account's custom boxes can be changed or removed`);
  if (!found) throw new ApiError('not_found', `No package ${id}`);
  return found.preset;
}

/** POST /packages: a custom box; is_default makes it the one orders without package or dimensions use. */
export async function createPackage(ctx: Context, input: PackageCreate): Promise<PackagePreset> {
  failIfAny(sizeErrors(input.dimensions, input.max_weight));
  const { accountId } = ctx.principal;
  return inTransaction(ctx.db, async (trx) => {
    await takeAccountTurn(trx, accountId);
    const made = await addPackage(trx, ctx.clock, accountId, { name: input.name, dimensions: input.dimensions, maxWeight: input.max_weight });
    if (input.is_default) await setDefaultPackage(trx, ctx.dbKind, accountId, made.id);
    return { ...made, is_default: input.is_default === true };
  });
}

/**
 * PATCH /packages/{id}: orders not yet shipped that name it are rated with its new size from then on. The box is
 * read again in the account's turn, so a concurrent delete answers as if it came first.
 */
export async function changePackage(ctx: Context, id: string, patch: PackageUpdate): Promise<PackagePreset> {
  const { accountId } = ctx.principal;
  return inTransaction(ctx.db, async (trx) => {
    await takeAccountTurn(trx, accountId);
    const current = await ownPackage(trx, accountId, id);
    const next = { name: patch.name ?? current.name, dimensions: patch.dimensions ?? current.dimensions, maxWeight: patch.max_weight ?? current.max_weight };
    failIfAny(sizeErrors(next.dimensions, next.maxWeight));
    if (patch.name !== undefined || patch.dimensions !== undefined || patch.max_weight !== undefined) await updatePackage(trx, accountId, id, next);
    if (patch.is_default === true) await setDefaultPackage(trx, ctx.dbKind, accountId, id);
    if (patch.is_default === false) await trx.updateTable('packages').set({ is_default: 0 }).where('id', '=', id).where('account_id', '=', accountId).execute();
    return (await findPackage(trx, accountId, id))!.preset;
  });
}

/**
 * DELETE /packages/{id}: refused while orders not yet shipped name it (409 resource_in_use naming them), since they
 * are rated with its size; labels already bought keep theirs.
 */
export async function deletePackage(ctx: Context, id: string): Promise<PackagePreset> {
  const { accountId } = ctx.principal;
  return inTransaction(ctx.db, async (trx) => {
    await takeAccountTurn(trx, accountId);
    const preset = await ownPackage(trx, accountId, id);
    // A box of an order of several names its package inside the parcels' JSON, as JSON.stringify wrote it.
    const inParcels = `%"package_id":"${id}"%`;
    const orders = await trx
      .selectFrom('orders')
      .select('id')
      .where('account_id', '=', accountId)
      .where('status', '=', 'incomplete')
      .where((eb) => eb.or([eb('package_id', '=', id), eb('parcels', 'like', inParcels), eb('parcel', 'like', inParcels)]))
      .orderBy('id')
      .limit(4)
      .execute();
    if (orders.length > 0) {
      const named = orders.slice(0, 3).map((o) => o.id).join(', ');
      throw new ApiError('resource_in_use', `Package ${id} is still named by orders not yet shipped${orders.length > 3 ? ' (the first three)' : ''}: ${named}. Ship, change or cancel them first.`);
    }
    await trx.deleteFrom('packages').where('id', '=', id).where('account_id', '=', accountId).execute();
    return preset;
  });
}
