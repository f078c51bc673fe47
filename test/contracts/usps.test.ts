import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../src/schemas/address.ts';
import type { ParcelSpec, DomesticPurchaseRequest, DomesticRateRequest } from '../../src/carriers/carrier.ts';
import { domesticServices } from '../../src/carriers/catalog.ts';
import { buildAddressQuery } from '../../src/carriers/usps/address.ts';
import { cancelPath } from '../../src/carriers/usps/cancel.ts';
import { buildPaymentRequest } from '../../src/carriers/usps/payment.ts';
import { buildRateRequest } from '../../src/carriers/usps/rate.ts';
import { buildLabelRequest, buildReturnLabelRequest, labelHeaders } from '../../src/carriers/usps/ship.ts';
import { buildTokenRequest } from '../../src/carriers/usps/token.ts';
import { trackPath, trackQuery } from '../../src/carriers/usps/track.ts';
import { purchaseCases } from './purchase-cases.ts';
import { assertContract, contractViolations } from './check.ts';
import { AddressQuery } from './usps/addresses.ts';
import { CancelHeaders, CancelPath, LabelHeaders, LabelRequest, ReturnLabelRequest } from './usps/labels.ts';
import { ClientCredentialsRequest } from './usps/oauth.ts';
import { PaymentAuthorizationRequest } from './usps/payments.ts';
import { DomesticOptionsRequest } from './usps/shipping-options.ts';
import { TrackingPath, TrackingQuery } from './usps/tracking.ts';

// Every request the USPS adapter builds, for every service, label format, direction, parcel and kind of address,
// held against our schemas of the published USPS v3 contracts (test/contracts/usps/).

// The domestic label requests; international ones carry customs and have contracts of their own.
const services = domesticServices('usps').map((s) => s.code);

const addresses: Record<string, Address> = {
  minimal: { street1: '3120 M St NW', city: 'Washington', state: 'dc', zip: '20007' },
  full: { name: 'Ada Lovelace', company: 'Analytical Co', street1: '415 Mission St', street2: 'Floor 3', city: 'San Francisco', state: 'CA', zip: '94105-2533', phone: '(415) 555-0100', email: 'ada@example.com', residential: false },
  long: {
    name: 'Augusta Ada King-Noel Countess of Lovelace Baroness Wentworth of Nettlestead and Ockham Park',
    company: 'The Analytical Engine and Difference Engine Manufacturing Company of Greater San Francisco',
    street1: '1 Infinite Loop Building Number Seven Research and Development Campus West Entrance Gate C',
    street2: 'Suite 4500 Attention Receiving Dock Door Number Twelve Behind the Loading Area',
    city: 'Llanfairpwllgwyngyll-gogerychwyrndrobwll Village',
    state: 'CA',
    zip: '95014',
    phone: '+1 408 996 1010 extension 12345',
    email: 'a.very.long.mailbox.name.for.returns@warehouse.analytical-engine.example.com',
  },
  residential: { name: 'Grace Hopper', street1: '350 5th Ave', street2: 'Apt 4B', city: 'New York', state: 'NY', zip: '10118', phone: '2125551234', residential: true },
};

const parcels: Record<string, ParcelSpec> = {
  boxed: { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 } },
  'no dimensions': { weightLb: 0.5 },
  nonstandard: { weightLb: 30, dimensionsIn: { length: 6, width: 30, height: 12 } },
};

const base = { shipDate: new Date('2025-01-06T15:00:00Z') };

test('every outbound and return label request keeps LabelRequest / ReturnLabelRequest, with its headers', () => {
  let checked = 0;
  for (const { request: r, what } of purchaseCases({ services, parcels, addresses, shipDate: base.shipDate, reference: 'ORDER-1' })) {
    if (r.isReturn) {
      const body = buildReturnLabelRequest(r);
      assert.ok(body.ok, what);
      assertContract(ReturnLabelRequest, body.value, what);
    } else {
      assertContract(LabelRequest, buildLabelRequest(r), what);
    }
    assertContract(LabelHeaders, labelHeaders('payment-token', r.idempotencyKey), what);
    checked++;
  }
  assert.equal(checked, services.length * 3 * 3 * 4 * 4 * 2);
});

test('the contract catches what the adapter once sent: customerReference at the top, a shipment id as the key, 0 x 0 x 0', () => {
  const r: DomesticPurchaseRequest = { ...base, from: addresses.full!, to: addresses.minimal!, parcels: [parcels.boxed!], service: 'PRIORITY_MAIL', labelFormat: 'pdf', isReturn: false, quotedCents: 1, idempotencyKey: 'shp_01', reference: 'ORDER-1' };
  const body = buildLabelRequest(r) as Record<string, Record<string, unknown>>;
  assert.deepEqual(contractViolations(LabelRequest, { ...body, customerReference: [{ referenceNumber: 'ORDER-1' }] }), ['/ must NOT have additional properties (customerReference)']);
  assert.ok(contractViolations(LabelHeaders, { 'x-payment-authorization-token': 't', 'x-idempotency-key': 'shp_01' }).length > 0);
  const zeros = { ...body, packageDescription: { ...body.packageDescription, length: 0, width: 0, height: 0 } };
  assert.equal(contractViolations(LabelRequest, zeros).length, 3);
  assert.ok(contractViolations(ReturnLabelRequest, { ...body, packageDescription: { ...body.packageDescription, mailClass: 'PRIORITY_MAIL' } }).length > 0, 'an outbound class on the return endpoint');
});

