import type { Kysely } from 'kysely';
import { carrierIds, type CarrierId } from '../../config.ts';
import type { CarrierAccountsTable, DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { Mode } from '../../kernel/mode.ts';
import { newId } from '../../kernel/ids.ts';
import { open, seal } from '../../kernel/secret-box.ts';

import type { LiveCredentials } from '../../carriers/live/options.ts';

export type OwnCredentials = LiveCredentials;

const purpose = 'carrier-credentials';

export const sealCredentials = (secret: string, creds: OwnCredentials): string => seal(secret, purpose, JSON.stringify(creds));

/** The row's credentials, or null when they were sealed under another SHIPD_SECRET. */
export function openCredentials(secret: string, row: Pick<CarrierAccountsTable, 'credentials'>): OwnCredentials | null {
  const plain = open(secret, purpose, row.credentials);
  return plain === null ? null : (JSON.parse(plain) as OwnCredentials);
}

/**
 * Stores (or replaces) an account's own live credentials for a carrier, sealed; its live keys use them from then on.
 * New credentials are untested: a failing status from the old ones no longer says anything.
 */
export async function connectCarrier(db: Kysely<DB>, clock: Clock, secret: string, accountId: string, carrier: CarrierId, creds: OwnCredentials, mode: Mode = 'live'): Promise<CarrierAccountsTable> {
  const at = clock.now().toISOString();
  const credentials = sealCredentials(secret, creds);
  const fresh = { client_id_last4: creds.clientId.slice(-4), credentials, status: 'connected' as const, last_tested_at: null, last_test_error: null, updated_at: at };
  return db
    .insertInto('carrier_accounts')
    .values({ id: newId('ca'), account_id: accountId, mode, carrier, description: null, created_at: at, ...fresh })
    .onConflict((oc) => oc.columns(['account_id', 'mode', 'carrier']).doUpdateSet(fresh))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function disconnectCarrier(db: Kysely<DB>, accountId: string, carrier: CarrierId): Promise<boolean> {
  const result = await db.deleteFrom('carrier_accounts').where('account_id', '=', accountId).where('mode', '=', 'live').where('carrier', '=', carrier).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The operator's list of an account's live carrier accounts: what the API shows of them, no part of a credential. */
export async function listCarrierAccounts(
  db: Kysely<DB>,
  accountId: string,
): Promise<{ id: string; carrier: string; status: string; lastTestedAt: string | null; updatedAt: string }[]> {
  const rows = await db
    .selectFrom('carrier_accounts')
    .select(['id', 'carrier', 'status', 'last_tested_at', 'updated_at'])
    .where('account_id', '=', accountId)
    .where('mode', '=', 'live')
    .orderBy('carrier')
    .execute();
  return rows.map((r) => ({ id: r.id, carrier: r.carrier, status: r.status, lastTestedAt: r.last_tested_at, updatedAt: r.updated_at }));
}

/**
 * The account's own live carrier credentials, opened. A value sealed under another SHIPD_SECRET cannot be opened and
 * counts as not connected (`unreadable` says which), rather than failing every request of the account.
 */
export async function ownCredentials(db: Kysely<DB>, secret: string, accountId: string): Promise<{ own: Partial<Record<CarrierId, OwnCredentials>>; unreadable: CarrierId[] }> {
  const rows = await db.selectFrom('carrier_accounts').select(['carrier', 'credentials']).where('account_id', '=', accountId).where('mode', '=', 'live').execute();
  const own: Partial<Record<CarrierId, OwnCredentials>> = {};
  const unreadable: CarrierId[] = [];
  for (const row of rows) {
    const carrier = row.carrier as CarrierId;
    if (!(carrierIds as readonly string[]).includes(carrier)) continue;
    const creds = openCredentials(secret, row);
    if (creds === null) unreadable.push(carrier);
    else own[carrier] = creds;
  }
  return { own, unreadable };
}
