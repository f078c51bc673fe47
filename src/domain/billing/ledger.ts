import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Mode } from '../../kernel/mode.ts';
import { newId } from '../../kernel/ids.ts';

/** Records the charge for a label; a shipment is charged at most once (a unique key in the ledger). */
export async function chargePostage(
  trx: Kysely<DB>,
  entry: { accountId: string; mode: Mode; ownerKeyId: string; shipmentId: string; cents: number; paymentMethod: string; at: string },
): Promise<void> {
  await trx
    .insertInto('postage_ledger')
    .values({
      id: newId('led', Date.parse(entry.at)),
      account_id: entry.accountId,
      mode: entry.mode,
      owner_key_id: entry.ownerKeyId,
      shipment_id: entry.shipmentId,
      kind: 'charge',
      amount_cents: entry.cents,
      payment_method: entry.paymentMethod,
      created_at: entry.at,
    })
    .onConflict((oc) => oc.columns(['shipment_id', 'kind']).doNothing())
    .execute();
}

/** Gives back what the shipment was charged, if it was; at most once. */
export async function refundPostage(trx: Kysely<DB>, shipmentId: string, at: string): Promise<void> {
  const charge = await trx.selectFrom('postage_ledger').selectAll().where('shipment_id', '=', shipmentId).where('kind', '=', 'charge').executeTakeFirst();
  if (!charge) return;
  await trx
    .insertInto('postage_ledger')
    .values({ ...charge, id: newId('led', Date.parse(at)), kind: 'refund', amount_cents: -charge.amount_cents, created_at: at })
    .onConflict((oc) => oc.columns(['shipment_id', 'kind']).doNothing())
    .execute();
}
