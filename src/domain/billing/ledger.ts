import { shares } from '../../kernel/shares.ts';
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

/** The ledger's kind of the refund of box `index` (0-based) voided on its own: one per box, as the ledger's key allows. */
const boxRefund = (index: number) => `refund_box${index + 1}` as const;

/**
 * Gives back what the shipment was charged and not yet given back (boxes voided on their own were), if it was
 * charged; at most once. The shipment's lines then add up to nothing.
 */
export async function refundPostage(trx: Kysely<DB>, shipmentId: string, at: string): Promise<void> {
  const lines = await trx.selectFrom('postage_ledger').selectAll().where('shipment_id', '=', shipmentId).execute();
  const charge = lines.find((l) => l.kind === 'charge');
  if (!charge) return;
  const left = lines.reduce((sum, l) => sum + l.amount_cents, 0);
  await trx
    .insertInto('postage_ledger')
    .values({ ...charge, id: newId('led', Date.parse(at)), kind: 'refund', amount_cents: -left, created_at: at })
    .onConflict((oc) => oc.columns(['shipment_id', 'kind']).doNothing())
    .execute();
}

/**
 * Gives back box `index`'s share of what the shipment was charged (split by the boxes' `weights`), for the box voided
 * on its own, if it was charged; at most once per box, and never more than is left of the charge. Answers what it
 * gave back, for the card to give back the same.
 */
export async function refundBoxPostage(trx: Kysely<DB>, shipmentId: string, index: number, weights: readonly number[], at: string): Promise<number> {
  const lines = await trx.selectFrom('postage_ledger').selectAll().where('shipment_id', '=', shipmentId).execute();
  const charge = lines.find((l) => l.kind === 'charge');
  if (!charge || lines.some((l) => l.kind === boxRefund(index))) return 0;
  // The box's share of what was charged, which is less than the carrier's price where a card's hold capped it.
  const given = Math.min(shares(charge.amount_cents, weights)[index]!, lines.reduce((sum, l) => sum + l.amount_cents, 0));
  if (given <= 0) return 0;
  await trx
    .insertInto('postage_ledger')
    .values({ ...charge, id: newId('led', Date.parse(at)), kind: boxRefund(index), amount_cents: -given, created_at: at })
    .onConflict((oc) => oc.columns(['shipment_id', 'kind']).doNothing())
    .execute();
  return given;
}
