import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FoundLocation } from '../carrier.ts';
import { upsAccessPointHold } from './access-point.ts';
import { buildAccessPointLookup, buildAccessPointSearch, parseAccessPointLookup, parseAccessPoints } from './locator.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- built bodies are read below

const answer = (): unknown => JSON.parse(readFileSync(new URL('./fixtures/locator-access-points.json', import.meta.url), 'utf8'));

test('an Access Point search around a ZIP: reqOption 64, the ZIP placed at its town, active Access Points only, nearest first', () => {
  const built = buildAccessPointSearch({ zip: '94105', limit: 10 });
  assert.ok(built.ok);
  assert.equal(built.value.path, '/api/locations/v3/search/availabilities/64');
  const body = (built.value.body as Json).LocatorRequest;
  assert.deepEqual(body.Request.RequestAction, 'Locator');
  assert.deepEqual(body.OriginAddress.AddressKeyFormat, { AddressLine: 'San Francisco', PoliticalDivision2: 'San Francisco', PoliticalDivision1: 'CA', PostcodePrimaryLow: '94105', CountryCode: 'US' });
  assert.deepEqual(body.LocationSearchCriteria, { MaximumListSize: '10', AccessPointSearch: { AccessPointStatus: '01' } });
  assert.deepEqual(body.SortCriteria, { SortType: '01' });
  assert.deepEqual(body.UnitOfMeasurement, { Code: 'MI' });
  assert.equal(built.value.headers?.transId?.length, 32);
  const unknown = buildAccessPointSearch({ zip: '00000', limit: 10 });
  assert.equal(!unknown.ok && unknown.error.code, 'address_invalid');
});

test('a lookup by public id names the id and fills the origin the spec requires', () => {
  const body = (buildAccessPointLookup('U94105A01', { street: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105-1804' }).body as Json).LocatorRequest;
  assert.deepEqual(body.LocationSearchCriteria, { MaximumListSize: '1', AccessPointSearch: { PublicAccessPointID: 'U94105A01' } });
  assert.equal(body.OriginAddress.AddressKeyFormat.PostcodePrimaryLow, '94105');
});

test("the answer's Access Points: public id, name, both address lines, miles; unavailable ones and other locations left out", () => {
  const found = parseAccessPoints(answer());
  assert.ok(found.ok);
  assert.deepEqual(found.value, [
    {
      id: 'U94105A01',
      name: 'MISSION STREET MAIL & PRINT',
      kind: 'UPS Access Point',
      address: { street1: '101 MISSION ST', street2: 'STE 110', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' },
      distanceMiles: 0.3,
    },
    // Kilometres as miles.
    { id: 'U94105B02', name: 'SOMA CORNER PHARMACY', kind: 'UPS Access Point', address: { street1: '250 HOWARD ST', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' }, distanceMiles: 0.7 },
  ]);
  assert.equal(parseAccessPoints({}).ok, false);
  const failed = parseAccessPoints({ LocatorResponse: { Response: { ResponseStatusCode: '0', Error: { ErrorSeverity: 'Hard', ErrorCode: '350000', ErrorDescription: 'No locations' } } } });
  assert.match(!failed.ok ? failed.error.detail : '', /No locations/);
});

test('a lookup finds the Access Point by id, or refuses the id as no UPS Access Point', () => {
  const found = parseAccessPointLookup(answer(), 'u94105a01');
  assert.equal(found.ok && found.value.name, 'MISSION STREET MAIL & PRINT');
  for (const id of ['U94107C03', 'U00000000']) {
    const refused = parseAccessPointLookup(answer(), id);
    assert.equal(!refused.ok && refused.error.code, 'option_not_supported', id);
    assert.match(!refused.ok ? refused.error.detail : '', /\/options\/hold_location\/id/);
  }
});

test('the hold: ShipmentIndicationType 01 and the Access Point as AlternateDeliveryAddress, as each API takes it', () => {
  const point: FoundLocation = {
    id: 'U94105A01',
    name: 'A VERY LONG NAME OF A UPS ACCESS POINT THAT RUNS ON',
    kind: 'UPS Access Point',
    address: { street1: '101 MISSION ST', street2: 'STE 110', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' },
    distanceMiles: 0.3,
  };
  const recipient = { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' };
  const address = { AddressLine: ['101 MISSION ST', 'STE 110'], City: 'SAN FRANCISCO', StateProvinceCode: 'CA', PostalCode: '94105', CountryCode: 'US' };
  assert.deepEqual(upsAccessPointHold(point, recipient, 'shipping'), {
    ShipmentIndicationType: [{ Code: '01' }],
    AlternateDeliveryAddress: { Name: 'A VERY LONG NAME OF A UPS ACCESS PO', AttentionName: 'Ada Lovelace', UPSAccessPointID: 'U94105A01', Address: address },
  });
  assert.deepEqual(upsAccessPointHold(point, recipient, 'rating'), {
    ShipmentIndicationType: [{ Code: '01' }],
    AlternateDeliveryAddress: { Name: 'A VERY LONG NAME OF A UPS ACCESS PO', Address: address },
  });
});
