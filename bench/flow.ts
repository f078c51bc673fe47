// npm run bench:flow — the order push flow end to end on SQLite: create an order, shop its rates, buy the
// cheapest rate of UPS, USPS and FedEx in turn, download the PDF label. Flows per second are printed beside the label renderer's own rate (PDF
// labels rendered per second in this process, in the same run). Goal: at least 100 flows/s, and the flow at
// least 0.6 of the renderer's rate.
import { labelsPerSecond } from './label-renderer.ts';
import { startShipd } from './lib.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

const shipd = await startShipd();
const api = `${shipd.url}/api/integrations/v1`;
const headers = { authorization: `Bearer ${shipd.key}`, 'content-type': 'application/json' };
const order = {
  ship_from: { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' } }],
  parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
};

type Answer = { id: string; rates: { id: string; carrier: string }[]; label_url: string };

async function call(method: string, url: string, body?: unknown): Promise<Answer> {
  const res = await fetch(url, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
  return res.json() as Promise<Answer>;
}

// Flows take the carriers in turn, as the renderer's own measure does, so both render the same mix of labels
// (a UPS label, with its MaxiCode, costs twice a USPS one).
const carriers = ['ups', 'usps', 'fedex'];

/** One whole flow, and the bytes of the label it ends with. */
async function flow(n: number): Promise<number> {
  const created = await call('POST', `${api}/orders`, { ...order, order_number: `bench-${n}` });
  const shop = await call('POST', `${api}/rates`, { order_id: created.id });
  const cheapest = shop.rates.find((r) => r.carrier === carriers[Math.abs(n) % carriers.length])!;
  const shipment = await call('POST', `${api}/shipments`, { order_id: created.id, rate_id: cheapest.id });
  const label = new URL(shipment.label_url);
  const res = await fetch(`${shipd.url}${label.pathname}${label.search}`);
  const pdf = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200 || pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error(`the label answered ${res.status}`);
  return pdf.length;
}

for (let i = 0; i < 20; i++) await flow(-i);
let started = 0;
const latencies: number[] = [];
const begin = performance.now();
const end = begin + seconds * 1000;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await flow(started++);
      latencies.push(performance.now() - t);
    }
  }),
);
const flowsPerSecond = latencies.length / ((performance.now() - begin) / 1000);
await shipd.stop();

const rendered = await labelsPerSecond('pdf', seconds);
latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(0);
const ratio = flowsPerSecond / rendered;
console.error(`order → rates → buy → PDF label, SQLite, ${concurrency} flows in flight, ${seconds} s`);
console.error(`flows            ${flowsPerSecond.toFixed(0).padStart(6)} /s   p50 ${p(0.5)} ms   p99 ${p(0.99)} ms   (${latencies.length} flows)`);
console.error(`label renderer   ${rendered.toFixed(0).padStart(6)} PDF labels/s in one process`);
console.error(`ratio ${ratio.toFixed(2)} (goal ≥ 0.60)   flows ${flowsPerSecond.toFixed(0)}/s (goal ≥ 100)`);
