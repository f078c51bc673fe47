import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFlowEvents, flowEventTypes, inParallel, ledgerMismatches, orderPush, ordersWithTwoLabels, postgresOnly, withCluster } from './cluster.ts';

// Two `shipd serve` and two `shipd worker` processes on one PostgreSQL database behave as one service: 1,000 order
// push flows of two keys, spread over both API processes, every event delivered once to its own key's receiver.

const flows = 1_000;
const inFlight = 16;

test('2 API and 2 worker processes on one database: 1,000 flows, every event delivered exactly once to its own key', { skip: postgresOnly, timeout: 240_000 }, async (t) => {
  const started = Date.now();
  // Each serve runs a worker too (the default), so four delivery workers and four job runners race for the same rows.
  await withCluster({ apis: 2, workers: 2, accounts: ['alpha', 'beta'] }, async (cluster, tenants) => {
    t.diagnostic(`4 processes and 2 keys ready in ${Date.now() - started} ms`);
    const loadStarted = Date.now();
    const done = await inParallel(flows, inFlight, (n) => orderPush(cluster, tenants[n % 2]!.client, 'mp', n));
    t.diagnostic(`${flows} flows in ${Date.now() - loadStarted} ms, ${inFlight} in flight`);
    for (const tn of tenants) assert.equal(tn.client.retries, 0, `${tn.name}: every request succeeded the first time`);

    const db = cluster.db();
    assert.deepEqual(await ordersWithTwoLabels(db), [], 'no order has two active labels');
    assert.deepEqual(await ledgerMismatches(db), [], 'every label is charged its postage once');

    for (const [i, tn] of tenants.entries()) {
      const mine = done.filter((_, n) => n % 2 === i);
      // Through the API too: each of the key's orders has one label, the one its client was sold.
      const shipments = await tn.client.all('/shipments');
      assert.equal(shipments.length, mine.length, `${tn.name} sees exactly its own labels`);
      const labelOf = new Map(shipments.map((s) => [s.order_id as string, s.id as string]));
      for (const f of mine) assert.equal(labelOf.get(f.orderId), f.shipment.id, `${f.orderId} has one label, the one sold`);

      // A duplicate from a racing worker would come at about the time of the first delivery; give it a moment to show.
      const delivered = await checkFlowEvents(tn, mine, 60_000, 2_000);
      assert.deepEqual([...delivered].filter(([, count]) => count > 1), [], `${tn.name}'s receiver got no event twice`);
    }
    // The delivery log agrees: one delivery per event, sent once, and a success.
    const log = await db.selectFrom('webhook_deliveries').select(['id', 'status', 'attempts']).execute();
    assert.equal(log.length, flows * flowEventTypes.length);
    assert.deepEqual(log.filter((d) => d.status !== 'succeeded' || d.attempts !== 1), []);
    t.diagnostic(`whole test ${Date.now() - started} ms`);
  });
});
