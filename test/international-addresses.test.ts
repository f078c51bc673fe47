import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './harness.ts';
import { austin } from './fixtures.ts';

// Addresses in every country: orders keep them in the form carriers expect, POST /addresses/validate checks each
// country's forms and says which checks it made, and US territories and military post offices stay US addresses.

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer();
  key = (await server.key(await server.account())).secret;
});
after(() => server.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const customs = {
  contents_type: 'merchandise',
  non_delivery: 'return',
  signer: 'Grace Hopper',
  certify: true,
  items: [{ sku: 'MUG-1', hs_tariff_number: '6912.00', origin_country: 'US' }],
};
const items = [{ sku: 'MUG-1', name: 'Stoneware mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' } }];
const parcel = { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } };

/** Each destination as a merchant types it, and as the order keeps it. */
const destinations: { name: string; sent: Json; kept: Json }[] = [
  {
    name: 'Canada, the postal code typed without its space and the province by name',
    sent: { name: 'Jean Tremblay', street1: '111 Wellington St', city: 'Ottawa', state: 'Ontario', zip: 'k1a0a9', country: 'ca', phone: '+1 613 555 0142' },
    kept: { state: 'ON', zip: 'K1A 0A9', country: 'CA' },
  },
  {
    name: 'Mexico, the state by its ISO 3166-2 code',
    sent: { name: 'Ana García', street1: 'Av. Paseo de la Reforma 222', city: 'Ciudad de México', state: 'CMX', zip: '06600', country: 'MX', phone: '+52 55 5555 0100' },
    kept: { state: 'CMX', zip: '06600', country: 'MX' },
  },
  {
    name: 'the United Kingdom, without a state, the postcode in lower case',
    sent: { name: 'Charles Babbage', street1: '10 Downing Street', city: 'London', zip: 'sw1a2aa', country: 'GB', phone: '+44 20 7946 0000' },
    kept: { zip: 'SW1A 2AA', country: 'GB' },
  },
  {
    name: 'Germany',
    sent: { name: 'Konrad Zuse', street1: 'Unter den Linden 77', city: 'Berlin', zip: '10117', country: 'DE', phone: '+49 30 555 0100' },
    kept: { zip: '10117', country: 'DE' },
  },
  {
    name: 'France, a region given as free text',
    sent: { name: 'Blaise Pascal', street1: '5 Rue de Rivoli', city: 'Paris', state: 'Île-de-France', zip: '75 001', country: 'FR', phone: '+33 1 55 55 01 00' },
    kept: { state: 'Île-de-France', zip: '75001', country: 'FR' },
  },
  {
    name: 'Australia, the state in lower case',
    sent: { name: 'Ada Byron', street1: '1 Macquarie St', city: 'Sydney', state: 'nsw', zip: '2000', country: 'AU', phone: '+61 2 5550 0100' },
    kept: { state: 'NSW', zip: '2000', country: 'AU' },
  },
  {
    name: 'Japan, the postal code without its hyphen',
    sent: { name: 'Yamada Taro', street1: '1-1 Chiyoda', city: 'Chiyoda-ku', state: 'Tokyo', zip: '1000001', country: 'JP', phone: '+81 3 5555 0100' },
    kept: { state: 'Tokyo', zip: '100-0001', country: 'JP' },
  },
  {
    name: 'Brazil, the CEP without its hyphen',
    sent: { name: 'Alberto Santos', street1: 'Av. Paulista 1578', city: 'São Paulo', state: 'SP', zip: '01310200', country: 'BR', phone: '+55 11 5555 0100' },
    kept: { state: 'SP', zip: '01310-200', country: 'BR' },
  },
  {
    name: 'India, the state by name',
    sent: { name: 'Srinivasa Ramanujan', street1: '12 Marine Drive', city: 'Mumbai', state: 'Maharashtra', zip: '400020', country: 'IN', phone: '+91 22 5555 0100' },
    kept: { state: 'MH', zip: '400020', country: 'IN' },
  },
  {
    name: 'the Netherlands, the postcode without its space',
    sent: { name: 'Edsger Dijkstra', street1: 'Dam 1', city: 'Amsterdam', zip: '1012jS', country: 'NL', phone: '+31 20 555 0100' },
    kept: { zip: '1012 JS', country: 'NL' },
  },
  {
    name: 'Hong Kong, which has no postal codes',
    sent: { name: 'Li Wei', street1: '1 Queens Road Central', city: 'Hong Kong', country: 'HK', phone: '+852 5555 0100' },
    kept: { country: 'HK' },
  },
  {
    name: 'Puerto Rico sent as a country: a US address with state PR',
    sent: { name: 'Rosa Rivera', street1: '100 Calle Fortaleza', city: 'San Juan', zip: '00901', country: 'PR' },
    kept: { state: 'PR', zip: '00901', country: 'US' },
  },
  {
    name: 'Guam, a territory',
    sent: { name: 'Maria Cruz', street1: '176 Serenu Ave', city: 'Hagatna', state: 'gu', zip: '96910' },
    kept: { state: 'GU', zip: '96910', country: 'US' },
  },
  {
    name: 'the Marshall Islands, a freely associated state',
    sent: { name: 'Kilon Bauno', street1: 'PO Box 1', city: 'Majuro', state: 'MH', zip: '96960' },
    kept: { state: 'MH', zip: '96960', country: 'US' },
  },
  {
    name: 'a military post office (APO AE)',
    sent: { name: 'SGT John Doe', street1: 'Unit 2050 Box 4190', city: 'APO', state: 'AE', zip: '09001' },
    kept: { state: 'AE', zip: '09001', country: 'US' },
  },
];

