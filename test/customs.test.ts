import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import { setPaymentMethod } from '../src/domain/billing/payment-methods.ts';
import { DashboardClient, accountWithUser, password } from './dashboard/client.ts';

// Customs declarations: kept with orders (built from their line items), sent with rate requests, required where a
// parcel crosses a customs border, and checked field by field before anything is stored or any carrier is asked.

let server: TestServer;
let account: string;
let key: string;

before(async () => {
  server = await startServer({ idempotencyWaitMs: 20_000 });
  account = await server.account();
  await setPaymentMethod(server.services.database.db, server.clock, account, 'test', 'pm_test_visa');
  key = (await server.key(account)).secret;
});
after(() => server.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const toronto = { name: 'Jean Tremblay', street1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA', phone: '+1 416 555 0142' };
const london = { name: 'Charles Babbage', street1: '10 Downing Street', city: 'London', zip: 'SW1A 2AA', country: 'GB', phone: '+44 20 7946 0000' };
const guam = { name: 'Maria Cruz', street1: '176 Serenu Ave', city: 'Hagatna', state: 'GU', zip: '96910' };
const apo = { name: 'SGT John Doe', street1: 'Unit 2050 Box 4190', city: 'APO', state: 'AE', zip: '09001' };
const kolonia = { name: 'Kasio Mida', street1: 'PO Box 100', city: 'Pohnpei', state: 'FM', zip: '96941' };

const mug = { sku: 'MUG-1', name: 'Stoneware mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' } };
const header = { contents_type: 'merchandise', non_delivery: 'return', invoice_number: 'INV-1042', signer: 'Grace Hopper', certify: true };
const mugLine = { sku: 'MUG-1', hs_tariff_number: '6912.00', origin_country: 'us' };
const mugItem = { description: 'Stoneware mug', quantity: 2, unit_value: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' }, hs_tariff_number: '691200', origin_country: 'US' };
/** A complete declaration, as a rate request without an order sends it. */
const declaration = (overrides: Json = {}, item: Json = {}) => ({ ...header, items: [{ ...mugItem, ...item }], ...overrides });

const order = (overrides: Json = {}) => orderBody({ ship_to: toronto, items: [mug], customs: { ...header, items: [mugLine] }, ...overrides });
const create = (body: Json, k = key) => server.request('POST', '/orders', { key: k, body });

describe('a declaration kept with its order', () => {
  test('an item names its line item by sku and gives only what the line lacks; the order keeps it whole and answers it on GET', async () => {
    const res = await create(order());
    assert.equal(res.status, 201, res.text);
    const expected = { ...header, incoterm: 'DAP', items: [{ ...mugItem, sku: 'MUG-1' }] };
    assert.deepEqual(res.body.customs, expected);
    assert.deepEqual((await server.request('GET', `/orders/${res.body.id}`, { key })).body.customs, expected);
    const events = (await server.request('GET', '/events?type=order.created&limit=100', { key })).body.data;
    assert.deepEqual(events.find((e: Json) => e.data.id === res.body.id).data.customs, expected);
  });

  test('what an item gives overrides its line item; an item of no line item gives every field', async () => {
    const extra = { description: 'Cotton tea towel', quantity: 1, unit_value: { amount: '8.00', currency: 'USD' }, weight: { value: 3, unit: 'oz' }, hs_tariff_number: '6302.60', origin_country: 'PT' };
    const res = await create(order({ customs: { ...header, incoterm: 'DDP', items: [{ ...mugLine, quantity: 1, description: 'Stoneware coffee mug' }, extra] } }));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.customs.incoterm, 'DDP');
    assert.deepEqual(res.body.customs.items, [
      { ...mugItem, quantity: 1, description: 'Stoneware coffee mug', sku: 'MUG-1' },
      { ...extra, hs_tariff_number: '630260' },
    ]);
  });

  test('PATCH replaces the declaration whole, null removes it, and a lighter parcel than its items is refused at /parcel', async () => {
    const created = (await create(order())).body;
    const replaced = await server.request('PATCH', `/orders/${created.id}`, { key, body: { customs: declaration({ contents_type: 'gift', invoice_number: undefined }) } });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.body.customs.contents_type, 'gift');
    assert.equal(replaced.body.customs.invoice_number, undefined);
    const light = problem(await server.request('PATCH', `/orders/${created.id}`, { key, body: { parcel: { weight: { value: 1, unit: 'lb' } } } }), 400, 'validation_failed');
    assert.deepEqual(light.errors.map((e: Json) => e.pointer), ['/parcel/weight/value']);
    assert.match(light.errors[0].detail, /the customs items weigh 1.75 lb in all, more than the parcel's 1 lb/);
    const cleared = await server.request('PATCH', `/orders/${created.id}`, { key, body: { customs: null } });
    assert.equal(cleared.body.customs, null);
  });

  test('over $2,500 per Schedule B number: to Canada no ITN is needed (15 CFR 30.36); abroad elsewhere the ITN is kept as X and 14 digits', async () => {
    const laptops = { description: 'Laptop computer', quantity: 2, unit_value: { amount: '1500.00', currency: 'USD' }, weight: { value: 2, unit: 'kg' }, hs_tariff_number: '8471.30.0100', origin_country: 'CN' };
    const parcel = { weight: { value: 10, unit: 'lb' } };
    assert.equal((await create(order({ parcel, customs: { ...header, items: [laptops] } }))).status, 201);
    const abroad = await create(order({ ship_to: london, parcel, customs: { ...header, aes_itn: 'AES x20261123123456', items: [laptops] } }));
    assert.equal(abroad.status, 201, abroad.text);
    assert.equal(abroad.body.customs.aes_itn, 'X20261123123456');
    // The same value across two Schedule B numbers, each under the threshold, needs none.
    const split = [{ ...laptops, quantity: 1 }, { ...laptops, quantity: 1, description: 'Laptop docking station', hs_tariff_number: '847330' }];
    assert.equal((await create(order({ ship_to: london, parcel, customs: { ...header, eel_pfc: 'noeei 30.37(A)', items: split } }))).status, 201);
  });

  test('documents may be declared without a value', async () => {
    const res = await create(order({ customs: declaration({ contents_type: 'documents' }, { description: 'Signed contract', unit_value: { amount: '0', currency: 'USD' }, hs_tariff_number: '490199' }) }));
    assert.equal(res.status, 201, res.text);
  });

  test('values in another currency are kept in it, with their own minor units', async () => {
    const yen = declaration({ eel_pfc: 'NOEEI 30.37(a)' }, { unit_value: { amount: '1800', currency: 'jpy' } });
    const res = await create(order({ ship_to: london, customs: yen }));
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.customs.items[0].unit_value, { amount: '1800', currency: 'JPY' });
  });
});

