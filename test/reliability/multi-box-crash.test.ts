import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapKey, freePort, processDatabase, startShipd } from '../shipd-process.ts';
import { austin, orderBody, sanFrancisco } from '../fixtures.ts';
import { SimulatedCarrier } from '../../src/carriers/sim/simulator.ts';
import { simTables } from '../../src/carriers/sim/tables.ts';
import { systemClock } from '../../src/kernel/clock.ts';

// USPS sells one label per call, so a shipment of several boxes is bought box after box. A shipd process is
// SIGKILLed after the first box of each purchase is sold and before the last one is, then started again on the same
// database: its reconcile job must end every purchase with all its boxes bought and charged once, or with nothing
// bought and nothing charged, and never sell a box twice. The last order's third box is refused by the carrier
// (its recipient's magic name), so its purchase must end with nothing.

const shared = processDatabase();

// Each test-mode label takes labelMs, so that a kill 1.5 × labelMs after every purchase is recorded pending (just
// before its carrier call) lands between box 1 and box 2 of each. A purchase left pending is stale after the carrier
// time-out plus 5 s.
const labelMs = 1_500;
const boxes = 3;
const startShipdHere = (port: number) => startShipd(port, { ...shared.env(), SHIPD_CARRIER_TIMEOUT_MS: String((boxes + 1) * labelMs), SHIPD_SIM_LABEL_MS: String(labelMs) });

const box = (lb: number) => ({ weight: { value: lb, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4 + lb, unit: 'in' } });
const parcels = Array.from({ length: boxes }, (_, i) => box(i + 1));
const service = 'USPS_GROUND_ADVANTAGE';

/** The tracking numbers the simulator sells for each box of a purchase under its key: the same on every ask. */
async function soldUnder(key: string, quotedCents: number): Promise<string[]> {
  const usps = new SimulatedCarrier(simTables.find((t) => t.id === 'usps')!, systemClock, { trackingSpeed: 1440 });
  const sold = await usps.purchase(
    {
      from: { ...austin, country: 'US' },
      to: { ...sanFrancisco, country: 'US' },
      parcels: parcels.map((p) => ({ weightLb: p.weight.value, dimensionsIn: p.dimensions })),
      shipDate: new Date(),
      service,
      quotedCents,
      labelFormat: 'pdf',
      isReturn: false,
      idempotencyKey: key,
    },
    new AbortController().signal,
  );
  assert.ok(sold.ok, JSON.stringify(sold));
  return sold.value.packages!.map((p) => p.trackingNumber);
}

test(`SIGKILL between the boxes of ${boxes}-box USPS purchases: each ends with every box bought and charged once, or nothing`, { timeout: 120_000 }, async () => {
  const db = shared.db();
  const port = await freePort();
  let shipd = await startShipdHere(port);
  try {
    const key = bootstrapKey(shipd);
    assert.ok(key, `the first start prints a test key: ${shipd.stdout()}`);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

    const orders: string[] = [];
    const refused = 3;
    for (let i = 0; i <= refused; i++) {
      const to = i === refused ? { ship_to: { ...sanFrancisco, name: `Box ${boxes} fails USPS` } } : {};
      const body = orderBody({ order_number: `boxes-crash-${i}`, parcel: undefined, parcels, requested_service: { carrier: 'usps', service }, ...to });
      const res = await fetch(`${shipd.url}/api/integrations/v1/orders`, { method: 'POST', headers, body: JSON.stringify(body) });
      assert.equal(res.status, 201, await res.clone().text());
      orders.push(((await res.json()) as { id: string }).id);
    }

    const answers = orders.map((orderId, i) =>
      fetch(`${shipd.url}/api/integrations/v1/shipments`, { method: 'POST', headers: { ...headers, 'idempotency-key': `boxes-crash-${i}` }, body: JSON.stringify({ order_id: orderId }) }).then(
        (res) => res.status,
        () => 'cut' as const,
      ),
    );
    const pending = () => db.selectFrom('shipments').select('id').where('order_id', 'in', orders).where('status', '=', 'pending').execute();
    const asked = Date.now() + 30_000;
    while ((await pending()).length < orders.length) {
      assert.ok(Date.now() < asked, 'every purchase reached its carrier call');
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 1.5 * labelMs));
    shipd.child.kill('SIGKILL');
    assert.deepEqual(await Promise.all(answers), orders.map(() => 'cut'), 'the kill cut every purchase off');
    await shipd.closed;

    const cutOff = await db.selectFrom('shipments').select(['id', 'status']).where('order_id', 'in', orders).execute();
    assert.deepEqual(cutOff.map((s) => s.status), orders.map(() => 'pending'), 'every purchase was between its boxes when killed');
    assert.deepEqual(await db.selectFrom('postage_ledger').select('id').execute(), [], 'nothing was charged before the last box');

    shipd = await startShipdHere(port);
    const deadline = Date.now() + 60_000;
    while ((await db.selectFrom('shipments').select('id').where('status', '=', 'pending').execute()).length > 0) {
      assert.ok(Date.now() < deadline, 'the reconcile job decided every pending purchase');
      await new Promise((r) => setTimeout(r, 250));
    }

    const ends: string[] = [];
    for (const orderId of orders) {
      const order = await (await fetch(`${shipd.url}/api/integrations/v1/orders/${orderId}`, { headers })).json() as { status: string; shipment_id: string | null };
      const rows = await db.selectFrom('shipments').select(['id', 'status', 'postage_cents', 'quoted_cents']).where('order_id', '=', orderId).execute();
      assert.equal(rows.length, 1, 'a purchase is finished under its own key, never bought afresh');
      const row = rows[0]!;
      const charged = await db.selectFrom('postage_ledger').select(['kind', 'amount_cents']).where('shipment_id', '=', row.id).execute();
      ends.push(row.status);
      if (row.status !== 'purchased') {
        assert.deepEqual(charged, [], `${row.id} is ${row.status} and charged nothing`);
        assert.equal(order.status, 'incomplete');
        continue;
      }
      const res = await fetch(`${shipd.url}/api/integrations/v1/shipments/${row.id}`, { headers });
      const shipment = (await res.json()) as { packages: { tracking_number: string; label_url: string }[]; tracking_number: string };
      assert.equal(shipment.packages.length, boxes, 'every box has its label');
      for (const p of shipment.packages) assert.ok(p.label_url, `${p.tracking_number} has a label`);
      assert.deepEqual(
        shipment.packages.map((p) => p.tracking_number),
        await soldUnder(row.id, row.quoted_cents),
        "each box is the label the carrier sold under that box's key: box 1 was got back, not bought again",
      );
      assert.deepEqual(charged, [{ kind: 'charge', amount_cents: row.postage_cents }], 'one charge for the whole postage');
      assert.equal(order.status, 'shipped');
      assert.equal(order.shipment_id, row.id);
    }
    // The simulator sells every box it is asked for but the refused one, so the reconcile job finishes all the
    // others, and undoes the refused one's boxes.
    assert.deepEqual(ends, orders.map((_, i) => (i === refused ? 'failed' : 'purchased')));
  } finally {
    if (shipd.child.exitCode === null && shipd.child.signalCode === null) {
      shipd.child.kill('SIGTERM');
      await shipd.closed;
    }
  }
});
