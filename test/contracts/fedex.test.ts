import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../src/schemas/address.ts';
import type { ShipmentOptions } from '../../src/schemas/options.ts';
import type { LabelRef, ParcelSpec, DomesticPurchaseRequest, DomesticRateRequest } from '../../src/carriers/carrier.ts';
import { domesticServices } from '../../src/carriers/catalog.ts';
import { buildAddressRequest } from '../../src/carriers/fedex/address.ts';
import { buildCancelRequest } from '../../src/carriers/fedex/cancel.ts';
import { buildLocationsRequest } from '../../src/carriers/fedex/locations.ts';
import { usPhone } from '../../src/carriers/fedex/party.ts';
import { buildRateRequest } from '../../src/carriers/fedex/rate.ts';
import { buildShipRequest } from '../../src/carriers/fedex/ship.ts';
import { buildTokenRequest } from '../../src/carriers/fedex/token.ts';
import { buildTrackRequest } from '../../src/carriers/fedex/track.ts';
import { purchaseCases } from './purchase-cases.ts';
import { assertContract, contractViolations } from './check.ts';
import { fedexAddressRequest } from './fedex/address.ts';
import { fedexFindLocationsRequest } from './fedex/locations.ts';
import { fedexTokenForm } from './fedex/oauth.ts';
import { fedexRateRequest } from './fedex/rate.ts';
import { fedexCancelRequest, fedexShipRequest } from './fedex/ship.ts';
import { fedexTrackRequest } from './fedex/track.ts';

// Every request the FedEx adapter builds, for every service, label format, direction, parcel and kind of address,
// held against our schemas of FedEx's published API documents (test/contracts/fedex/).

// The domestic label requests; international ones carry customs and have contracts of their own.
const services = domesticServices('fedex').map((s) => s.code);
const account = '740561073';

const addresses: Record<string, Address> = {
  plain: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'ca', zip: '94105' },
  business: { name: 'Grace Hopper', company: 'Analytical Co', street1: '1 Main St', street2: 'Suite 300', city: 'Nashville', state: 'TN', zip: '37201-1804', phone: '(615) 555-0100', residential: false },
  home: { name: 'Alan Turing', street1: '350 5th Ave', street2: 'Apt 4B', city: 'New York', state: 'NY', zip: '10118', phone: '212.555.1234', residential: true },
  'company only': { company: 'Difference Engines LLC', street1: '500 Oracle Pkwy', city: 'Redwood City', state: 'CA', zip: '94065', phone: '+1 650 555 0199' },
  long: {
    name: 'Augusta Ada King-Noel Countess of Lovelace Baroness Wentworth of Nettlestead and Ockham Park',
    company: 'The Analytical Engine and Difference Engine Manufacturing Company',
    street1: '1 Infinite Loop Building Number Seven Research Campus West',
    street2: 'Receiving Dock Door Number Twelve',
    city: 'Rancho Santa Margarita Heights',
    state: 'CA',
    zip: '92688',
    phone: '1-949-555-0123',
  },
};

const boxes = {
  boxed: { weightLb: 2, dimensionsIn: { length: 10.5, width: 8, height: 4.2 } },
  'no dimensions': { weightLb: 0.5 },
  huge: { weightLb: 68.4, dimensionsIn: { length: 1200, width: 30, height: 12 } },
  insured: { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 }, insuredCents: 45_000 },
} satisfies Record<string, ParcelSpec>;

/** Shipments of several boxes: a multiple-piece shipment's line items keep the same documents. */
const boxSets: Record<string, ParcelSpec[]> = {
  '3 boxes': [boxes.boxed, { ...boxes['no dimensions'], reference: 'Box 2 of 3: the saucers and cups' }, boxes.huge],
  // A box insured on its own: totalDeclaredValue is that box's alone.
  '2 boxes, the second insured': [boxes.boxed, boxes.insured],
  // shipd's most boxes, declared at the most a shipment's totalDeclaredValue holds ($99,999.80 in all).
  '20 insured boxes': Array.from({ length: 20 }, (_, i) => ({ ...boxes.insured, insuredCents: 4_999_99, reference: `Box ${i + 1}` })),
};
const shipments: Record<string, ParcelSpec[]> = { ...Object.fromEntries(Object.entries(boxes).map(([name, box]) => [name, [box]])), ...boxSets };

const shipDate = new Date('2025-01-06T15:00:00Z');

