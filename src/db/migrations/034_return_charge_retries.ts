import { sql, type Kysely } from 'kysely';

/**
 * A return paid on use is charged after its label is in the carrier's hands, so a declined card cannot refuse the
 * label: the charge is owed, and asked again later. `attempts` numbers each ask (each is a new request to Stripe under
 * its own key), `retry_at` says when the settle job asks next (null: not until a card is saved), and the shipment's
 * `charge_status` shows where the debt stands. Existing returns keep null, which reads as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('card_charges').addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('card_charges').addColumn('retry_at', 'text').execute();
  await db.schema.alterTable('shipments').addColumn('charge_status', 'text').execute();
  await sql`create index card_charges_retry on card_charges (retry_at) where retry_at is not null`.execute(db);
}
