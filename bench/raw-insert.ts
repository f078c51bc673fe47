// The database alone, as shipd opens it (same pool, pragmas and Kysely dialect): order rows inserted one per
// transaction, with a given number in flight, into a fresh database. bench/flow.ts sets each database's flow rate
// beside this, so SQLite and PostgreSQL are each judged against what they can do on this machine.
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import type { OrdersTable } from '../src/db/schema.ts';
import { bootstrapEmptyDatabase } from '../src/domain/accounts/bootstrap.ts';
import { systemClock } from '../src/kernel/clock.ts';
import { newId } from '../src/kernel/ids.ts';
import { freshDatabase, sampleOrder } from './lib.ts';

/** Order rows inserted per second, each in its own transaction, after a short warm-up. */
export async function rawInsertsPerSecond(databaseUrl: string | undefined, seconds: number, concurrency: number): Promise<number> {
  const fresh = await freshDatabase(databaseUrl);
  const database = openDatabase(loadConfig(fresh.env));
  try {
    await migrate(database);
    const { db, kind } = database;
    await bootstrapEmptyDatabase({ db, kind, clock: systemClock });
    const key = await db.selectFrom('api_keys').select(['id', 'account_id', 'mode']).executeTakeFirstOrThrow();
    // As createOrder stores the bench order, so the row is the size of a real one.
    const row = (n: number): OrdersTable => {
      const at = new Date().toISOString();
      return {
        id: newId('ord'),
        owner_key_id: key.id,
        account_id: key.account_id,
        mode: key.mode,
        status: 'incomplete',
        order_number: `raw-${n}`,
        ship_to: JSON.stringify(sampleOrder.ship_to),
        ship_from: JSON.stringify(sampleOrder.ship_from),
        ship_from_id: null,
        items: JSON.stringify(sampleOrder.items),
        parcel: JSON.stringify(sampleOrder.parcel),
        parcels: null,
        package_id: null,
        requested_service: null,
        customs: null,
        notes: null,
        metadata: '{}',
        shipment_id: null,
        created_at: at,
        updated_at: at,
      };
    };
    const insert = (n: number) => db.transaction().execute((trx) => trx.insertInto('orders').values(row(n)).execute());
    for (let i = 0; i < 200; i++) await insert(-i);
    let inserted = 0;
    const begin = performance.now();
    const end = begin + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) await insert(inserted++);
      }),
    );
    return inserted / ((performance.now() - begin) / 1000);
  } finally {
    await database.close();
    await fresh.drop();
  }
}