test('every rate request, outbound and return, keeps the rate document', () => {
  let checked = 0;
  for (const [parcelName, parcels] of Object.entries(shipments))
    for (const [fromName, from] of Object.entries(addresses))
      for (const [toName, to] of Object.entries(addresses))
        for (const isReturn of [false, true])
          for (const only of [undefined, ...services.map((s) => [s])]) {
            const r: DomesticRateRequest = { from, to, parcels, shipDate, isReturn, ...(only ? { services: only } : {}) };
            assertContract(fedexRateRequest, buildRateRequest(r, account), `${isReturn ? 'return' : 'outbound'} rate ${only ?? 'shop'} ${parcelName} from ${fromName} to ${toName}`);
            checked++;
          }
  assert.equal(checked, Object.keys(shipments).length * 5 * 5 * 2 * (services.length + 1));
});

test('every ship request, for every service, label format and direction, keeps the ship document or is refused before it is sent', () => {
  let built = 0;
  let refused = 0;
  for (const { request: r, what } of purchaseCases({ services, parcels: boxes, boxSets, addresses, shipDate, reference: 'ORDER-2025-000000000000000000001234' })) {
    const body = buildShipRequest(r, account);
    // The merchant (the shipper, or for a return the recipient) must have a phone FedEx takes.
    const merchant = r.isReturn ? r.to : r.from;
    if (!usPhone(merchant.phone)) {
      assert.equal(!body.ok && body.error.code, 'address_invalid', what);
      refused++;
      continue;
    }
    assert.ok(body.ok, `${what}: ${JSON.stringify(body)}`);
    assertContract(fedexShipRequest, body.value, what);
    assert.equal(body.value.requestedShipment.shipmentSpecialServices !== undefined, r.isReturn, what);
    built++;
  }
  assert.equal(built + refused, services.length * 3 * Object.keys(shipments).length * 5 * 5 * 2);
  assert.equal(refused, services.length * 3 * Object.keys(shipments).length * 5 * 2);
});

test('cancel, track, address resolve and the token form keep their documents', () => {
  const label: LabelRef = { trackingNumber: '794953535000', carrierShipmentId: '794953535000', service: 'FEDEX_2_DAY', purchasedAt: shipDate };
  assertContract(fedexCancelRequest, buildCancelRequest(label, account), 'cancel');
  assertContract(fedexCancelRequest, buildCancelRequest({ ...label, carrierShipmentId: '' }, account), 'cancel by tracking number');
  for (const number of ['794953535000', '449044304137821', '1Z999AA10123456784']) assertContract(fedexTrackRequest, buildTrackRequest(number), `track ${number}`);
  for (const [name, address] of Object.entries(addresses)) {
    const body = buildAddressRequest(address);
    assert.ok(body.ok, name);
    assertContract(fedexAddressRequest, body.value, `address ${name}`);
  }
  assertContract(fedexTokenForm, buildTokenRequest({ clientId: 'l7xx1234', clientSecret: 's3cr3t' }), 'token');
});

