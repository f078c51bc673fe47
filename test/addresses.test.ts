import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problem, startServer, type TestServer } from './harness.ts';

let server: TestServer;
let key: string;

before(async () => {
  server = await startServer();
  key = (await server.key(await server.account())).secret;
});
after(() => server.close());

const validate = (address: Record<string, unknown>) => server.request('POST', '/addresses/validate', { key, body: { address } });

interface Case {
  name: string;
  input: Record<string, string>;
  valid: boolean;
  expect?: Partial<Record<'street1' | 'street2' | 'city' | 'state' | 'zip', string | undefined>>;
  messages?: string[];
  residential?: boolean;
}

const sf = { city: 'San Francisco', state: 'CA', zip: '94105' };
const cases: Case[] = [
  // Case, spacing and punctuation.
  { name: 'all lower case', input: { street1: '415 mission street', city: 'san francisco', state: 'ca', zip: '94105' }, valid: true, expect: { street1: '415 MISSION ST', city: 'SAN FRANCISCO', state: 'CA' } },
  { name: 'all upper case, already standard', input: { street1: '415 MISSION ST', city: 'SAN FRANCISCO', state: 'CA', zip: '94105' }, valid: true, expect: { street1: '415 MISSION ST' } },
  { name: 'stray spaces', input: { street1: '   415    Mission   St  ', city: '  San   Francisco ', state: 'CA', zip: '94105' }, valid: true, expect: { street1: '415 MISSION ST', city: 'SAN FRANCISCO' } },
  { name: '"St." with a dot', input: { street1: '415 Mission St.', ...sf }, valid: true, expect: { street1: '415 MISSION ST' } },
  { name: 'a comma before the unit', input: { street1: '123 W. 45th Street, Floor 3', city: 'New York', state: 'NY', zip: '10036' }, valid: true, expect: { street1: '123 W 45TH ST', street2: 'FL 3' } },
  // Street suffixes and directionals.
  { name: '"Avenue" and a spelled-out directional', input: { street1: '1600 Pennsylvania Avenue Northwest', city: 'Washington', state: 'DC', zip: '20500' }, valid: true, expect: { street1: '1600 PENNSYLVANIA AVE NW' } },
  { name: '"Boulevard"', input: { street1: '10 Downing Boulevard', city: 'Miami', state: 'FL', zip: '33101' }, valid: true, expect: { street1: '10 DOWNING BLVD' } },
  { name: '"Terrace"', input: { street1: '742 Evergreen Terrace', city: 'Springfield', state: 'IL', zip: '62701' }, valid: true, expect: { street1: '742 EVERGREEN TER' } },
  { name: '"north" as a prefix', input: { street1: '100 north main st', city: 'Los Angeles', state: 'CA', zip: '90012' }, valid: true, expect: { street1: '100 N MAIN ST' } },
  { name: '"Northeast" as a suffix', input: { street1: '5 Pine Rd Northeast', city: 'Atlanta', state: 'GA', zip: '30303' }, valid: true, expect: { street1: '5 PINE RD NE' } },
  { name: 'an abbreviated directional with a dot', input: { street1: '233 S. Wacker Dr.', city: 'Chicago', state: 'IL', zip: '60606' }, valid: true, expect: { street1: '233 S WACKER DR' } },
  { name: 'a street with no suffix', input: { street1: '500 Broadway', city: 'Brooklyn', state: 'NY', zip: '11211' }, valid: true, expect: { street1: '500 BROADWAY' } },
  { name: 'a Spanish street name the parser does not know is kept whole', input: { street1: '100 Calle Fortaleza', city: 'San Juan', state: 'PR', zip: '00901' }, valid: true, expect: { street1: '100 CALLE FORTALEZA' } },
  // Secondary units.
  { name: '"Apt 4B" on street1 moves to street2', input: { street1: '415 Mission St. Apt 4B', ...sf }, valid: true, expect: { street1: '415 MISSION ST', street2: 'APT 4B' } },
  { name: '"Apartment 4b" on street2', input: { street1: '415 Mission St', street2: 'Apartment 4b', ...sf }, valid: true, expect: { street2: 'APT 4B' } },
  { name: '"#4" on street1', input: { street1: '350 5th ave #4', city: 'New York', state: 'NY', zip: '10118' }, valid: true, expect: { street1: '350 5TH AVE', street2: '# 4' } },
  { name: '"#4" on street2', input: { street1: '350 Fifth Avenue', street2: '#4', city: 'New York', state: 'NY', zip: '10118' }, valid: true, expect: { street1: '350 FIFTH AVE', street2: '# 4' } },
  { name: 'a bare unit number on street2', input: { street1: '350 5th Ave', street2: '4', city: 'new york', state: 'ny', zip: '10118' }, valid: true, expect: { street2: '# 4' } },
  { name: '"Suite 200"', input: { street1: '415 Mission St', street2: 'Suite 200', ...sf }, valid: true, expect: { street2: 'STE 200' }, residential: false },
  { name: '"Ste. 5"', input: { street1: '100 Main St', street2: 'Ste. 5', city: 'Boston', state: 'MA', zip: '02108' }, valid: true, expect: { street2: 'STE 5' }, residential: false },
  { name: '"ste 200" inside street1', input: { street1: '100 north main st ste 200', city: 'Los Angeles', state: 'CA', zip: '90012' }, valid: true, expect: { street1: '100 N MAIN ST', street2: 'STE 200' }, residential: false },
  { name: '"unit 3"', input: { street1: '10 Downing Boulevard unit 3', city: 'Miami', state: 'FL', zip: '33101' }, valid: true, expect: { street2: 'UNIT 3' }, residential: true },
  { name: '"Rm 101"', input: { street1: '55 Water Street Rm 101', city: 'New York', state: 'NY', zip: '10041' }, valid: true, expect: { street1: '55 WATER ST', street2: 'RM 101' } },
  { name: '"Bldg 2"', input: { street1: '2 E Broad St Bldg 2', city: 'Columbus', state: 'OH', zip: '43215' }, valid: true, expect: { street2: 'BLDG 2' } },
  { name: 'a PO box written "P.O. Box"', input: { street1: 'P.O. Box 123', city: 'Austin', state: 'TX', zip: '78701' }, valid: true, expect: { street1: 'PO BOX 123' } },
  // ZIPs.
  { name: 'ZIP+4 without its dash', input: { street1: '415 Mission St', ...sf, zip: '941051804' }, valid: true, expect: { zip: '94105-1804' } },
  { name: 'ZIP+4 with its dash', input: { street1: '415 Mission St', ...sf, zip: '94105-1804' }, valid: true, expect: { zip: '94105-1804' } },
  { name: 'a ZIP with a leading zero', input: { street1: '300 Post Rd', city: 'Westport', state: 'CT', zip: '06880' }, valid: true, expect: { zip: '06880' } },
  { name: 'a ZIP that does not exist', input: { street1: '415 Mission St', ...sf, zip: '99999' }, valid: false, messages: ['zip_not_found'] },
  { name: 'ZIP 00000', input: { street1: '415 Mission St', ...sf, zip: '00000' }, valid: false, messages: ['zip_not_found'] },
  // City and state against the ZIP.
  { name: 'a misspelt city is corrected from the ZIP', input: { street1: '415 Mission St', city: 'San Fransisco', state: 'CA', zip: '94105' }, valid: true, expect: { city: 'SAN FRANCISCO' }, messages: ['city_corrected'] },
  { name: 'the wrong city for the ZIP', input: { street1: '415 Mission St', city: 'San Jose', state: 'CA', zip: '94105' }, valid: false, messages: ['zip_city_mismatch'] },
  { name: 'the wrong state for the ZIP is corrected when the city agrees', input: { street1: '415 Mission St', city: 'San Francisco', state: 'NV', zip: '94105' }, valid: true, expect: { state: 'CA' }, messages: ['state_corrected'] },
  { name: 'a ZIP from another state altogether', input: { street1: '415 Mission St', city: 'Austin', state: 'TX', zip: '94105' }, valid: false, messages: ['zip_state_mismatch'] },
  { name: 'Hawaii', input: { street1: '1 Main St', city: 'Honolulu', state: 'HI', zip: '96813' }, valid: true },
  // Missing parts and test magic.
  { name: 'no house number', input: { street1: 'Mission St', ...sf }, valid: false, messages: ['missing_house_number'] },
  { name: 'the magic undeliverable street', input: { street1: '1 Undeliverable Way', city: 'Austin', state: 'TX', zip: '78701' }, valid: false, messages: ['undeliverable'] },
  { name: 'a company makes it a business', input: { street1: '1100 Congress Ave', company: 'Acme Inc', city: 'Austin', state: 'TX', zip: '78701' }, valid: true, residential: false },
];

