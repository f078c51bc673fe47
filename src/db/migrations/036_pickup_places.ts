import { sql, type Kysely } from 'kysely';

/**
 * UPS keeps one on-call pickup per address and day: a second booking there is answered with the first one's PRN,
 * so two pickups of ours would share one driver, each charged, and cancelling either would cancel both at UPS.
 * `place` is the pickup address as such a carrier tells addresses apart (null for carriers without the rule), and
 * two indexes make a second active pickup impossible however requests interleave: one per account, mode, carrier,
 * day and place while it is being booked or booked; and one per confirmation number among booked ones, for an
 * address UPS takes for the same where shipd does not. Pickups booked before this have no place: the check of the
 * confirmation number in code still finds them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pickups').addColumn('place', 'text').execute();
  await db.schema
    .createIndex('pickups_one_per_place')
    .on('pickups')
    .columns(['account_id', 'mode', 'carrier', 'date', 'place'])
    .unique()
    .where(sql.ref('place'), 'is not', null)
    .where(sql.ref('status'), 'in', ['pending', 'scheduled'])
    .execute();
  await db.schema
    .createIndex('pickups_one_per_confirmation')
    .on('pickups')
    .columns(['mode', 'carrier', 'confirmation_number'])
    .unique()
    .where(sql.ref('place'), 'is not', null)
    .where(sql.ref('status'), '=', 'scheduled')
    .execute();
}