test('every rate search, outbound and return, keeps DomesticOptionsRequest', () => {
  for (const [parcelName, parcel] of Object.entries(parcels))
    for (const [fromName, from] of Object.entries(addresses))
      for (const isReturn of [false, true]) {
        const r: DomesticRateRequest = { ...base, from, to: addresses.residential!, parcels: [parcel], isReturn };
        assertContract(DomesticOptionsRequest, buildRateRequest(r), `${parcelName} from ${fromName}${isReturn ? ' (return)' : ''}`);
        assertContract(DomesticOptionsRequest, buildRateRequest(r, false), `${parcelName} from ${fromName}, outbound commitments`);
      }
});

test('token, payment, cancel, tracking and address requests keep their contracts', () => {
  assertContract(ClientCredentialsRequest, buildTokenRequest({ clientId: 'id', clientSecret: 'secret' }), 'token form');
  assertContract(PaymentAuthorizationRequest, buildPaymentRequest({ accountNumber: '1000123456', crid: '56781234', mid: '927000001' }), 'payment authorization');
  assertContract(PaymentAuthorizationRequest, buildPaymentRequest({ accountNumber: '1000123456', crid: '56781234', mid: '927000001', manifestMid: '123456' }), 'payment authorization, own manifest MID');
  const tn = '9205590000000000000000';
  assert.equal(cancelPath(tn), `/labels/v3/label/${tn}`);
  assertContract(CancelPath, { trackingNumber: decodeURIComponent(cancelPath(tn).split('/').at(-1)!) }, 'cancel path');
  assertContract(CancelHeaders, { 'x-payment-authorization-token': 'payment-token' }, 'cancel headers');
  assert.equal(trackPath(tn), `/tracking/v3/tracking/${tn}`);
  assertContract(TrackingPath, { trackingNumber: tn }, 'tracking path');
  assertContract(TrackingQuery, trackQuery, 'tracking query');
  for (const [name, address] of Object.entries(addresses)) {
    // As the HTTP client sends it: parameters without a value are left out.
    const query = Object.fromEntries(Object.entries(buildAddressQuery(address)).filter(([, v]) => v !== undefined));
    assertContract(AddressQuery, query, `address query (${name})`);
  }
  assert.ok(contractViolations(AddressQuery, { streetAddress: '1 Main St', state: 'CA' }).length > 0, 'neither city nor ZIP');
});

test('the payment contract holds each role to what payments.yaml requires of it, and refuses what the adapter once sent', () => {
  // Defect: shipd once sent both roles with only accountType and accountNumber.
  const old = { roles: ['PAYER', 'LABEL_OWNER'].map((roleName) => ({ roleName, accountType: 'EPS', accountNumber: '1000123456' })) };
  assert.deepEqual(contractViolations(PaymentAuthorizationRequest, old), [
    "/roles/0 must have required property 'CRID'",
    '/roles/0 must match "then" schema',
    "/roles/1 must have required property 'CRID'",
    "/roles/1 must have required property 'MID'",
    "/roles/1 must have required property 'manifestMID'",
    '/roles/1 must match "then" schema',
  ]);
  const payer = { roleName: 'PAYER', CRID: '56781234', accountType: 'EPS', accountNumber: '1000123456' };
  const owner = { roleName: 'LABEL_OWNER', CRID: '56781234', MID: '927000001', manifestMID: '927000001' };
  assert.deepEqual(contractViolations(PaymentAuthorizationRequest, { roles: [payer, owner] }), []);
  const faults = (roles: object[]) => contractViolations(PaymentAuthorizationRequest, { roles });
  assert.ok(faults([payer]).some((f) => f.includes('contain')), 'no LABEL_OWNER');
  assert.ok(faults([{ ...payer, accountNumber: undefined }, owner]).some((f) => f.includes("'accountNumber'")), 'EPS without its account number');
  assert.ok(faults([payer, { ...owner, MID: '12345' }]).some((f) => f.startsWith('/roles/1/MID')), 'a MID of 5 digits');
  assert.ok(faults([payer, { ...owner, manifestMID: '1234567' }]).some((f) => f.startsWith('/roles/1/manifestMID')), 'a manifest MID of 7 digits');
  assert.ok(faults([payer, owner, { roleName: 'LABEL_PROVIDER', CRID: '12', accountType: 'PERMIT', accountNumber: '1' }]).includes('/roles/2/accountType must be equal to constant'), 'a label provider paying by permit');
});
