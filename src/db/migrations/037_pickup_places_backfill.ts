import type { Kysely } from 'kysely';

/**
 * Gives the UPS pickups booked before 036 their place, so that the one-pickup-per-place rule holds for them as for
 * those booked since: without it, a second pickup at the same address and day as an earlier one would be booked, and
 * UPS would answer the earlier one's PRN. Only pickups that still hold a driver (pending or scheduled) count. The
 * place is written as pickups.ts's placeOf wrote it when this migration was made (kept here, since a migration must
 * not change with the code it once ran beside). A pickup whose place or PRN an earlier one already holds keeps no
 * place, as the indexes of 036 allow only one; the PRN check in code still finds it, as before.
 */
function placeOf(address: { street1: string; street2?: string; state: string; zip: string; country?: string }): string {
  const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
  return [(address.country ?? 'US').toUpperCase(), address.state.toUpperCase(), address.zip.slice(0, 5), words([address.street1, address.street2].filter(Boolean).join(' '))].join('|');
}

interface Row {
  id: string;
  account_id: string;
  mode: string;
  status: string;
  confirmation_number: string;
  address: string;
  date: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pickups = db as unknown as Kysely<{ pickups: Row & { carrier: string; place: string | null; created_at: string } }>;
  const unplaced = await pickups
    .selectFrom('pickups')
    .select(['id', 'account_id', 'mode', 'status', 'confirmation_number', 'address', 'date'])
    .where('carrier', '=', 'ups')
    .where('place', 'is', null)
    .where('status', 'in', ['pending', 'scheduled'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of unplaced) {
    const place = placeOf(JSON.parse(row.address));
    const taken = await pickups
      .selectFrom('pickups')
      .select('id')
      .where('carrier', '=', 'ups')
      .where('mode', '=', row.mode)
      .where('place', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('account_id', '=', row.account_id), eb('date', '=', row.date), eb('place', '=', place), eb('status', 'in', ['pending', 'scheduled'])]),
          ...(row.status === 'scheduled' ? [eb.and([eb('confirmation_number', '=', row.confirmation_number), eb('status', '=', 'scheduled')])] : []),
        ]),
      )
      .executeTakeFirst();
    if (!taken) await pickups.updateTable('pickups').set({ place }).where('id', '=', row.id).execute();
  }
}
