import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildLocationsRequest, parseLocationsResponse } from './locations.ts';
import { fixture } from './fixtures.ts';

test('the search asks by postal code and country for the locations that hold parcels, nearest first, within 50 miles', () => {
  assert.deepEqual(buildLocationsRequest({ zip: '94105', limit: 10 }), {
    locationsSummaryRequestControlParameters: { distance: { units: 'MI', value: 50 }, maxResults: 10 },
    locationSearchCriterion: 'ADDRESS',
    location: { address: { postalCode: '94105', countryCode: 'US' } },
    multipleMatchesAction: 'RETURN_ALL',
    sort: { criteria: 'DISTANCE', order: 'ASCENDING' },
    locationCapabilities: [{ transferOfPossessionType: 'HOLD_AT_LOCATION' }],
  });
});

test('each LocationDetail is a location: its locationId, name, kind in FedEx words, street lines and distance in miles', () => {
  const found = parseLocationsResponse(fixture('locations-hold'), 10);
  assert.ok(found.ok);
  assert.deepEqual(found.value, [
    {
      id: 'SFHA',
      name: 'FedEx Office Print & Ship Center',
      kind: 'FedEx Office',
      address: { street1: '301 Howard St', street2: 'Ste 100', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' },
      distanceMiles: 0.4,
    },
    { id: 'SFCA', name: 'FedEx Ship Center', kind: 'FedEx staffed location', address: { street1: '1 Market St', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' }, distanceMiles: 0.9 },
    // 2.5 km, and no contact: the display name names it.
    { id: 'WGSF', name: 'Walgreens', kind: 'FedEx Authorized ShipCenter', address: { street1: '135 Powell St', city: 'SAN FRANCISCO', state: 'CA', zip: '94102', country: 'US' }, distanceMiles: 1.6 },
  ]);
});

test('a location without an id or a street is left out, as no parcel can be held or collected there', () => {
  const found = parseLocationsResponse(fixture('locations-hold'), 10);
  assert.ok(found.ok);
  assert.ok(!found.value.some((l) => l.kind === 'FedEx OnSite'));
});

test('at most the limit asked, an answer without locations is none, and one without output is a carrier error', () => {
  const two = parseLocationsResponse(fixture('locations-hold'), 2);
  assert.deepEqual(two.ok && two.value.map((l) => l.id), ['SFHA', 'SFCA']);
  assert.deepEqual(parseLocationsResponse({ output: { totalResults: 0, resultsReturned: 0 } }, 10), { ok: true, value: [] });
  const single = parseLocationsResponse({ output: { locationDetailList: { locationId: 'ABCA', locationType: 'FEDEX_NEW_KIND', contactAndAddress: { address: { streetLines: '9 Elm St', city: 'Austin', stateOrProvinceCode: 'TX', postalCode: '78701' } } } } }, 10);
  assert.deepEqual(single.ok && single.value, [{ id: 'ABCA', name: 'FEDEX_NEW_KIND', kind: 'FEDEX_NEW_KIND', address: { street1: '9 Elm St', city: 'Austin', state: 'TX', zip: '78701', country: 'US' }, distanceMiles: null }]);
  const broken = parseLocationsResponse({ transactionId: 'x' }, 10);
  assert.equal(!broken.ok && broken.error.code, 'carrier_error');
});
