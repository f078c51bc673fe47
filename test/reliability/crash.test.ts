import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import {
  checkFlowEvents,
  inParallel,
  ledgerMismatches,
  orderPush,
  ordersWithTwoLabels,
  postgresOnly,
  until,
  withCluster,
  type ShipdProcess,
} from './cluster.ts';

// The multi-process load again, while API and worker processes are SIGKILLed at random moments and started
// again. Clients do what a careful client does: a request cut off, or answered "come back later", is sent again
// with the same Idempotency-Key. Whatever the moments, nothing is bought or charged twice, every answer a client
// was given holds, and every event reaches its own key.

const flows = 1_000;
const inFlight = 16;
/** Kills of each kind: an API process (and the worker inside it), and a worker process. */
const killsEach = 2;
const seed = process.env.RELIABILITY_SEED ? Number(process.env.RELIABILITY_SEED) : randomInt(2 ** 31);

/** Marsaglia's xorshift32: numbers in [0, 1), the same stream for the same seed. */
function random(from: number): () => number {
  let x = from >>> 0 || 1;
  return () => {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    return x / 2 ** 32;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Kill {
  /** Flows finished when it comes, then a few ms more. */
  afterFlows: number;
  delayMs: number;
  /** How long the process stays dead. */
  downMs: number;
  victim: ShipdProcess;
}

/** Kills within the first 60% of the flows, so that a slow restart still leaves load for the next kill. */
function killSchedule(rand: () => number, group: ShipdProcess[]): Kill[] {
  return Array.from({ length: killsEach }, () => ({
    afterFlows: Math.floor(flows * (0.05 + 0.55 * rand())),
    delayMs: Math.floor(rand() * 500),
    downMs: 200 + Math.floor(rand() * 2_000),
    victim: group[Math.floor(rand() * group.length)]!,
  })).sort((a, b) => a.afterFlows - b.afterFlows);
}

test('SIGKILLed API and worker processes: no label twice, every answer holds, ledgers balance, every event reaches its own key', { skip: postgresOnly, timeout: 280_000 }, async (t) => {
  console.error(`crash test seed ${seed}: RELIABILITY_SEED=${seed} repeats this kill schedule`);
  const started = Date.now();
  // A purchase cut off is stale 6 s after it began, and a cut-off request's Idempotency-Key lapses after 12 s.
  const options = { apis: 2, workers: 2, accounts: ['alpha', 'beta'], env: { SHIPD_CARRIER_TIMEOUT_MS: '1000' }, patienceMs: 90_000 };
  await withCluster(options, async (cluster, tenants) => {
    const rand = random(seed);
    const schedules = [killSchedule(rand, cluster.apis), killSchedule(rand, cluster.workers)];
    let finished = 0;
    let loadOver = false;
    const chaos = async (kills: Kill[]) => {
      for (const k of kills) {
        while (finished < k.afterFlows && !loadOver) await sleep(10);
        if (loadOver) return;
        await sleep(k.delayMs);
        await k.victim.kill();
        t.diagnostic(`${k.victim.name} killed after ${finished} flows, down for ${k.downMs} ms`);
        await sleep(k.downMs);
        await k.victim.start();
      }
    };
    const chaosDone = Promise.all(schedules.map(chaos));
    const loadStarted = Date.now();
    const done = await inParallel(flows, inFlight, async (n) => {
      const flow = await orderPush(cluster, tenants[n % 2]!.client, 'crash', n);
      finished++;
      return flow;
    }).finally(() => {
      loadOver = true;
    });
    await chaosDone;
    const kills = [...cluster.apis, ...cluster.workers].reduce((sum, p) => sum + p.kills, 0);
    t.diagnostic(`${flows} flows in ${Date.now() - loadStarted} ms with ${kills} kills; ${tenants.map((tn) => `${tn.name} retried ${tn.client.retries} requests`).join(', ')}`);
    assert.equal(kills, 2 * killsEach, 'every kill happened while the load ran');

    const db = cluster.db();
    const unfinished = await until(
      () => db.selectFrom('shipments').select('id').where('status', '=', 'pending').execute(),
      (rows) => rows.length === 0,
      60_000,
    );
    assert.deepEqual(unfinished, [], 'every purchase a crash cut off was finished or undone');
    assert.deepEqual(await ordersWithTwoLabels(db), [], 'no order has two active labels');
    assert.deepEqual(await ledgerMismatches(db), [], 'each ledger balances: every label bought is charged its postage once, nothing else is');
    const orders = await db.selectFrom('orders').select('order_number').execute();
    assert.equal(new Set(orders.map((o) => o.order_number)).size, orders.length, 'no order was created twice by a retried POST');
    assert.equal(orders.length, flows);

    // Every 2xx a client was given names a resource that exists, as it was told.
    await inParallel(flows, inFlight, async (n) => {
      const { client } = tenants[n % 2]!;
      const { orderId, shipment } = done[n]!;
      const order = await client.expect(200, 'GET', `/orders/${orderId}`);
      assert.equal(order.status, 'shipped');
      assert.equal(order.shipment_id, shipment.id, `${orderId} points at the label its client was sold`);
      const now = await client.expect(200, 'GET', `/shipments/${shipment.id}`);
      assert.equal(now.status, 'purchased');
      assert.equal(now.tracking_number, shipment.tracking_number);
    });

    for (const [i, tn] of tenants.entries()) {
      const mine = done.filter((_, n) => n % 2 === i);
      // A label claimed for its first tracking look by a killed worker is looked at again when the claim's minute
      // is up, and deliveries held by a killed worker go out again when their lease ends: allow for both.
      const delivered = await checkFlowEvents(tn, mine, 150_000);
      const again = [...delivered.values()].reduce((sum, count) => sum + count - 1, 0);
      t.diagnostic(`${tn.name}: ${delivered.size} events, all delivered; ${again} deliveries sent again after a crash (at least once allows it)`);
    }
    t.diagnostic(`whole test ${Date.now() - started} ms`);
  });
});