describe('where USPS asks for a declaration within the US', () => {
  test('an order to an APO, Guam or Micronesia is bought once it has its declaration; a retry with the same key then goes on', async () => {
    for (const ship_to of [apo, guam, kolonia]) {
      const created = (await create(orderBody({ ship_to, items: [mug] }))).body;
      const idem = `customs-${ship_to.state}`;
      const refused = problem(await server.request('POST', '/shipments', { key, body: { order_id: created.id }, headers: { 'idempotency-key': idem } }), 400, 'customs_required');
      assert.deepEqual(refused.errors.map((e: Json) => e.pointer), ['/order_id']);
      assert.match(refused.errors[0].detail, /whose customs is required: USPS asks for a customs form/);
      const patched = await server.request('PATCH', `/orders/${created.id}`, { key, body: { customs: { ...header, items: [mugLine] } } });
      assert.equal(patched.status, 200, patched.text);
      const bought = await server.request('POST', '/shipments', { key, body: { order_id: created.id }, headers: { 'idempotency-key': idem } });
      assert.equal(bought.status, 201, bought.text);
      assert.equal(bought.body.carrier, 'usps');
    }
  });

  test('Puerto Rico needs none, and neither does the mainland', async () => {
    const created = (await create(orderBody({ ship_to: { street1: '100 Calle Fortaleza', city: 'San Juan', state: 'PR', zip: '00901' } }))).body;
    assert.equal((await server.request('POST', '/rates', { key, body: { order_id: created.id } })).status, 200);
  });

  test('EEI to Puerto Rico and the Virgin Islands as abroad, not to Guam: over $2,500 per Schedule B number an ITN or an exemption is needed', async () => {
    const sanJuan = { name: 'Ana Rivera', street1: '100 Calle Fortaleza', city: 'San Juan', state: 'PR', zip: '00901' };
    const stThomas = { name: 'Eric Holder', street1: '1 Main St', city: 'Charlotte Amalie', state: 'VI', zip: '00802' };
    const dear = { ...mugItem, description: 'Laptop computer', quantity: 2, unit_value: { amount: '1500.00', currency: 'USD' }, weight: { value: 2, unit: 'lb' }, hs_tariff_number: '847130' };
    const parcel = { weight: { value: 6, unit: 'lb' } };
    for (const ship_to of [sanJuan, stThomas]) {
      const refused = problem(await create(orderBody({ ship_to, parcel, customs: { ...header, items: [dear] } })), 400, 'customs_invalid');
      assert.deepEqual(refused.errors.map((e: Json) => e.pointer), ['/customs/aes_itn'], ship_to.state);
      assert.match(refused.errors[0].detail, /the items of HS 847130 are worth \$3,000\.00, over the \$2,500 per Schedule B number/);
      assert.equal((await create(orderBody({ ship_to, parcel, customs: { ...header, aes_itn: 'X20261127123456', items: [dear] } }))).status, 201, ship_to.state);
    }
    // Guam and the other possessions need no EEI (19 CFR 122.79(a)).
    assert.equal((await create(orderBody({ ship_to: guam, parcel, customs: { ...header, items: [dear] } }))).status, 201);

    // Without a declaration, an order to Puerto Rico worth over $2,500 cannot be measured by Schedule B number: it must declare.
    const laptops = { sku: 'LAP-1', name: 'Laptop computer', quantity: 2, unit_price: { amount: '1500.00', currency: 'USD' } };
    const undeclared = (await create(orderBody({ ship_to: sanJuan, parcel, items: [laptops] }))).body;
    const asked = problem(await server.request('POST', '/rates', { key, body: { order_id: undeclared.id } }), 400, 'customs_required');
    assert.deepEqual(asked.errors.map((e: Json) => e.pointer), ['/order_id']);
    assert.match(asked.errors[0].detail, /items are worth \$3000\.00, and shipments to Puerto Rico need EEI filed/);
    problem(await server.request('POST', '/shipments', { key, body: { order_id: undeclared.id } }), 400, 'customs_required');
    assert.equal((await server.request('GET', `/orders/${undeclared.id}`, { key })).body.status, 'incomplete');
    // Up to $2,500 it goes as today.
    const cheap = (await create(orderBody({ ship_to: sanJuan, parcel, items: [{ ...laptops, quantity: 1 }] }))).body;
    assert.equal((await server.request('POST', '/rates', { key, body: { order_id: cheap.id } })).status, 200);
  });
});

