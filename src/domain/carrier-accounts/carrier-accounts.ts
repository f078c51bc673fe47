import type { Kysely } from 'kysely';
import { carrierIds, type CarrierId } from '../../config.ts';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import { open, seal } from '../../kernel/secret-box.ts';

import type { LiveCredentials } from '../../carriers/live/options.ts';

export type OwnCredentials = LiveCredentials;

const purpose = 'carrier-credentials';

/** Stores (or replaces) an account's own credentials for a carrier, sealed; used by its live keys from then on. */
export async function connectCarrier(db: Kysely<DB>, clock: Clock, secret: string, accountId: string, carrier: CarrierId, creds: OwnCredentials): Promise<void> {
  const at = clock.now().toISOString();
  const credentials = seal(secret, purpose, JSON.stringify(creds));
  await db
    .insertInto('carrier_accounts')
    .values({ account_id: accountId, carrier, client_id_last4: creds.clientId.slice(-4), credentials, created_at: at, updated_at: at })
    .onConflict((oc) => oc.columns(['account_id', 'carrier']).doUpdateSet({ client_id_last4: creds.clientId.slice(-4), credentials, updated_at: at }))
    .execute();
}

export async function disconnectCarrier(db: Kysely<DB>, accountId: string, carrier: CarrierId): Promise<boolean> {
  const result = await db.deleteFrom('carrier_accounts').where('account_id', '=', accountId).where('carrier', '=', carrier).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listCarrierAccounts(db: Kysely<DB>, accountId: string): Promise<{ carrier: string; clientIdLast4: string; updatedAt: string }[]> {
  const rows = await db.selectFrom('carrier_accounts').select(['carrier', 'client_id_last4', 'updated_at']).where('account_id', '=', accountId).orderBy('carrier').execute();
  return rows.map((r) => ({ carrier: r.carrier, clientIdLast4: r.client_id_last4, updatedAt: r.updated_at }));
}

/**
 * The account's own carrier credentials, opened. A value sealed under another SHIPD_SECRET cannot be opened and
 * counts as not connected (`unreadable` says which), rather than failing every request of the account.
 */
export async function ownCredentials(db: Kysely<DB>, secret: string, accountId: string): Promise<{ own: Partial<Record<CarrierId, OwnCredentials>>; unreadable: CarrierId[] }> {
  const rows = await db.selectFrom('carrier_accounts').select(['carrier', 'credentials']).where('account_id', '=', accountId).execute();
  const own: Partial<Record<CarrierId, OwnCredentials>> = {};
  const unreadable: CarrierId[] = [];
  for (const row of rows) {
    const carrier = row.carrier as CarrierId;
    if (!(carrierIds as readonly string[]).includes(carrier)) continue;
    const plain = open(secret, purpose, row.credentials);
    if (plain === null) unreadable.push(carrier);
    else own[carrier] = JSON.parse(plain) as OwnCredentials;
  }
  return { own, unreadable };
}
