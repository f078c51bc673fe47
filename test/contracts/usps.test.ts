import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../src/schemas/address.ts';
import type { ParcelSpec, DomesticPurchaseRequest, DomesticRateRequest } from '../../src/carriers/carrier.ts';
import { domesticServices } from '../../src/carriers/catalog.ts';
import { optionCapabilities, optionRule, type OptionAsk } from '../../src/carriers/options.ts';
import type { ShipmentOptions } from '../../src/schemas/options.ts';
import { uspsExtras } from '../../src/carriers/usps/extra-services.ts';
import { buildAddressQuery } from '../../src/carriers/usps/address.ts';
import { cancelPath } from '../../src/carriers/usps/cancel.ts';
import { buildPaymentRequest } from '../../src/carriers/usps/payment.ts';
import { buildRateRequest } from '../../src/carriers/usps/rate.ts';
import { buildLabelRequest, buildReturnLabelRequest, labelHeaders } from '../../src/carriers/usps/ship.ts';
import { buildTokenRequest } from '../../src/carriers/usps/token.ts';
import { heldAt, holdRefusal } from '../../src/carriers/usps/hold.ts';
import { buildLocationsQuery } from '../../src/carriers/usps/locations.ts';
import { PostOfficeLocationsQuery, postOfficeLocationsQueryFaults } from './usps/locations.ts';
import { trackPath, trackQuery } from '../../src/carriers/usps/track.ts';
import { purchaseCases } from './purchase-cases.ts';
import { assertContract, contractViolations } from './check.ts';
import { AddressQuery } from './usps/addresses.ts';
import { CancelHeaders, CancelPath, labelExtraServiceFaults, LabelHeaders, LabelRequest, ReturnLabelRequest } from './usps/labels.ts';
import { ClientCredentialsRequest } from './usps/oauth.ts';
import { PaymentAuthorizationRequest } from './usps/payments.ts';
import { DomesticOptionsRequest, priceExtraServiceFaults } from './usps/shipping-options.ts';
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
  // Above $500: 931, which the Labels spec asks physicalSignatureRequired with.
  'insured $800': { weightLb: 3, dimensionsIn: { length: 12, width: 10, height: 6 }, insuredCents: 80_000 },
};

/** Each delivery option USPS does, as a client asks it; a row added to its table without one here fails the tests. */
const askedAs: Record<OptionAsk, ShipmentOptions | undefined> = {
  'signature:standard': { signature: 'standard' },
  'signature:adult': { signature: 'adult' },
  'signature:indirect': undefined,
  saturday_delivery: undefined,
  delivery_confirmation: { delivery_confirmation: true },
  hold_for_pickup: { hold_for_pickup: true, hold_location: { carrier: 'usps', id: '1390271' } },
  additional_handling: undefined,
  non_machinable: { non_machinable: true },
  dry_ice: { dry_ice: { weight: { value: 1, unit: 'lb' } } },
  'alcohol:consumer': undefined,
  'alcohol:licensee': undefined,
  'hazmat:limited_quantity': { hazmat: 'limited_quantity' },
  'hazmat:lithium_ion_in_equipment': { hazmat: 'lithium_ion_in_equipment' },
  'hazmat:lithium_metal_in_equipment': { hazmat: 'lithium_metal_in_equipment' },
  carbon_neutral: undefined,
};

/** No options, each option the service does alone, and several together. */
function optionSets(service: string): ShipmentOptions[] {
  const alone = (Object.keys(optionCapabilities.usps) as OptionAsk[]).flatMap((ask) => {
    const asked = askedAs[ask];
    if (!asked) throw new Error(`the USPS contract test has no request for ${ask}`);
    return optionRule('usps', service, ask) ? [asked] : [];
  });
  return [{}, ...alone, { signature: 'adult', dry_ice: { weight: { value: 2, unit: 'lb' } }, hazmat: 'lithium_metal_in_equipment', non_machinable: true }];
}

const base = { shipDate: new Date('2025-01-06T15:00:00Z') };