describe('orders keep an address in any country in the form carriers expect', () => {
  for (const { name, sent, kept } of destinations) {
    test(name, async () => {
      const created = await server.request('POST', '/orders', { key, body: { ship_to: sent, ship_from: austin, items, parcel, customs } });
      assert.equal(created.status, 201, created.text);
      const { state, zip, country, ...rest } = created.body.ship_to;
      assert.deepEqual({ ...(state !== undefined && { state }), ...(zip !== undefined && { zip }), country }, kept);
      for (const field of ['name', 'street1', 'city', 'phone'] as const) assert.equal(rest[field], sent[field], field);
      const read = await server.request('GET', `/orders/${created.body.id}`, { key });
      assert.deepEqual(read.body.ship_to, created.body.ship_to);
      assert.equal(read.body.customs.items[0].hs_tariff_number, '691200');
    });
  }

  test('a US order is kept as before: country US filled in, the state in upper case, the ZIP+4 with its dash', async () => {
    const created = await server.request('POST', '/orders', { key, body: { ship_to: { street1: '415 Mission St', city: 'San Francisco', state: 'ca', zip: '941051804' }, ship_from: austin } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.ship_to, { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105-1804', country: 'US' });
    assert.equal(created.body.customs, null);
  });
});

const validate = (address: Json) => server.request('POST', '/addresses/validate', { key, body: { address } });
const codes = (v: Json) => v.messages.map((m: Json) => m.code);
const checkNames = (v: Json) => v.checks.map((c: Json) => c.check);

describe('POST /addresses/validate checks every country and says what it checked', () => {
  for (const { name, sent, kept } of destinations) {
    test(name, async () => {
      const res = await validate(sent);
      assert.equal(res.status, 200, res.text);
      const v = res.body;
      assert.equal(v.valid, true, JSON.stringify(v.messages));
      // A state given as free text is kept, in upper case as the rest of the address.
      for (const [field, value] of Object.entries(kept)) assert.equal(v.address[field], field === 'state' ? value.toUpperCase() : value, field);
      assert.ok(v.checks.length > 0);
      if (kept.country === 'US') assert.deepEqual(checkNames(v), ['street_format', 'zip_city_state']);
      else {
        assert.equal(v.address.city, sent.city.toUpperCase());
        assert.deepEqual(checkNames(v).filter((c: string) => c !== 'state_code'), ['country_code', 'postal_code_format']);
        assert.ok(codes(v).includes('street_not_checked'), 'says the street was not checked');
      }
    });
  }

  test('a US address answers as before, with its checks listed', async () => {
    const v = (await validate({ street1: '415 mission street apt 4b', city: 'san fransisco', state: 'ca', zip: '941051804' })).body;
    assert.equal(v.valid, true);
    assert.deepEqual(v.address, { street1: '415 MISSION ST', street2: 'APT 4B', city: 'SAN FRANCISCO', state: 'CA', zip: '94105-1804', country: 'US', residential: true });
    assert.deepEqual(codes(v), ['city_corrected']);
    assert.deepEqual(checkNames(v), ['street_format', 'zip_city_state']);
  });

  test('a province given by name is written as its code, and named a correction', async () => {
    const v = (await validate(destinations[0]!.sent)).body;
    assert.deepEqual(
      v.corrections.filter((c: Json) => c.field === 'state' || c.field === 'zip'),
      [
        { field: 'state', from: 'Ontario', to: 'ON' },
        { field: 'zip', from: 'k1a0a9', to: 'K1A 0A9' },
      ],
    );
  });

  const invalid: [string, Json, string, RegExp][] = [
    ['a British postcode in Canada', { street1: '1 Main St', city: 'Ottawa', state: 'ON', zip: 'SW1A 1AA', country: 'CA' }, 'zip_format', /"SW1A 1AA" is not a postal code of Canada \(they look like K1A 0B1\)/],
    ['a Canadian address without its province', { street1: '1 Main St', city: 'Ottawa', zip: 'K1A 0B1', country: 'CA' }, 'state_required', /state is required for an address in Canada/],
    ['an Australian state that is none', { street1: '1 George St', city: 'Sydney', state: 'Sydney', zip: '2000', country: 'AU' }, 'unknown_state', /"Sydney" is not a state or territory of Australia; give one of ACT, NSW/],
    ['a German address without its postal code', { street1: 'Unter den Linden 77', city: 'Berlin', country: 'DE' }, 'zip_required', /zip is required for an address in Germany/],
    ['a country code that is none', { street1: '1 Main St', city: 'Nowhere', zip: '12345', country: 'ZZ' }, 'unknown_country', /ZZ is not an ISO 3166-1 alpha-2 country code/],
  ];
  for (const [name, address, code, detail] of invalid) {
    test(`${name} is invalid, and says why`, async () => {
      const v = (await validate(address)).body;
      assert.equal(v.valid, false);
      const message = v.messages.find((m: Json) => m.code === code);
      assert.ok(message, JSON.stringify(v.messages));
      assert.match(message.detail, detail);
    });
  }

  test('a postal code where the country has none is kept, and flagged as unused', async () => {
    const v = (await validate({ street1: '1 Queens Road Central', city: 'Hong Kong', zip: '000000', country: 'HK' })).body;
    assert.equal(v.valid, true);
    assert.ok(codes(v).includes('zip_not_used'));
  });

  test('a territory sent as a country says it became a US address', async () => {
    const v = (await validate(destinations.find((d) => d.sent.country === 'PR')!.sent)).body;
    assert.equal(v.address.country, 'US');
    assert.ok(codes(v).includes('country_corrected'));
    assert.deepEqual(v.corrections.find((c: Json) => c.field === 'country'), { field: 'country', from: 'PR', to: 'US' });
  });
});

describe('rating where shipd sells services', () => {
  const rate = (body: Json) => server.request('POST', '/rates', { key, body: { ship_from: austin, parcel, ...body } });
  const complete = { ...customs, items: [{ description: 'Stoneware mug', quantity: 2, unit_value: { amount: '12.50', currency: 'USD' }, weight: { value: 14, unit: 'oz' }, hs_tariff_number: '691200', origin_country: 'US' }] };

  test('Puerto Rico is rated without a declaration: it is inside the US customs territory', async () => {
    const res = await rate({ ship_to: { street1: '100 Calle Fortaleza', city: 'San Juan', state: 'PR', zip: '00901' } });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.rates.length > 0);
  });

  test('Guam and an APO are rated by USPS with their declaration', async () => {
    for (const to of ['Guam, a territory', 'a military post office (APO AE)']) {
      const res = await rate({ ship_to: destinations.find((d) => d.name === to)!.sent, customs: complete });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.rates.length > 0, to);
      assert.ok(res.body.rates.every((r: Json) => r.carrier === 'usps'), to);
    }
  });

  test('with a live key, a country abroad is rated by the live carriers, not refused', async () => {
    const live = (await server.key(await server.account(), 'live')).secret;
    const res = await server.request('POST', '/rates', { key: live, body: { ship_from: austin, parcel, ship_to: destinations[0]!.sent, customs: complete } });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.errors.every((e: Json) => e.code !== 'country_not_served'));
  });
});