test('the contracts catch what the adapter once sent, and what FedEx would refuse or ignore', () => {
  const r: DomesticPurchaseRequest = { from: addresses.business!, to: addresses.home!, parcels: [boxes.boxed], shipDate, service: 'FEDEX_GROUND', labelFormat: 'zpl', isReturn: false, quotedCents: 1, idempotencyKey: 'k' };
  const built = buildShipRequest(r, account);
  assert.ok(built.ok);
  const body = built.value;
  const shipment = body.requestedShipment;
  const recipient = shipment.recipients[0]!;
  const breaks = (change: Record<string, unknown>) => contractViolations(fedexShipRequest, { ...body, requestedShipment: { ...shipment, ...change } });

  // A declared value beyond FedEx's "5 digits before decimal", or with a currency of the wrong shape.
  assert.ok(breaks({ totalDeclaredValue: { amount: 100_000, currency: 'USD' } }).some((f) => f.startsWith('/requestedShipment/totalDeclaredValue/amount')));
  assert.ok(breaks({ totalDeclaredValue: { amount: 450, currency: 'DOLLARS' } }).some((f) => f.startsWith('/requestedShipment/totalDeclaredValue/currency')));
  // The rate API's spelling of the ship date, which the ship API does not read.
  assert.deepEqual(breaks({ shipDateStamp: '2025-01-06' }), ['/requestedShipment must NOT have additional properties (shipDateStamp)']);
  // A thermal ZPL label on laser paper stock.
  assert.ok(breaks({ labelSpecification: { imageType: 'ZPLII', labelStockType: 'PAPER_4X6' } }).length > 0);
  // Inches with decimals, and a side past 999.
  assert.ok(breaks({ requestedPackageLineItems: [{ weight: { units: 'LB', value: 2 }, dimensions: { length: 10.5, width: 8, height: 4, units: 'IN' } }] }).length > 0);
  assert.ok(breaks({ requestedPackageLineItems: [{ weight: { units: 'LB', value: 2 }, dimensions: { length: 1200, width: 8, height: 4, units: 'IN' } }] }).length > 0);
  // A return detail without RETURN_SHIPMENT, RETURN_SHIPMENT without its detail, a return type of the rate API only.
  assert.ok(breaks({ shipmentSpecialServices: { returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' } } }).length > 0);
  assert.ok(breaks({ shipmentSpecialServices: { specialServiceTypes: ['RETURN_SHIPMENT'] } }).length > 0);
  assert.ok(breaks({ shipmentSpecialServices: { specialServiceTypes: ['RETURN_SHIPMENT'], returnShipmentDetail: { returnType: 'FEDEX_TAG' } } }).length > 0);
  // Street lines cut at 35 are what the adapter sent; a 36th character, a fourth line or an empty line are not taken.
  const streets = (streetLines: string[]) => breaks({ recipients: [{ ...recipient, address: { ...recipient.address, streetLines } }] });
  assert.ok(streets(['1600 Amphitheatre Parkway Building 43']).length > 0);
  assert.ok(streets(['1 Main St', 'Suite 300', 'Floor 3', 'Door 2']).length > 0);
  assert.ok(streets(['1 Main St', '']).length > 0);
  // A phone as the client wrote it, and a contact with neither name.
  assert.ok(breaks({ recipients: [{ ...recipient, contact: { ...recipient.contact, phoneNumber: '212-555-1234' } }] }).length > 0);
  assert.ok(breaks({ recipients: [{ ...recipient, contact: { phoneNumber: '2125551234' } }] }).length > 0);
  // A service FedEx does not have.
  assert.ok(breaks({ serviceType: 'FEDEX_GROUND_EXPRESS' }).length > 0);

  // The rate document's RateAddress has no street lines: the old rate request sent them.
  const rate = buildRateRequest({ from: addresses.business!, to: addresses.home!, parcels: [boxes.boxed], shipDate }, account);
  const withStreets = { ...rate, requestedShipment: { ...rate.requestedShipment, recipient: { address: { ...rate.requestedShipment.recipient.address, streetLines: ['350 5th Ave'] } } } };
  assert.deepEqual(contractViolations(fedexRateRequest, withStreets), ['/requestedShipment/recipient/address must NOT have additional properties (streetLines)']);
  assert.ok(contractViolations(fedexRateRequest, { ...rate, requestedShipment: { ...rate.requestedShipment, rateRequestType: ['RETAIL'] } }).length > 0);
  assert.ok(contractViolations(fedexTrackRequest, { includeDetailedScans: true, trackingInfo: [] }).length > 0);
  assert.ok(contractViolations(fedexTokenForm, { grant_type: 'client_credentials', client_id: 'x' }).length > 0);
  assert.ok(contractViolations(fedexAddressRequest, { addressesToValidate: [{ address: { streetLines: ['1 Main St'], city: 'Nashville', postalCode: '37201', residential: true } }] }).length > 0);
});

test("the contracts hold several boxes to FedEx's limits: 100 packages a rate, 30 line items a label request, 40 packages without asynchronous processing", () => {
  const from = addresses.business!;
  const to = addresses.home!;
  const rate = buildRateRequest({ from, to, parcels: [boxes.boxed, boxes.insured], shipDate }, account);
  assert.equal(rate.requestedShipment.totalPackageCount, 2);
  const rated = (change: Record<string, unknown>) => contractViolations(fedexRateRequest, { ...rate, requestedShipment: { ...rate.requestedShipment, ...change } });
  assert.deepEqual(rated({ totalPackageCount: 100 }), []);
  assert.ok(rated({ totalPackageCount: 101 }).some((f) => f.startsWith('/requestedShipment/totalPackageCount')));
  assert.ok(rated({ requestedPackageLineItems: Array.from({ length: 100 }, () => ({ weight: { units: 'LB', value: 1 } })) }).some((f) => f.startsWith('/requestedShipment/requestedPackageLineItems')));
  // The ship document's line items are its own: a sequence number is no rate field.
  assert.ok(rated({ requestedPackageLineItems: [{ sequenceNumber: 1, weight: { units: 'LB', value: 1 } }] }).length > 0);

  const built = buildShipRequest({ from, to, parcels: [boxes.boxed, boxes.huge], shipDate, service: 'FEDEX_2_DAY', labelFormat: 'pdf', isReturn: false, quotedCents: 1, idempotencyKey: 'k' }, account);
  assert.ok(built.ok);
  const body = built.value;
  const shipped = (change: Record<string, unknown>, top: Record<string, unknown> = {}) =>
    contractViolations(fedexShipRequest, { ...body, ...top, requestedShipment: { ...body.requestedShipment, ...change } });
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ sequenceNumber: i + 1, weight: { units: 'LB', value: 1 } }));
  assert.deepEqual(shipped({ requestedPackageLineItems: items(30), totalPackageCount: 30 }), []);
  assert.ok(shipped({ requestedPackageLineItems: items(31), totalPackageCount: 31 }).some((f) => f.startsWith('/requestedShipment/requestedPackageLineItems')));
  const grouped = [{ weight: { units: 'LB', value: 1 }, groupPackageCount: 41 }];
  assert.ok(shipped({ requestedPackageLineItems: grouped, totalPackageCount: 41 }).length > 0, 'more than 40 packages need ALLOW_ASYNCHRONOUS');
  assert.ok(shipped({ requestedPackageLineItems: grouped }).length > 0, 'a group of more than 40 needs it too');
  assert.deepEqual(shipped({ requestedPackageLineItems: grouped, totalPackageCount: 41 }, { processingOptionType: 'ALLOW_ASYNCHRONOUS' }), []);
  assert.ok(shipped({}, { processingOptionType: 'ASYNC' }).length > 0);
});

test("boxes declared at more than a shipment's totalDeclaredValue holds are refused before FedEx is asked", () => {
  const parcels = [boxes.insured, { ...boxes.insured, insuredCents: 4_999_999 }, { ...boxes.insured, insuredCents: 4_999_999 }];
  const built = buildShipRequest({ from: addresses.business!, to: addresses.home!, parcels, shipDate, service: 'FEDEX_2_DAY', labelFormat: 'pdf', isReturn: false, quotedCents: 1, idempotencyKey: 'k' }, account);
  assert.equal(!built.ok && built.error.code, 'insurance_above_limit');
  assert.match(!built.ok ? built.error.detail : '', /these 3 boxes are declared at \$100449\.98 together/);
});

test('several boxes with delivery options keep both documents: the package services on every box, the dry ice counted over all', () => {
  const optionSets: ShipmentOptions[] = [
    { signature: 'adult', alcohol: { recipient: 'licensee' }, additional_handling: true, dry_ice: { weight: { value: 12, unit: 'oz' } }, hazmat: 'lithium_metal_in_equipment' },
    { saturday_delivery: true, signature: 'indirect', hazmat: 'limited_quantity' },
  ];
  const threeBoxes = boxSets['3 boxes']!;
  for (const options of optionSets) {
    const rate = buildRateRequest({ from: addresses.business!, to: addresses.home!, parcels: threeBoxes, shipDate, options }, account);
    assertContract(fedexRateRequest, rate, `rate ${JSON.stringify(options)}`);
    const built = buildShipRequest({ from: addresses.business!, to: addresses.home!, parcels: threeBoxes, shipDate, options, service: 'FEDEX_2_DAY', labelFormat: 'pdf', isReturn: false, quotedCents: 1, idempotencyKey: 'k' }, account);
    assert.ok(built.ok);
    assertContract(fedexShipRequest, built.value, `ship ${JSON.stringify(options)}`);
    for (const body of [rate, built.value]) {
      const items = body.requestedShipment.requestedPackageLineItems;
      assert.equal(items.length, 3);
      assert.ok(items.every((i) => JSON.stringify(i.packageSpecialServices) === JSON.stringify(items[0]!.packageSpecialServices)), 'every box carries the package services');
    }
    if (options.dry_ice) assert.deepEqual((built.value.requestedShipment.shipmentSpecialServices as Record<string, unknown>).shipmentDryIceDetail, { totalWeight: { units: 'KG', value: 0.9 }, packageCount: 3 }, '12 oz is 0.3 kg a box, as each box declares it');
  }
});

test('the location search keeps the Location Search document, and the document refuses a search FedEx could not place', () => {
  for (const limit of [1, 10, 25]) assertContract(fedexFindLocationsRequest, buildLocationsRequest({ zip: '94105', limit }), `find locations, at most ${limit}`);
  const body = buildLocationsRequest({ zip: '94105', limit: 10 });
  const breaks = (change: Record<string, unknown>) => contractViolations(fedexFindLocationsRequest, { ...body, ...change });
  // No country ("Country code is REQUIRED for the search"), a US search without its postal code, no location at all.
  assert.ok(breaks({ location: { address: { postalCode: '94105' } } }).length > 0);
  assert.ok(breaks({ location: { address: { city: 'San Francisco', countryCode: 'US' } } }).length > 0);
  assert.ok(contractViolations(fedexFindLocationsRequest, { locationSearchCriterion: 'ADDRESS' }).length > 0);
  // A capability FedEx does not define, and a misspelt filter FedEx would ignore.
  assert.ok(breaks({ locationCapabilities: [{ transferOfPossessionType: 'HOLD' }] }).length > 0);
  assert.ok(breaks({ locationCapability: [{ transferOfPossessionType: 'HOLD_AT_LOCATION' }] }).length > 0);
});

test('a parcel held at a FedEx location is HOLD_AT_LOCATION with its locationId in both documents, for every domestic service; the detail and the type go together', () => {
  const options: ShipmentOptions = { hold_for_pickup: true, hold_location: { carrier: 'fedex', id: 'SFOA' } };
  const held = { specialServiceTypes: ['HOLD_AT_LOCATION'], holdAtLocationDetail: { locationId: 'SFOA' } };
  const rate = buildRateRequest({ from: addresses.business!, to: addresses.home!, parcels: [boxes.boxed], shipDate, options }, account);
  assertContract(fedexRateRequest, rate, 'rate held at a location');
  assert.deepEqual(rate.requestedShipment.shipmentSpecialServices, held);
  for (const service of services) {
    const built = buildShipRequest({ from: addresses.business!, to: addresses.home!, parcels: [boxes.boxed], shipDate, options, service, labelFormat: 'pdf', isReturn: false, quotedCents: 1, idempotencyKey: 'k' }, account);
    assert.ok(built.ok, service);
    assertContract(fedexShipRequest, built.value, `ship ${service} held at a location`);
    assert.deepEqual(built.value.requestedShipment.shipmentSpecialServices, held, service);
  }
  const ship = buildShipRequest({ from: addresses.business!, to: addresses.home!, parcels: [boxes.boxed], shipDate, service: 'FEDEX_2_DAY', labelFormat: 'pdf', isReturn: false, quotedCents: 1, idempotencyKey: 'k' }, account);
  assert.ok(ship.ok);
  const shipped = (special: unknown) => contractViolations(fedexShipRequest, { ...ship.value, requestedShipment: { ...ship.value.requestedShipment, shipmentSpecialServices: special } });
  const rated = (special: unknown) => contractViolations(fedexRateRequest, { ...rate, requestedShipment: { ...rate.requestedShipment, shipmentSpecialServices: special } });
  for (const breaks of [shipped, rated]) {
    assert.deepEqual(breaks({ ...held, holdAtLocationDetail: { locationId: 'SFOA', locationType: 'FEDEX_OFFICE' } }), []);
    // "HoldAtLocationDetail is Required, when HOLD_AT_LOCATION is chosen"; "Location ID is REQUIRED".
    assert.ok(breaks({ specialServiceTypes: ['HOLD_AT_LOCATION'] }).length > 0);
    assert.ok(breaks({ ...held, holdAtLocationDetail: { locationType: 'FEDEX_OFFICE' } }).length > 0);
    assert.ok(breaks({ holdAtLocationDetail: { locationId: 'SFOA' } }).length > 0, 'the detail without its type');
    // A location type outside HoldAtLocationDetail's enum (Location Search's FEDEX_EXPRESS_STATION is not in it).
    assert.ok(breaks({ ...held, holdAtLocationDetail: { locationId: 'SFOA', locationType: 'FEDEX_EXPRESS_STATION' } }).length > 0);
  }
});
