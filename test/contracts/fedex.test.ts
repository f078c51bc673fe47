import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../src/schemas/address.ts';
import type { LabelRef, ParcelSpec, DomesticPurchaseRequest, DomesticRateRequest } from '../../src/carriers/carrier.ts';
import { domesticServices } from '../../src/carriers/catalog.ts';
import { buildAddressRequest } from '../../src/carriers/fedex/address.ts';
import { buildCancelRequest } from '../../src/carriers/fedex/cancel.ts';
import { usPhone } from '../../src/carriers/fedex/party.ts';
import { buildRateRequest } from '../../src/carriers/fedex/rate.ts';
import { buildShipRequest } from '../../src/carriers/fedex/ship.ts';
import { buildTokenRequest } from '../../src/carriers/fedex/token.ts';
import { buildTrackRequest } from '../../src/carriers/fedex/track.ts';
import { purchaseCases } from './purchase-cases.ts';
import { assertContract, contractViolations } from './check.ts';
import { fedexAddressRequest } from './fedex/address.ts';
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

const parcels: Record<string, ParcelSpec> = {
  boxed: { weightLb: 2, dimensionsIn: { length: 10.5, width: 8, height: 4.2 } },
  'no dimensions': { weightLb: 0.5 },
  huge: { weightLb: 68.4, dimensionsIn: { length: 1200, width: 30, height: 12 } },
  insured: { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 }, insuredCents: 45_000 },
};

const shipDate = new Date('2025-01-06T15:00:00Z');

test('every rate request, outbound and return, keeps the rate document', () => {
  let checked = 0;
  for (const [parcelName, parcel] of Object.entries(parcels))
    for (const [fromName, from] of Object.entries(addresses))
      for (const [toName, to] of Object.entries(addresses))
        for (const isReturn of [false, true])
          for (const only of [undefined, ...services.map((s) => [s])]) {
            const r: DomesticRateRequest = { from, to, parcels: [parcel], shipDate, isReturn, ...(only ? { services: only } : {}) };
            assertContract(fedexRateRequest, buildRateRequest(r, account), `${isReturn ? 'return' : 'outbound'} rate ${only ?? 'shop'} ${parcelName} from ${fromName} to ${toName}`);
            checked++;
          }
  assert.equal(checked, Object.keys(parcels).length * 5 * 5 * 2 * (services.length + 1));
});

test('every ship request, for every service, label format and direction, keeps the ship document or is refused before it is sent', () => {
  let built = 0;
  let refused = 0;
  for (const { request: r, what } of purchaseCases({ services, parcels, addresses, shipDate, reference: 'ORDER-2025-000000000000000000001234' })) {
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
  assert.equal(built + refused, services.length * 3 * Object.keys(parcels).length * 5 * 5 * 2);
  assert.equal(refused, services.length * 3 * Object.keys(parcels).length * 5 * 2);
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
  const r: DomesticPurchaseRequest = { from: addresses.business!, to: addresses.home!, parcels: [parcels.boxed!], shipDate, service: 'FEDEX_GROUND', labelFormat: 'zpl', isReturn: false, quotedCents: 1, idempotencyKey: 'k' };
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
  const rate = buildRateRequest({ from: addresses.business!, to: addresses.home!, parcels: [parcels.boxed!], shipDate }, account);
  const withStreets = { ...rate, requestedShipment: { ...rate.requestedShipment, recipient: { address: { ...rate.requestedShipment.recipient.address, streetLines: ['350 5th Ave'] } } } };
  assert.deepEqual(contractViolations(fedexRateRequest, withStreets), ['/requestedShipment/recipient/address must NOT have additional properties (streetLines)']);
  assert.ok(contractViolations(fedexRateRequest, { ...rate, requestedShipment: { ...rate.requestedShipment, rateRequestType: ['RETAIL'] } }).length > 0);
  assert.ok(contractViolations(fedexTrackRequest, { includeDetailedScans: true, trackingInfo: [] }).length > 0);
  assert.ok(contractViolations(fedexTokenForm, { grant_type: 'client_credentials', client_id: 'x' }).length > 0);
  assert.ok(contractViolations(fedexAddressRequest, { addressesToValidate: [{ address: { streetLines: ['1 Main St'], city: 'Nashville', postalCode: '37201', residential: true } }] }).length > 0);
});
