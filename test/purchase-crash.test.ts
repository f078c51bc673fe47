import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapKey, freePort, processDatabase, startShipd } from './shipd-process.ts';
import { orderBody } from './fixtures.ts';
import { databaseUnderTest } from './harness.ts';

// A real shipd process, killed with SIGKILL in the middle of purchases and started again on the same database.

const shared = processDatabase();

// A purchase left pending is stale after the carrier time-out plus 5 s; keep the wait short.
const startShipdHere = (port: number) => startShipd(port, { ...shared.env(), SHIPD_CARRIER_TIMEOUT_MS: '1000' });

interface Attempt {
  orderId: string;
  idem: string;
  status: number | 'cut';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer as the client read it
  body?: any;
}

test('SIGKILL in the middle of purchases: no order with two labels, every 2xx has its shipment, the ledger balances', { timeout: 120_000 }, async () => {
  const db = shared.db();
  const port = await freePort();
  let shipd = await startShipdHere(port);
  const key = bootstrapKey(shipd);
  assert.ok(key, `the first start prints a test key: ${shipd.stdout()}`);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  const orders: string[] = [];
  for (let i = 0; i < 120; i++) {
    const res = await fetch(`${shipd.url}/api/integrations/v1/orders`, { method: 'POST', headers, body: JSON.stringify(orderBody({ order_number: `crash-${i}` })) });
    assert.equal(res.status, 201);
    orders.push(((await res.json()) as { id: string }).id);
  }

  // Two clients race for every order, each with its own Idempotency-Key, 16 requests in flight at a time.
  const attempts: Attempt[] = orders.flatMap((orderId, i) => [0, 1].map((c) => ({ orderId, idem: `crash-${i}-${c}`, status: 'cut' as const })));
  let next = 0;
  let answered = 0; // purchases that got their 201
  const worker = async () => {
    while (next < attempts.length) {
      const a = attempts[next++]!;
      try {
        const res = await fetch(`${shipd.url}/api/integrations/v1/shipments`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': a.idem },
          body: JSON.stringify({ order_id: a.orderId }),
        });
        const text = await res.text();
        a.status = res.status;
        a.body = JSON.parse(text);
        if (res.status === 201) answered++;
      } catch {
        a.status = 'cut';
      }
    }
  };
  const load = Promise.all(Array.from({ length: 16 }, worker));
  while (answered < 30) await new Promise((r) => setTimeout(r, 5));
  shipd.child.kill('SIGKILL');
  await load;
  await shipd.closed;

  const bought = attempts.filter((a) => a.status === 201);
  const cut = attempts.filter((a) => a.status === 'cut');
  assert.ok(bought.length >= 30, `${bought.length} purchases answered before the kill`);
  assert.ok(cut.length > 0, 'the kill cut some purchases off');
  for (const a of attempts) if (a.status !== 201 && a.status !== 'cut') assert.equal(a.body.code, 'order_already_shipped', JSON.stringify(a));

  // One snapshot for both reads: the reconcile job completes purchases (label and charge together) between them.
  const snapshot = <T>(read: (trx: typeof db) => Promise<T>) =>
    databaseUnderTest === 'postgres' ? db.transaction().setIsolationLevel('repeatable read').execute(read) : db.transaction().execute(read);
  const checkInvariants = () => snapshot((db) => invariantsIn(db));
  const invariantsIn = async (db: ReturnType<typeof shared.db>) => {
    const active = await db.selectFrom('shipments').select(['order_id', 'status', 'id', 'postage_cents']).where('is_return', '=', 0).where('status', 'in', ['pending', 'purchased']).execute();
    const perOrder = new Map<string, number>();
    for (const s of active) perOrder.set(s.order_id, (perOrder.get(s.order_id) ?? 0) + 1);
    assert.deepEqual([...perOrder.values()].filter((n) => n > 1), [], 'no order has two active labels');
    const charged = await db.selectFrom('postage_ledger').select(['shipment_id', 'amount_cents']).execute();
    const purchased = active.filter((s) => s.status === 'purchased');
    assert.equal(
      charged.reduce((sum, l) => sum + l.amount_cents, 0),
      purchased.reduce((sum, s) => sum + (s.postage_cents ?? 0), 0),
      'the ledger holds exactly the postage of the labels bought',
    );
    assert.equal(new Set(charged.map((l) => l.shipment_id)).size, charged.length, 'no shipment is charged twice');
    return { pending: active.filter((s) => s.status === 'pending').length };
  };
  await checkInvariants();

  shipd = await startShipdHere(port);
  try {
    // Every 2xx the client got names a shipment that exists, bought, with the label it was told of.
    for (const a of bought) {
      const res = await fetch(`${shipd.url}/api/integrations/v1/shipments/${a.body.id}`, { headers });
      assert.equal(res.status, 200);
      const shp = (await res.json()) as { status: string; tracking_number: string; order_id: string };
      assert.equal(shp.status, 'purchased');
      assert.equal(shp.tracking_number, a.body.tracking_number);
      assert.equal(shp.order_id, a.orderId);
    }

    // Purchases the crash left pending are finished by the reconcile job once stale.
    const deadline = Date.now() + 60_000;
    while ((await checkInvariants()).pending > 0) {
      assert.ok(Date.now() < deadline, 'pending purchases were reconciled');
      await new Promise((r) => setTimeout(r, 250));
    }
    const orderRows = await db.selectFrom('orders').select(['id', 'status', 'shipment_id']).where('order_number', 'like', 'crash-%').execute();
    const purchased = await db.selectFrom('shipments').select(['id', 'order_id']).where('status', '=', 'purchased').execute();
    const labelOf = new Map(purchased.map((s) => [s.order_id, s.id]));
    for (const o of orderRows) {
      if (o.status === 'shipped') assert.equal(o.shipment_id, labelOf.get(o.id), `${o.id} points at its one label`);
      else assert.equal(labelOf.get(o.id), undefined, `${o.id} is ${o.status} with no label`);
    }

    // A client retrying a cut-off request with its Idempotency-Key gets the label its key bought, or learns the other key won.
    // The claims of the killed process lapse after twice the carrier time-out plus 10 s; until then a retry hears 409.
    const retry = async (a: Attempt) => {
      for (;;) {
        const res = await fetch(`${shipd.url}/api/integrations/v1/shipments`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': a.idem },
          body: JSON.stringify({ order_id: a.orderId }),
        });
        const body = (await res.json()) as { id?: string; code?: string };
        if (body.code !== 'idempotency_key_in_use') return { res, body };
        assert.ok(Date.now() < deadline, 'claims of the killed process lapse');
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    for (const a of cut) {
      const { res, body } = await retry(a);
      if (res.status === 201) assert.equal(body.id, labelOf.get(a.orderId) ?? body.id);
      else assert.equal(body.code, 'order_already_shipped', JSON.stringify(body));
    }
    await checkInvariants();
    const after = await db.selectFrom('shipments').select(['order_id']).where('is_return', '=', 0).where('status', 'in', ['pending', 'purchased']).execute();
    assert.equal(new Set(after.map((s) => s.order_id)).size, after.length);
  } finally {
    shipd.child.kill('SIGTERM');
    await shipd.closed;
  }
});
