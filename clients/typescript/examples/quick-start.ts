import { writeFile } from 'node:fs/promises';
import { createShipdClient, unwrap } from '../src/index.ts';

const shipd = createShipdClient({ apiKey: process.env.SHIPD_KEY!, baseUrl: process.env.SHIPD_URL ?? 'http://localhost:8080' });

// 1. An order: the addresses, the items and the parcel. Its Idempotency-Key is made for you.
const order = unwrap(await shipd.POST('/orders', {
  body: {
    order_number: '1042',
    ship_to: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
    ship_from: { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
    items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' } }],
    parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
  },
}));

// 2. Rates from every carrier, cheapest first.
const { rates } = unwrap(await shipd.POST('/rates', { body: { order_id: order.id } }));

// 3. Buy the cheapest, and save the label.
const shipment = unwrap(await shipd.POST('/shipments', { body: { order_id: order.id, rate_id: rates[0]!.id, label_format: 'pdf' } }));
await writeFile('label.pdf', Buffer.from(await (await fetch(shipment.label_url!)).arrayBuffer()));
console.log(`${shipment.service_name} ${shipment.tracking_number}: ${shipment.postage.amount} ${shipment.postage.currency}`);

// 4. The shipment as it stands, and where the parcel is.
const { status } = unwrap(await shipd.GET('/shipments/{id}', { params: { path: { id: shipment.id } } }));
const tracker = unwrap(await shipd.POST('/tracking', { body: { order_id: order.id } }));
console.log(`${status}; ${tracker.status}: ${tracker.status_detail}`);
