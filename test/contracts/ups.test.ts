import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CarrierResult, DomesticPurchaseRequest, DomesticRateRequest } from '../../src/carriers/carrier.ts';
import { buildAddressRequest } from '../../src/carriers/ups/address.ts';
import { buildVoidRequest } from '../../src/carriers/ups/cancel.ts';
import { buildRateRequest, upsServices } from '../../src/carriers/ups/rate.ts';
import { buildLabelRecoveryRequest } from '../../src/carriers/ups/recovery.ts';
import { buildShipRequest } from '../../src/carriers/ups/ship.ts';
import { buildTokenRequest } from '../../src/carriers/ups/token.ts';
import { buildTrackRequest } from '../../src/carriers/ups/track.ts';
import { servicesWithoutReturns, type UpsCall } from '../../src/carriers/ups/wire.ts';
import type { Address } from '../../src/schemas/address.ts';
import { assertContract, contractViolations } from './check.ts';
import { xavCall } from './ups/address-validation.ts';
import { tokenCall } from './ups/oauth.ts';
import { rateCall } from './ups/rating.ts';
import { labelRecoveryCall, shipCall, voidCall } from './ups/shipping.ts';
import { trackCall } from './ups/tracking.ts';

const account = 'A1B2C3';
const shipDate = new Date('2026-03-02T12:00:00Z');

function built(c: CarrierResult<UpsCall>): UpsCall {
  if (!c.ok) assert.fail(`the builder refused: ${c.error.detail}`);
  return c.value;
}

/** Every kind of address the builders must handle: with and without company, phone, street2; home and business; long streets. */
const addresses: Record<string, Address> = {
  plain: { name: 'Grace Hopper', street1: '100 Main St', city: 'New York', state: 'NY', zip: '10001' },
  business: { name: 'Ada Lovelace', company: 'Analytical Engines Incorporated of San Francisco', street1: '415 Mission St', street2: 'Floor 5', city: 'San Francisco', state: 'CA', zip: '94105-1804', phone: '+1 (415) 555-0100' },
  homeWithCompany: { name: 'Alan Turing', company: 'Bletchley', street1: '12 Park Ave', city: 'Austin', state: 'tx', zip: '78701', residential: true, phone: '512.555.0199' },
  businessWithoutCompany: { name: 'Katherine Johnson', street1: '1 NASA Dr', city: 'Hampton', state: 'VA', zip: '23681', residential: false },
  longName: { name: 'Maria Gaetana Agnesi de la Milano Universitas Scientiarum', street1: '9 Via Roma', city: 'Newark', state: 'NJ', zip: '07102' },
  over35: { name: 'Long Street', street1: '1234 North Martin Luther King Junior Boulevard', city: 'Chicago', state: 'IL', zip: '60601' },
  over70: {
    name: 'Longer Street',
    street1: 'Apartment Complex Number Seven Hundred and Twelve at the Corner of Elm',
    street2: 'Building C Unit 4',
    city: 'Saint Petersburg Beach Village',
    state: 'FL',
    zip: '33706',
  },
};
const parcels = {
  withDimensions: { weightLb: 4.25, dimensionsIn: { length: 12.4, width: 9.5, height: 3.2 } },
  withoutDimensions: { weightLb: 0.4 },
  heavy: { weightLb: 149.95 },
  insured: { weightLb: 2, insuredCents: 45_000 },
  insuredAtLimit: { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 }, insuredCents: 5_000_000 },
};
const pairs = Object.entries(addresses).flatMap(([a, from]) => Object.entries(addresses).filter(([b]) => b !== a).map(([b, to]) => ({ name: `${a} → ${b}`, from, to })));

test('token request keeps OAuthClientCredentials.yaml', () => {
  assertContract(tokenCall, buildTokenRequest({ clientId: 'id', clientSecret: 's:ecret', accountNumber: account }), 'token');
  assertContract(tokenCall, buildTokenRequest({ clientId: 'id', clientSecret: 'secret' }), 'token without account');
});

test('rate requests keep Rating.yaml: every address pair and parcel, outbound and return, with and without an account', () => {
  for (const { name, from, to } of pairs) {
    for (const [kind, parcel] of Object.entries(parcels)) {
      for (const isReturn of [false, true]) {
        for (const acct of [account, undefined]) {
          const r: DomesticRateRequest = { from, to, parcels: [parcel], shipDate, isReturn };
          assertContract(rateCall, built(buildRateRequest(r, acct)), `rate ${name} ${kind}${isReturn ? ' return' : ''}${acct ? '' : ' no account'}`);
        }
      }
    }
  }
});

test('ship requests keep Shipping.yaml: every service, label format, outbound and return, address pair and parcel', () => {
  for (const service of upsServices.map((s) => s.code)) {
    for (const labelFormat of ['pdf', 'png', 'zpl'] as const) {
      for (const isReturn of [false, true]) {
        for (const { name, from, to } of pairs) {
          for (const [kind, parcel] of Object.entries(parcels)) {
            const r: DomesticPurchaseRequest = { from, to, parcels: [parcel], shipDate, service, quotedCents: 1000, labelFormat, isReturn, idempotencyKey: 'key-1', reference: 'ORD-1234567890-ABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789' };
            const what = `ship ${service} ${labelFormat}${isReturn ? ' return' : ''} ${name} ${kind}`;
            const c = buildShipRequest(r, account);
            if (isReturn && servicesWithoutReturns.has(service)) {
              assert.equal(!c.ok && c.error.code, 'service_unavailable', what);
              continue;
            }
            assertContract(shipCall, built(c), what);
          }
        }
      }
    }
  }
});

