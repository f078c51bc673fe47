import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrate } from '../src/db/migrate.ts';
import type { PickupsTable } from '../src/db/schema.ts';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server.close());

const austin = { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };
const place = 'US|TX|78701|1100 congress ave';

test('UPS pickups booked before places were kept get theirs, but for one whose place or PRN an earlier one holds', async () => {
  const db = server.services.database.db;
  const account = await server.account();
  const key = await server.key(account);
  let n = 0;
  const pickup = (over: Partial<PickupsTable>): PickupsTable => ({
    id: `pkp_backfill${String(++n).padStart(2, '0')}`,
    owner_key_id: key.id,
    account_id: account,
    mode: 'test',
    status: 'scheduled',
    carrier: 'ups',
    confirmation_number: `PRN${n}`,
    ship_from_id: null,
    address: JSON.stringify(austin),
    date: '2030-11-26',
    window_start: '09:00',
    window_end: '17:00',
    shipment_ids: '[]',
    instructions: null,
    created_at: `2030-11-25T10:00:0${n}.000Z`,
    cancelled_at: null,
    parcels: null,
    tracking_numbers: null,
    price_cents: null,
    payment: null,
    payment_method: null,
    idempotency_key: null,
    last_error: null,
    updated_at: null,
    carrier_data: null,
    services: null,
    place: null,
    ...over,
  });
  const rows = [
    pickup({}), // 1: gets the place
    pickup({}), // 2: the same address and day, booked after 1: stays without (036 allows one)
    pickup({ date: '2030-11-27', confirmation_number: 'PRN1' }), // 3: another day, but 1's PRN: stays without
    pickup({ date: '2030-11-28', address: JSON.stringify({ ...austin, street1: '1100 Congress Avenue' }) }), // 4: another day and address: gets its own
    pickup({ status: 'cancelled', date: '2030-11-29' }), // 5: no longer holds a driver: left alone
    pickup({ carrier: 'usps', date: '2030-11-30' }), // 6: USPS keeps no such rule
    pickup({ status: 'pending', confirmation_number: '', date: '2030-12-02' }), // 7: being booked: gets it
  ];
  await db.insertInto('pickups').values(rows).execute();
  // As a database upgraded from before 037 finds itself: its migration not yet run.
  await sql`delete from kysely_migration where name = '037_pickup_places_backfill'`.execute(db);
  assert.deepEqual(await migrate(server.services.database), ['037_pickup_places_backfill']);

  const after = await db.selectFrom('pickups').select(['id', 'place']).where('id', 'like', 'pkp_backfill%').orderBy('id').execute();
  assert.deepEqual(
    after.map((r) => r.place),
    [place, null, null, 'US|TX|78701|1100 congress avenue', null, null, place],
  );
  // The rule holds for them now: a second active pickup at pickup 1's place and day cannot be written.
  await assert.rejects(db.updateTable('pickups').set({ place }).where('id', '=', rows[1]!.id).execute());
});
