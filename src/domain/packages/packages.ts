import type { Kysely } from 'kysely';
import type { CarrierId } from '../../config.ts';
import type { DatabaseKind } from '../../db/database.ts';
import type { DB, PackagesTable } from '../../db/schema.ts';
import { carrierBoxes, type CarrierBox } from '../../carriers/packages.ts';
import type { Dimensions, Weight } from '../../schemas/order.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { Context } from '../core/context.ts';
import { AccountError } from '../accounts/accounts.ts';
import { inTransaction } from '../core/transaction.ts';
import { newId } from '../../kernel/ids.ts';
import { lengthPlusGirthIn, maxLengthPlusGirthIn, maxWeightLb, weightInLb } from '../orders/parcels.ts';

export interface PackagePreset {
  id: string;
  object: 'package';
  name: string;
  kind: 'carrier_box' | 'custom';
  carrier: CarrierId | null;
  dimensions: Dimensions;
  max_weight: Weight;
  flat_rate: boolean;
  is_default: boolean;
  created_at: string | null;
}

/** A package as rating needs it: its size, and for a carrier box, the box itself. */
export interface ResolvedPackage {
  preset: PackagePreset;
  box?: CarrierBox;
}

function fromBox(box: CarrierBox): PackagePreset {
  const [length, width, height] = box.dimensionsIn;
  return {
    id: box.id,
    object: 'package',
    name: box.name,
    kind: 'carrier_box',
    carrier: box.carrier,
    dimensions: { length, width, height, unit: 'in' },
    max_weight: { value: box.maxWeightLb, unit: 'lb' },
    flat_rate: Boolean(box.flatRate),
    is_default: false,
    created_at: null,
  };
}

function fromRow(row: PackagesTable): PackagePreset {
  return {
    id: row.id,
    object: 'package',
    name: row.name,
    kind: 'custom',
    carrier: null,
    dimensions: JSON.parse(row.dimensions),
    max_weight: JSON.parse(row.max_weight),
    flat_rate: false,
    is_default: row.is_default === 1,
    created_at: row.created_at,
  };
}

export async function listPackages(ctx: Context, filter: { carrier?: CarrierId; kind?: 'carrier_box' | 'custom' }): Promise<PackagePreset[]> {
  const boxes = filter.kind === 'custom' ? [] : carrierBoxes.filter((b) => !filter.carrier || b.carrier === filter.carrier).map(fromBox);
  const custom = filter.kind === 'carrier_box' || filter.carrier ? [] : await customPackages(ctx.db, ctx.principal.accountId);
  return [...boxes, ...custom];
}

/** The account's own boxes, oldest first. */
export async function customPackages(db: Kysely<DB>, accountId: string): Promise<PackagePreset[]> {
  return (await db.selectFrom('packages').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute()).map(fromRow);
}

/** A carrier box, or one of the calling account's boxes; undefined for anything else. */
export async function findPackage(db: Kysely<DB>, accountId: string, id: string): Promise<ResolvedPackage | undefined> {
  const box = carrierBoxes.find((b) => b.id === id);
  if (box) return { preset: fromBox(box), box };
  const row = await db.selectFrom('packages').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return row ? { preset: fromRow(row) } : undefined;
}

type PackageInput = { name: string; dimensions: Dimensions; maxWeight: Weight };

function checkPackage(input: PackageInput): void {
  if (!input.name.trim()) throw new AccountError('a package needs a name');
  const { length, width, height, unit } = input.dimensions;
  if (![length, width, height].every((v) => Number.isFinite(v) && v > 0)) throw new AccountError('length, width and height must be positive numbers');
  if (unit !== 'in' && unit !== 'cm') throw new AccountError('--unit must be in or cm');
  if (!(Number.isFinite(input.maxWeight.value) && input.maxWeight.value > 0)) throw new AccountError('--max-weight must be a positive number');
  if (!['lb', 'oz', 'kg', 'g'].includes(input.maxWeight.unit)) throw new AccountError('--weight-unit must be lb, oz, kg or g');
  if (lengthPlusGirthIn(input.dimensions) > maxLengthPlusGirthIn) throw new AccountError(`the box is over ${maxLengthPlusGirthIn} in of length plus girth`);
  if (weightInLb(input.maxWeight) > maxWeightLb) throw new AccountError(`the max weight is over ${maxWeightLb} lb`);
}

export async function addPackage(db: Kysely<DB>, clock: Clock, accountId: string, input: PackageInput): Promise<PackagePreset> {
  checkPackage(input);
  const row: PackagesTable = {
    id: newId('pkg'),
    account_id: accountId,
    name: input.name,
    dimensions: JSON.stringify(input.dimensions),
    max_weight: JSON.stringify(input.maxWeight),
    is_default: 0,
    created_at: clock.now().toISOString(),
  };
  await db.insertInto('packages').values(row).execute();
  return fromRow(row);
}

/** Changes one of the account's boxes; orders that name it are rated with its new size from then on. */
export async function updatePackage(db: Kysely<DB>, accountId: string, id: string, input: PackageInput): Promise<PackagePreset> {
  checkPackage(input);
  const changed = await db
    .updateTable('packages')
    .set({ name: input.name, dimensions: JSON.stringify(input.dimensions), max_weight: JSON.stringify(input.maxWeight) })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) throw new AccountError(`no package ${id}`);
  return (await findPackage(db, accountId, id))!.preset;
}

/** The account's default box, if it has one. */
export async function defaultPackage(db: Kysely<DB>, accountId: string): Promise<ResolvedPackage | undefined> {
  const row = await db.selectFrom('packages').selectAll().where('account_id', '=', accountId).where('is_default', '=', 1).executeTakeFirst();
  return row ? { preset: fromRow(row) } : undefined;
}

/** Makes the box the one orders and rates use when they name no package and give no dimensions; orders already made keep theirs. */
export async function setDefaultPackage(db: Kysely<DB>, dbKind: DatabaseKind, accountId: string, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    // Locking every box of the account makes a concurrent change wait and then clear this one, instead of failing on the unique index.
    let q = trx.selectFrom('packages').select('id').where('account_id', '=', accountId).orderBy('id');
    if (dbKind === 'postgres') q = q.forUpdate();
    const ids = (await q.execute()).map((r) => r.id);
    if (!ids.includes(id)) throw new AccountError(`no package ${id}`);
    await trx.updateTable('packages').set({ is_default: 0 }).where('account_id', '=', accountId).where('is_default', '=', 1).execute();
    await trx.updateTable('packages').set({ is_default: 1 }).where('id', '=', id).execute();
  });
}