test('the ship contract refuses what UPS refuses: lines over 35, a fourth line, a return without ShipFrom or package description, a service not sold as a return', () => {
  const ok = built(buildShipRequest({ from: addresses.plain!, to: addresses.business!, parcels: [parcels.withDimensions], shipDate, service: '03', quotedCents: 1, labelFormat: 'pdf', isReturn: true, idempotencyKey: 'k' }, account));
  assertContract(shipCall, ok, 'return');
  interface Editable {
    ShipTo: { Address: { AddressLine: string[] } };
    ShipFrom?: unknown;
    Service: { Code: string };
    Package: { Description?: string; Dimensions: { Length: string } }[];
    ReturnServiceCode?: string;
  }
  const edit = (change: (s: Editable) => void): unknown => {
    const copy = structuredClone(ok) as { body: { ShipmentRequest: { Shipment: Editable } } };
    change(copy.body.ShipmentRequest.Shipment);
    return copy;
  };
  const faults = (v: unknown) => contractViolations(shipCall, v).join('\n');
  assert.match(faults(edit((s) => (s.ShipTo.Address.AddressLine = ['1234 North Martin Luther King Junior Boulevard']))), /AddressLine\/0 must NOT have more than 35 characters/);
  assert.match(faults(edit((s) => (s.ShipTo.Address.AddressLine = ['a', 'b', 'c', 'd']))), /AddressLine must NOT have more than 3 items/);
  assert.match(faults(edit((s) => delete s.ShipFrom)), /must have required property 'ShipFrom'/);
  assert.match(faults(edit((s) => delete s.Package[0]!.Description)), /must have required property 'Description'/);
  assert.match(faults(edit((s) => (s.Service.Code = '13'))), /Service\/Code must NOT be valid/);
  assert.match(faults(edit((s) => (s.Package[0]!.Dimensions.Length = '12.5'))), /Length/);
  assert.match(faults(edit((s) => (s.ReturnServiceCode = '9'))), /must NOT have additional properties \(ReturnServiceCode\)/);
});

test('void, label recovery, tracking and address validation requests keep their specs', () => {
  assertContract(voidCall, buildVoidRequest('1z023e2x0214323462'), 'void');
  assertContract(labelRecoveryCall, buildLabelRecoveryRequest('1Z023E2X0214323462'), 'label recovery');
  assertContract(trackCall, buildTrackRequest('1Z023E2X0214323462'), 'track');
  for (const [name, a] of Object.entries(addresses)) assertContract(xavCall, built(buildAddressRequest(a)), `xav ${name}`);
});

test('label recovery as it was built (version v2409, no Request) breaks Shipping.yaml', () => {
  const old = {
    path: '/api/labels/v2409/recovery',
    body: { LabelRecoveryRequest: { LabelSpecification: { LabelImageFormat: { Code: 'PDF' }, HTTPUserAgent: 'Mozilla/4.5' }, TrackingNumber: '1Z023E2X0214323462' } },
  };
  const faults = contractViolations(labelRecoveryCall, old).join('\n');
  assert.match(faults, /\/path must match pattern/);
  assert.match(faults, /must have required property 'Request'/);
});

test('the declared value keeps both specs as sent, and a currency or amount of the wrong shape breaks them', () => {
  const r: DomesticRateRequest = { from: addresses.plain!, to: addresses.business!, parcels: [parcels.insured!], shipDate };
  const rate = built(buildRateRequest(r, account)) as unknown as { body: { RateRequest: { Shipment: { Package: Record<string, any>[] } } } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited below
  assert.deepEqual(rate.body.RateRequest.Shipment.Package[0]!.PackageServiceOptions, { DeclaredValue: { CurrencyCode: 'USD', MonetaryValue: '00450.00' } });
  const ship = built(buildShipRequest({ ...r, service: '03', quotedCents: 1, labelFormat: 'pdf', isReturn: false, idempotencyKey: 'k' }, account)) as unknown as { body: { ShipmentRequest: { Shipment: { Package: Record<string, any>[] } } } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited below
  assert.deepEqual(ship.body.ShipmentRequest.Shipment.Package[0]!.PackageServiceOptions, { DeclaredValue: { CurrencyCode: 'USD', MonetaryValue: '450.00' } });
  const declared = (call: { body: unknown }, pkgAt: (b: any) => Record<string, any>, value: unknown) => { // eslint-disable-line @typescript-eslint/no-explicit-any -- a copy to spoil
    const copy = structuredClone(call);
    pkgAt(copy.body).PackageServiceOptions = { DeclaredValue: value };
    return copy;
  };
  const ratePkg = (b: any) => b.RateRequest.Shipment.Package[0]; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
  const shipPkg = (b: any) => b.ShipmentRequest.Shipment.Package[0]; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
  assert.match(contractViolations(rateCall, declared(rate, ratePkg, { CurrencyCode: 'US', MonetaryValue: '00450.00' })).join('\n'), /CurrencyCode must NOT have fewer than 3 characters/);
  assert.match(contractViolations(rateCall, declared(rate, ratePkg, { CurrencyCode: 'USD', MonetaryValue: '450.00' })).join('\n'), /MonetaryValue must NOT have fewer than 8 characters/);
  assert.match(contractViolations(rateCall, declared(rate, ratePkg, { MonetaryValue: '00450.00' })).join('\n'), /must have required property 'CurrencyCode'/);
  assert.match(contractViolations(shipCall, declared(ship, shipPkg, { CurrencyCode: 'USD', MonetaryValue: '$450' })).join('\n'), /MonetaryValue must match pattern/);
});