describe(`POST /addresses/validate with ${cases.length} messy real-world inputs`, () => {
  for (const c of cases) {
    test(c.name, async () => {
      const res = await validate(c.input);
      assert.equal(res.status, 200, res.text);
      const v = res.body;
      assert.equal(v.valid, c.valid, JSON.stringify(v));
      for (const [field, value] of Object.entries(c.expect ?? {})) assert.equal(v.address[field], value, `${field}: ${JSON.stringify(v.address)}`);
      if (c.messages) assert.deepEqual(v.messages.map((m: { code: string }) => m.code), c.messages);
      else if (c.valid) assert.deepEqual(v.messages, []);
      if (c.residential !== undefined) assert.equal(v.residential, c.residential);
      assert.equal(v.address.country, 'US');
    });
  }
});

test("a ZIP from another state is invalid, and the message suggests the city's own ZIPs", async () => {
  const v = (await validate({ street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '94105' })).body;
  assert.equal(v.valid, false);
  assert.match(v.messages[0].detail, /^ZIP 94105 is in SAN FRANCISCO, CA, not TX; AUSTIN, TX has (7\d{4}, )*787\d\d/);
});

describe('corrections and errors', () => {
  test('corrections list each field changed beyond case and punctuation, with from and to', async () => {
    const v = (await validate({ street1: '415 mission street apt 4b', city: 'san fransisco', state: 'ca', zip: '941051804' })).body;
    assert.deepEqual(v.corrections, [
      { field: 'street1', from: '415 mission street apt 4b', to: '415 MISSION ST' },
      { field: 'street2', from: '', to: 'APT 4B' },
      { field: 'city', from: 'san fransisco', to: 'SAN FRANCISCO' },
      { field: 'zip', from: '941051804', to: '94105-1804' },
    ]);
    const clean = (await validate({ street1: '415 Mission St', ...sf })).body;
    assert.deepEqual(clean.corrections, []);
  });

  test('a wrong city suggests the right ZIPs', async () => {
    const v = (await validate({ street1: '415 Mission St', city: 'San Jose', state: 'CA', zip: '94105' })).body;
    assert.match(v.messages[0].detail, /ZIP 94105 is SAN FRANCISCO, not SAN JOSE; SAN JOSE has 95\d{3}/);
  });

  test('missing parts and bad shapes are 400s naming the field', async () => {
    for (const [address, pointer] of [
      [{ city: 'Austin', state: 'TX', zip: '78701' }, '/address/street1'],
      [{ street1: '1 Main St', state: 'TX', zip: '78701' }, '/address/city'],
      [{ street1: '1 Main St', city: 'Austin', zip: '78701' }, '/address/state'],
      [{ street1: '1 Main St', city: 'Austin', state: 'TX' }, '/address/zip'],
      [{ street1: '1 Main St', city: 'Austin', state: 'TX', zip: '7870' }, '/address/zip'],
      [{ street1: '1 Main St', city: 'Austin', state: 'Texas', zip: '78701' }, '/address/state'],
    ] as const) {
      const p = problem(await validate(address), 400, 'validation_failed');
      assert.ok(p.errors.some((e: { pointer: string }) => e.pointer === pointer), `${pointer}: ${JSON.stringify(p.errors)}`);
    }
  });

  test('an unknown state code is invalid, not an error', async () => {
    const v = (await validate({ street1: '1 Main St', city: 'Austin', state: 'ZZ', zip: '78701' })).body;
    assert.equal(v.valid, false);
    assert.ok(v.messages.some((m: { code: string }) => m.code === 'unknown_state'));
  });
});