test('every outbound and return label request, with each delivery option the service does, keeps LabelRequest / ReturnLabelRequest and its rules, with its headers', () => {
  let checked = 0;
  let held = 0;
  const optioned = new Set<string>();
  for (const { request: r, what } of purchaseCases({ services, parcels, addresses, shipDate: base.shipDate, reference: 'ORDER-1', options: optionSets })) {
    if (r.options) optioned.add(JSON.stringify(r.options));
    checked++;
    // What USPS would refuse of a hold is refused before a label is built (hold.ts); the contract refuses it too.
    if (holdRefusal(r)) {
      if (!r.isReturn) assert.ok(contractViolations(LabelRequest, buildLabelRequest(r)).length > 0, what);
      continue;
    }
    let body: Record<string, unknown>;
    if (r.isReturn) {
      const built = buildReturnLabelRequest(r);
      assert.ok(built.ok, what);
      assertContract(ReturnLabelRequest, built.value, what);
      body = built.value;
    } else {
      body = buildLabelRequest(r);
      assertContract(LabelRequest, body, what);
    }
    const pkg = body.packageDescription as Record<string, unknown>;
    assert.deepEqual(labelExtraServiceFaults(pkg, !r.isReturn), [], what);
    const extras = uspsExtras(r.service, r.options)!;
    for (const code of extras.codes) assert.ok((pkg.extraServices as number[]).includes(code), `${what}: ${code}`);
    assert.equal(pkg.hasNonstandardCharacteristics === true, extras.nonstandard, what);
    if (extras.nonstandard) assert.equal(pkg.processingCategory, 'NONSTANDARD', what);
    assertContract(LabelHeaders, labelHeaders('payment-token', r.idempotencyKey), what);
    if (heldAt(r.options)) held++;
  }
  assert.ok(held > 0, 'some labels were held at a Post Office');
  assert.equal(checked, services.length * 3 * 4 * 4 * 4 * 2);
  assert.equal(optioned.size, new Set(services.flatMap((s) => optionSets(s).slice(1).map((o) => JSON.stringify(o)))).size, 'every option set was built');
});

test('the rate search for a service asks its extra service codes of its class alone, and keeps DomesticOptionsRequest and its rules', () => {
  for (const service of services)
    for (const options of optionSets(service))
      for (const isReturn of [false, true])
        for (const [parcelName, parcel] of Object.entries(parcels)) {
          const r: DomesticRateRequest = { ...base, from: addresses.full!, to: addresses.residential!, parcels: [parcel], isReturn, options };
          const what = `${service} ${JSON.stringify(options)} ${parcelName}${isReturn ? ' (return)' : ''}`;
          const body = buildRateRequest(r, isReturn, service) as { packageDescription: Record<string, unknown> };
          assertContract(DomesticOptionsRequest, body, what);
          assert.deepEqual(priceExtraServiceFaults(body.packageDescription), [], what);
          assert.equal(body.packageDescription.mailClass, isReturn ? `${service}_RETURN_SERVICE` : service, what);
          const codes = (body.packageDescription.extraServices as number[] | undefined) ?? [];
          assert.deepEqual(codes.filter((c) => c !== 930 && c !== 931), uspsExtras(service, options)!.codes, what);
        }
});