/** Rows a refused request could have written, for the key that sent it and its account. */
async function written(keyId: string, accountId: string): Promise<Record<string, number>> {
  const db = server.services.database.db;
  const count = async (table: 'orders' | 'events' | 'rate_shops' | 'shipments' | 'idempotency_keys') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('owner_key_id', '=', keyId).executeTakeFirstOrThrow()).n);
  const ledger = await db.selectFrom('postage_ledger').select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return {
    orders: await count('orders'),
    events: await count('events'),
    rate_shops: await count('rate_shops'),
    shipments: await count('shipments'),
    idempotency_keys: await count('idempotency_keys'),
    ledger: Number(ledger.n),
  };
}

describe('bad international requests: each refused at its field, before anything is stored or a carrier is asked', () => {
  // An account of its own, able to pay, so that nothing but the refusals keeps a label from being bought.
  let refusingAccount: string;
  let refusingKey: { id: string; secret: string };
  let caOrder: string;
  let caNoCustoms: string;
  let caNoPhone: string;
  before(async () => {
    refusingAccount = await server.account();
    await setPaymentMethod(server.services.database.db, server.clock, refusingAccount, 'test', 'pm_test_visa');
    refusingKey = await server.key(refusingAccount);
    caOrder = (await create(order(), refusingKey.secret)).body.id;
    caNoCustoms = (await create(order({ customs: undefined }), refusingKey.secret)).body.id;
    caNoPhone = (await create(order({ ship_to: { ...toronto, phone: undefined } }), refusingKey.secret)).body.id;
  });

  const laptops = { description: 'Laptop computer', quantity: 2, unit_value: { amount: '1500.00', currency: 'USD' }, weight: { value: 2, unit: 'kg' }, hs_tariff_number: '847130', origin_country: 'CN' };
  const heavy = { weight: { value: 10, unit: 'lb' } };

  type Case = [name: string, send: () => [method: string, path: string, body: Json], status: number, code: string, pointer: string, detail: RegExp];
  const newOrder = (body: Json): ReturnType<Case[1]> => ['POST', '/orders', body];
  const rating = (body: Json): ReturnType<Case[1]> => ['POST', '/rates', { ship_from: austin, parcel: { weight: { value: 2, unit: 'lb' } }, ...body }];
  const cases: Case[] = [
    // Addresses abroad.
    ['a Canadian address without its province', () => newOrder(order({ ship_to: { ...toronto, state: undefined } })), 400, 'validation_failed', '/ship_to/state', /is required for an address in Canada: the code of its province or territory, such as AB/],
    ['a province that is none', () => newOrder(order({ ship_to: { ...toronto, state: 'XX' } })), 400, 'validation_failed', '/ship_to/state', /"XX" is not a province or territory of Canada; give one of AB, BC/],
    ['a British postcode in Canada', () => newOrder(order({ ship_to: { ...toronto, zip: 'SW1A 1AA' } })), 400, 'validation_failed', '/ship_to/zip', /"SW1A 1AA" is not a postal code of Canada \(they look like K1A 0B1\)/],
    ['a Canadian postal code in the United Kingdom', () => newOrder(order({ ship_to: { ...london, zip: 'K1A 0B1' } })), 400, 'validation_failed', '/ship_to/zip', /is not a postal code of the United Kingdom \(they look like SW1A 1AA\)/],
    ['a Japanese postal code too short', () => newOrder(order({ ship_to: { ...london, city: 'Tokyo', zip: '1000', country: 'JP' } })), 400, 'validation_failed', '/ship_to/zip', /"1000" is not a postal code of Japan \(they look like 100-0001\)/],
    ['a German address without its postal code', () => newOrder(order({ ship_to: { ...london, city: 'Berlin', zip: undefined, country: 'DE' } })), 400, 'validation_failed', '/ship_to/zip', /is required for an address in Germany/],
    ['a Dutch postcode without its letters', () => newOrder(order({ ship_to: { ...london, city: 'Amsterdam', zip: '1012', country: 'NL' } })), 400, 'validation_failed', '/ship_to/zip', /is not a postal code of the Netherlands/],
    ['an Australian city for a state', () => newOrder(order({ ship_to: { ...london, city: 'Sydney', state: 'Sydney', zip: '2000', country: 'AU' } })), 400, 'validation_failed', '/ship_to/state', /is not a state or territory of Australia/],
    ['a Mexican address without its state', () => newOrder(order({ ship_to: { ...london, city: 'Monterrey', zip: '64000', country: 'MX' } })), 400, 'validation_failed', '/ship_to/state', /is required for an address in Mexico/],
    ['an Indian state by an old name', () => newOrder(order({ ship_to: { ...london, city: 'Mumbai', state: 'Bombay', zip: '400020', country: 'IN' } })), 400, 'validation_failed', '/ship_to/state', /"Bombay" is not a state or union territory of India/],
    ['a Brazilian CEP of three digits', () => newOrder(order({ ship_to: { ...london, city: 'São Paulo', state: 'SP', zip: '013', country: 'BR' } })), 400, 'validation_failed', '/ship_to/zip', /is not a postal code of Brazil/],
    ['a country code that is none', () => newOrder(order({ ship_to: { ...london, country: 'ZZ' } })), 400, 'validation_failed', '/ship_to/country', /"ZZ" is not an ISO 3166-1 alpha-2 country code/],
    ['a three-letter country', () => newOrder(order({ ship_to: { ...london, country: 'GBR' } })), 400, 'validation_failed', '/ship_to/country', /must match pattern/],
    ['Puerto Rico as a country with another state', () => newOrder(order({ ship_to: { street1: '100 Calle Fortaleza', city: 'San Juan', state: 'NY', zip: '00901', country: 'PR' } })), 400, 'validation_failed', '/ship_to/state', /PR \(Puerto Rico\) is served as a US address with state PR/],
    ['a US address in lower case with a short ZIP', () => newOrder(order({ ship_to: { street1: '1 Main St', city: 'Austin', state: 'TX', zip: '7870', country: 'us' } })), 400, 'validation_failed', '/ship_to/zip', /must match pattern/],
    ['a ship-from abroad', () => newOrder(order({ ship_from: { ...toronto, name: 'Maple Mugs' } })), 400, 'validation_failed', '/ship_from/country', /is CA: shipd ships from the United States .* only/],
    ['a rate request from abroad', () => rating({ ship_from: london, ship_to: toronto, customs: declaration() }), 400, 'validation_failed', '/ship_from/country', /shipd ships from the United States/],
    // Declarations missing or at fault.
    ['a rate request to Canada without customs', () => rating({ ship_to: toronto }), 400, 'customs_required', '/customs', /is required: the parcel crosses the border of Canada/],
    ['a rate request to an APO without customs', () => rating({ ship_to: apo }), 400, 'customs_required', '/customs', /APO, FPO and DPO addresses \(DMM 703.2.3.6/],
    ['a rate request to Guam without customs', () => rating({ ship_to: guam }), 400, 'customs_required', '/customs', /to or from Guam, which has customs of its own \(DMM 608.2.4\)/],
    ['a recipient abroad without a phone', () => rating({ ship_to: { ...toronto, phone: undefined }, customs: declaration() }), 400, 'validation_failed', '/ship_to/phone', /is required for a recipient in Canada: UPS and FedEx need a phone number/],
    ['a rate request whose declaration has no items', () => rating({ ship_to: toronto, customs: { ...header } }), 400, 'customs_invalid', '/customs/items', /a rate request has no line items to build the declaration from/],
    ['an order declaration without items', () => newOrder(order({ customs: { ...header } })), 400, 'customs_invalid', '/customs/items', /send one item per line item, as \{ "sku", "hs_tariff_number", "origin_country" \}/],
    ['an item naming a sku the order does not have', () => newOrder(order({ customs: { ...header, items: [{ ...mugLine, sku: 'CUP-9' }] } })), 400, 'customs_invalid', '/customs/items/0/description', /no line item of the order has sku "CUP-9"/],
    ['an HS number of 5 digits', () => newOrder(order({ customs: { ...header, items: [{ ...mugLine, hs_tariff_number: '69120' }] } })), 400, 'customs_invalid', '/customs/items/0/hs_tariff_number', /"69120" is not an HS tariff number: it has 6 to 10 digits/],
    ['an HS number of 11 digits', () => rating({ ship_to: toronto, customs: declaration({}, { hs_tariff_number: '6912.00.48101' }) }), 400, 'customs_invalid', '/customs/items/0/hs_tariff_number', /"69120048101" is not an HS tariff number/],
    ['an HS number with letters', () => rating({ ship_to: toronto, customs: declaration({}, { hs_tariff_number: 'MUGS01' }) }), 400, 'customs_invalid', '/customs/items/0/hs_tariff_number', /is not an HS tariff number/],
    ['an origin country that is none', () => rating({ ship_to: toronto, customs: declaration({}, { origin_country: 'XX' }) }), 400, 'customs_invalid', '/customs/items/0/origin_country', /"XX" is not an ISO 3166-1 alpha-2 country code/],
    ['"other" contents without an explanation', () => rating({ ship_to: toronto, customs: declaration({ contents_type: 'other' }) }), 400, 'customs_invalid', '/customs/contents_explanation', /is required when contents_type is "other"/],
    ['a description that says nothing', () => rating({ ship_to: toronto, customs: declaration({}, { description: 'Gift' }) }), 400, 'customs_invalid', '/customs/items/0/description', /"Gift" does not say what the item is/],
    ['values in two currencies', () => rating({ ship_to: toronto, customs: { ...header, items: [mugItem, { ...mugItem, unit_value: { amount: '9.00', currency: 'EUR' } }] } }), 400, 'customs_invalid', '/customs/items/1/unit_value/currency', /is EUR, but the first item is in USD: a declaration is in one currency/],
    ['a currency that is none', () => rating({ ship_to: toronto, customs: declaration({}, { unit_value: { amount: '9.00', currency: 'ABC' } }) }), 400, 'customs_invalid', '/customs/items/0/unit_value/currency', /"ABC" is not an ISO 4217 currency code/],
    ['yen with decimals', () => rating({ ship_to: toronto, customs: declaration({}, { unit_value: { amount: '1800.50', currency: 'JPY' } }) }), 400, 'customs_invalid', '/customs/items/0/unit_value/amount', /has 2 decimals; JPY has none/],
    ['merchandise declared without value', () => rating({ ship_to: toronto, customs: declaration({}, { unit_value: { amount: '0.00', currency: 'USD' } }) }), 400, 'customs_invalid', '/customs/items/0/unit_value/amount', /must be more than 0: only documents may be declared without a value/],
    ['items heavier than the parcel', () => rating({ ship_to: toronto, customs: declaration({}, { quantity: 5 }) }), 400, 'customs_invalid', '/customs/items', /the customs items weigh 4.38 lb in all, more than the parcel's 2 lb/],
    ['over $2,500 of one Schedule B number abroad without an ITN', () => rating({ ship_to: london, parcel: heavy, customs: { ...header, items: [laptops] } }), 400, 'customs_invalid', '/customs/aes_itn', /is required: the items of HS 847130 are worth \$3,000.00, over the \$2,500 per Schedule B number/],
    ['the low-value exemption cited over $2,500', () => rating({ ship_to: toronto, parcel: heavy, customs: { ...header, eel_pfc: 'NOEEI 30.37(a)', items: [laptops] } }), 400, 'customs_invalid', '/customs/eel_pfc', /cites NOEEI 30.37\(a\), but the items of HS 847130 are worth \$3,000.00.*; to Canada cite NOEEI 30.36/],
    ['an ITN of the wrong shape', () => rating({ ship_to: london, parcel: heavy, customs: { ...header, aes_itn: 'X2026', items: [laptops] } }), 400, 'customs_invalid', '/customs/aes_itn', /"X2026" is not an ITN: it is X and 14 digits/],
    ['an exemption that is no FTR citation', () => rating({ ship_to: london, customs: declaration({ eel_pfc: 'EXEMPT' }) }), 400, 'customs_invalid', '/customs/eel_pfc', /"EXEMPT" is not an exemption as the Foreign Trade Regulations cite it/],
    ['an exemption and an ITN both', () => rating({ ship_to: london, customs: declaration({ eel_pfc: 'NOEEI 30.37(a)', aes_itn: 'X20261123123456' }) }), 400, 'customs_invalid', '/customs/eel_pfc', /not both/],
    ['euros abroad with no filing said', () => rating({ ship_to: london, customs: declaration({}, { unit_value: { amount: '11.00', currency: 'EUR' } }) }), 400, 'customs_invalid', '/customs/eel_pfc', /is required of a declaration in EUR: .*cite NOEEI 30.37\(a\) if none is/],
    ['certify false', () => rating({ ship_to: toronto, customs: declaration({ certify: false }) }), 400, 'validation_failed', '/customs/certify', /must be true/],
    ['no signer', () => rating({ ship_to: toronto, customs: declaration({ signer: undefined }) }), 400, 'validation_failed', '/customs/signer', /is required/],
    ['an incoterm carriers do not take', () => rating({ ship_to: toronto, customs: declaration({ incoterm: 'EXW' }) }), 400, 'validation_failed', '/customs/incoterm', /must be one of "DAP", "DDP"/],
    ['a non-delivery choice that is none', () => rating({ ship_to: toronto, customs: declaration({ non_delivery: 'destroy' }) }), 400, 'validation_failed', '/customs/non_delivery', /must be one of "return", "abandon"/],
    ['an order_id with a declaration beside it', () => ['POST', '/rates', { order_id: caOrder, customs: declaration() }], 400, 'validation_failed', '/customs', /give order_id or the shipment itself, not both/],
    // Orders rated or bought.
    ['rating an order to Canada without its declaration', () => ['POST', '/rates', { order_id: caNoCustoms }], 400, 'customs_required', '/order_id', /whose customs is required: the parcel crosses the border of Canada.*add it with PATCH/],
    ['buying for an order to Canada whose recipient has no phone', () => ['POST', '/shipments', { order_id: caNoPhone }], 400, 'validation_failed', '/order_id', /whose ship_to\/phone is required for a recipient in Canada/],
  ];

  test(`${cases.length} requests, each refused with a problem that names the field and says why`, async () => {
    assert.ok(cases.filter(([, , status]) => status === 400).length >= 30);
    const before = await written(refusingKey.id, refusingAccount);
    for (const [name, send, status, code, pointer, detail] of cases) {
      const [method, path, body] = send();
      const p = problem(await server.request(method, path, { key: refusingKey.secret, body: JSON.parse(JSON.stringify(body)) }), status, code);
      if (pointer) {
        const hit = p.errors?.find((e: Json) => e.pointer === pointer);
        assert.ok(hit, `${name}: no error at ${pointer}: ${JSON.stringify(p.errors ?? p.detail)}`);
        assert.match(hit.detail, detail, name);
        assert.ok(p.detail.includes(pointer), `${name}: the detail names ${pointer}`);
      } else {
        assert.match(p.detail, detail, name);
      }
    }
    assert.deepEqual(await written(refusingKey.id, refusingAccount), before);
    // Only the three orders the refused rates and purchases were for, and their order.created events.
    assert.deepEqual(before, { orders: 3, events: 3, rate_shops: 0, shipments: 0, idempotency_keys: 0, ledger: 0 });
    for (const id of [caOrder, caNoCustoms, caNoPhone]) assert.equal((await server.request('GET', `/orders/${id}`, { key: refusingKey.secret })).body.status, 'incomplete');
  });

  test('with a live key, a complete request to Canada is handed to the carriers, not refused as a country', async () => {
    const live = await server.key(refusingAccount, 'live');
    const toCanada = rating({ ship_to: toronto, customs: declaration() });
    const rated = await server.request(toCanada[0], toCanada[1], { key: live.secret, body: toCanada[2] });
    assert.equal(rated.status, 200, rated.text);
    // No live carrier is configured on this server: each says so in its own errors entry, none refuses the country.
    assert.deepEqual(rated.body.errors.map((e: Json) => e.code), ['credentials_missing', 'credentials_missing', 'credentials_missing']);
    const kept = await written(live.id, refusingAccount);
    assert.deepEqual(kept.shipments, 0);
  });
});

describe("the dashboard's orders page", () => {
  test('shows the country and the declaration of an order, escaped', async () => {
    const { account: owner, email } = await accountWithUser(server);
    const ownKey = (await server.key(owner)).secret;
    const declared = await create(order({ order_number: 'INTL-1', customs: { ...header, items: [{ ...mugLine, description: 'Mug <b>bold</b>' }] } }), ownKey);
    assert.equal(declared.status, 201, declared.text);
    const client = new DashboardClient(server);
    await client.signIn(email, password);
    const page = await client.get('/dashboard/test/orders');
    assert.equal(page.status, 200);
    const row = page.text.slice(page.text.indexOf(`data-order-id="${declared.body.id}"`));
    assert.match(row, /Toronto, ON M5H 2N2 <span class="country">CA<\/span>/);
    assert.match(row, /Customs: merchandise, DAP; 2 × Mug &lt;b&gt;bold&lt;\/b&gt; \(HS 691200, 12.50 USD\)/);
  });
});
