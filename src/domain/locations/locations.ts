import type { Kysely } from 'kysely';
import { Value } from '@sinclair/typebox/value';
import type { DB, LocationsTable } from '../../db/schema.ts';
import { Address, UsAddressParts, isKnownState, type AnyAddress } from '../../schemas/address.ts';
import { isUsAddress } from '../addresses/address-rules.ts';
import type { Clock } from '../../kernel/clock.ts';
import { newId } from '../../kernel/ids.ts';
import { AccountError } from '../accounts/accounts.ts';
import { takeAccountTurn } from '../accounts/account-turn.ts';
import { inTransaction } from '../core/transaction.ts';

export interface Location {
  id: string;
  object: 'location';
  name: string;
  address: Address;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

export function toLocation(row: LocationsTable): Location {
  return {
    id: row.id,
    object: 'location',
    name: row.name,
    address: JSON.parse(row.address) as Address,
    is_default: row.is_default === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The location's address as stored, or an AccountError naming the field that is wrong. */
function checkedLocation(input: { name: string; address: AnyAddress }): Address {
  const address = { country: 'US', ...input.address, ...(input.address.state !== undefined && { state: input.address.state.toUpperCase() }) };
  if (!isUsAddress(address)) {
    throw new AccountError(`address.country is ${address.country}: shipd ships from the United States only (a territory or military post office is country US with its code as the state)`);
  }
  // TypeBox's checker skips the schema's if/then, so the US fields are checked on their own.
  const firstError = Value.Errors(Address, address).First() ?? Value.Errors(UsAddressParts, { state: address.state, zip: address.zip }).First();
  if (firstError) {
    // The schema's own words for the field ("ZIP or ZIP+4") say what is wanted better than its pattern does.
    const wanted = (firstError.schema as { description?: string }).description;
    const value = typeof firstError.value === 'string' ? ` (got "${firstError.value}")` : '';
    const field = `address${firstError.path.replace(/\//g, '.')}`;
    if (firstError.value === undefined) throw new AccountError(`${field} is required`);
    const described = wanted?.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
    throw new AccountError(described ? `${field} must be a ${described}${value}` : `${field} ${firstError.message.toLowerCase()}${value}`);
  }
  if (!isKnownState(address.state)) throw new AccountError(`address.state "${address.state}" is not a US state code`);
  if (!input.name.trim()) throw new AccountError('a location needs a name');
  return { ...address, country: 'US' };
}

/** Adds a ship-from location. The account's first location, or one added as default, becomes the default. */
export async function addLocation(
  db: Kysely<DB>,
  clock: Clock,
  accountId: string,
  input: { name: string; address: Address; isDefault?: boolean },
): Promise<Location> {
  const address = checkedLocation(input);
  const now = clock.now().toISOString();
  return inTransaction(db, async (trx) => {
    await takeAccountTurn(trx, accountId);
    const existing = await trx.selectFrom('locations').select('id').where('account_id', '=', accountId).executeTakeFirst();
    const isDefault = input.isDefault === true || !existing;
    if (isDefault) await trx.updateTable('locations').set({ is_default: 0, updated_at: now }).where('account_id', '=', accountId).execute();
    const row: LocationsTable = {
      id: newId('loc'),
      account_id: accountId,
      name: input.name,
      address: JSON.stringify(address),
      is_default: isDefault ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto('locations').values(row).execute();
    return toLocation(row);
  });
}

/** The account's ship-from locations, the default first, then oldest first. */
export async function listLocations(db: Kysely<DB>, accountId: string): Promise<Location[]> {
  const rows = await db.selectFrom('locations').selectAll().where('account_id', '=', accountId).orderBy('is_default', 'desc').orderBy('created_at').execute();
  return rows.map(toLocation);
}

export async function getLocation(db: Kysely<DB>, accountId: string, id: string): Promise<Location> {
  const row = await db.selectFrom('locations').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!row) throw new AccountError(`no location ${id}`);
  return toLocation(row);
}

/** Changes a location's name and address; orders already made keep the address they were made with. */
export async function updateLocation(db: Kysely<DB>, clock: Clock, accountId: string, id: string, input: { name: string; address: Address }): Promise<Location> {
  const address = checkedLocation(input);
  const now = clock.now().toISOString();
  const changed = await db
    .updateTable('locations')
    .set({ name: input.name, address: JSON.stringify(address), updated_at: now })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) throw new AccountError(`no location ${id}`);
  return getLocation(db, accountId, id);
}

/** Makes the location the one orders without ship_from use. */
export async function setDefaultLocation(db: Kysely<DB>, clock: Clock, accountId: string, id: string): Promise<void> {
  const now = clock.now().toISOString();
  await inTransaction(db, async (trx) => {
    await takeAccountTurn(trx, accountId);
    const exists = await trx.selectFrom('locations').select('id').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!exists) throw new AccountError(`no location ${id}`);
    await trx.updateTable('locations').set({ is_default: 0, updated_at: now }).where('account_id', '=', accountId).where('is_default', '=', 1).execute();
    await trx.updateTable('locations').set({ is_default: 1, updated_at: now }).where('id', '=', id).execute();
  });
}