test('the published contracts refuse an extra service code they do not list, and the rules 981 on another class than Priority Mail Express', () => {
  const r: DomesticPurchaseRequest = { ...base, from: addresses.full!, to: addresses.minimal!, parcels: [parcels.boxed!], service: 'PRIORITY_MAIL', labelFormat: 'pdf', isReturn: false, quotedCents: 1, idempotencyKey: 'k', options: { signature: 'standard' } };
  const label = buildLabelRequest(r) as { packageDescription: Record<string, unknown> };
  assert.deepEqual(label.packageDescription.extraServices, [921]);
  const withCodes = (codes: number[]) => ({ ...label, packageDescription: { ...label.packageDescription, extraServices: codes } });
  assert.deepEqual(contractViolations(LabelRequest, withCodes([999])), ['/packageDescription/extraServices/0 must be equal to one of the allowed values']);
  // 940 Registered Mail is priced by the options search but not sold on a label.
  assert.equal(contractViolations(LabelRequest, withCodes([940])).length, 1);
  assert.deepEqual(labelExtraServiceFaults(withCodes([981]).packageDescription, true), ['/packageDescription/extraServices extra service 981 is for PRIORITY_MAIL_EXPRESS only']);
  const search = buildRateRequest({ ...r, isReturn: false }, false, 'PRIORITY_MAIL') as { packageDescription: Record<string, unknown> };
  assert.deepEqual(contractViolations(DomesticOptionsRequest, { ...search, packageDescription: { ...search.packageDescription, extraServices: [123] } }), ['/packageDescription/extraServices/0 must be equal to one of the allowed values']);
  assert.equal(priceExtraServiceFaults({ ...search.packageDescription, extraServices: [981] }).length, 1);
  assert.deepEqual(priceExtraServiceFaults({ ...search.packageDescription, mailClass: 'PRIORITY_MAIL_EXPRESS', extraServices: [981] }), []);
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

test('a held label must carry the facilityId, email and phone of toAddress and the names, email and phone of fromAddress, and no parcel locker', () => {
  const r: DomesticPurchaseRequest = {
    ...base, from: addresses.full!, to: addresses.full!, parcels: [parcels.boxed!], service: 'USPS_GROUND_ADVANTAGE', labelFormat: 'pdf', isReturn: false, quotedCents: 1, idempotencyKey: 'k',
    options: { hold_for_pickup: true, hold_location: { carrier: 'usps', id: '1390271' } },
  };
  const body = buildLabelRequest(r) as Record<string, Record<string, unknown>>;
  assert.deepEqual(contractViolations(LabelRequest, body), []);
  const without = (side: 'toAddress' | 'fromAddress', field: string) => ({ ...body, [side]: Object.fromEntries(Object.entries(body[side]!).filter(([k]) => k !== field)) });
  for (const field of ['facilityId', 'email', 'phone']) assert.ok(contractViolations(LabelRequest, without('toAddress', field)).includes(`/toAddress must have required property '${field}'`), field);
  for (const field of ['firstName', 'lastName', 'email', 'phone']) assert.ok(contractViolations(LabelRequest, without('fromAddress', field)).includes(`/fromAddress must have required property '${field}'`), field);
  assert.ok(contractViolations(LabelRequest, { ...body, toAddress: { ...body.toAddress, parcelLockerDelivery: true } }).length > 0);
  assert.ok(contractViolations(LabelRequest, { ...body, toAddress: { ...body.toAddress, facilityId: '12345678' } }).length > 0, 'a facilityId of 8 characters');
  // Not held, the same label needs none of them.
  assert.deepEqual(contractViolations(LabelRequest, without('toAddress', 'holdForPickup')), []);
});

test('the Post Office search keeps the Locations query contract; the contract refuses an incomplete query and out-of-range numbers', () => {
  for (const limit of [1, 10, 25, 500]) {
    const query = buildLocationsQuery({ zip: '94105', limit });
    assertContract(PostOfficeLocationsQuery, query, `limit ${limit}`);
    assert.deepEqual(postOfficeLocationsQueryFaults(query), [], `limit ${limit}`);
  }
  assert.ok(contractViolations(PostOfficeLocationsQuery, { ZIPCode: '94105', pickupService: 'HOLD_FOR_PICKUPS' }).length > 0);
  assert.ok(contractViolations(PostOfficeLocationsQuery, { ZIPCode: '94105', zip: '94105' }).length > 0);
  assert.deepEqual(postOfficeLocationsQueryFaults({ radius: '20' }), ['a complete query needs a domestic address, a city and state, a ZIPCode, or LAT and LONG']);
  assert.deepEqual(postOfficeLocationsQueryFaults({ ZIPCode: '94105', limit: '101', radius: '0' }), ['/radius must be between 1 and 100', '/limit must be between 1 and 100']);
  assert.equal(postOfficeLocationsQueryFaults({ ZIPCode: '94105', pickupService: 'PICKUP_PARCEL_LOCKER' }).length, 1);
});
