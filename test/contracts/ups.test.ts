import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CarrierResult, DomesticPurchaseRequest, DomesticRateRequest, ParcelSpec, PickupRequest } from '../../src/carriers/carrier.ts';
import { liveOptionsRefusal, type ShipmentOptions } from '../../src/carriers/options.ts';
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
import { purchaseCases } from './purchase-cases.ts';
import { xavCall } from './ups/address-validation.ts';
import { tokenCall } from './ups/oauth.ts';
import { rateCall } from './ups/rating.ts';
import { labelRecoveryCall, shipCall, voidCall } from './ups/shipping.ts';
import { trackCall } from './ups/tracking.ts';
import { pickupCancelCall, pickupCreationCall, pickupPendingCall, pickupRateCall } from './ups/pickup.ts';
import { locatorCall } from './ups/locator.ts';
import { buildAccessPointLookup, buildAccessPointSearch } from '../../src/carriers/ups/locator.ts';
import type { FoundLocation } from '../../src/carriers/carrier.ts';
import {
  buildPendingStatusRequest,
  buildPickupCancelRequest,
  buildPickupCreationRequest,
  buildPickupRateRequest,
  parsePendingStatusResponse,
  parsePickupCancelResponse,
  parsePickupCreationResponse,
  parsePickupRateResponse,
  pickupWeight,
  upsPickupFailure,
} from '../../src/carriers/ups/pickup.ts';

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
  assertContract(voidCall, buildVoidRequest('1Z023E2X0214323462', ['1z023e2x0214323471']), 'void of one package');
  assertContract(voidCall, buildVoidRequest('1Z023E2X0214323462', Array.from({ length: 20 }, (_, i) => `1Z023E2X02143234${String(i).padStart(2, '0')}`)), 'void of 20 packages');
  assertContract(labelRecoveryCall, buildLabelRecoveryRequest('1Z023E2X0214323462'), 'label recovery');
  assertContract(trackCall, buildTrackRequest('1Z023E2X0214323462'), 'track');
  for (const [name, a] of Object.entries(addresses)) assertContract(xavCall, built(buildAddressRequest(a)), `xav ${name}`);
});

test("the void contract takes one package's 1Z or the spec's bracketed list of up to 20, and refuses anything else", () => {
  const path = buildVoidRequest('1Z023E2X0214323462').path;
  const asked = (trackingnumber: string) => contractViolations(voidCall, { path, query: { trackingnumber } }).join('\n');
  const ones = Array.from({ length: 21 }, (_, i) => `"1Z023E2X02143234${String(i).padStart(2, '0')}"`);
  assert.equal(asked('1Z023E2X0214323471'), '');
  assert.equal(asked(`[${ones.slice(0, 20).join(',')}]`), '');
  for (const wrong of ['1z023e2x0214323471', '1Z023E2X021432347', `[${ones.join(',')}]`, '1Z023E2X0214323471,1Z023E2X0214323489']) {
    assert.match(asked(wrong), /trackingnumber must match pattern/, wrong);
  }
  assert.match(contractViolations(voidCall, { path, query: { trackingnumbers: '1Z023E2X0214323471' } }).join('\n'), /must NOT have additional properties \(trackingnumbers\)/);
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

/** Boxes of one shipment: mixed sizes, some insured, some with their own reference, and UPS's most a Shipment holds. */
const boxSets: Record<string, ParcelSpec[]> = {
  three: [
    { ...parcels.withDimensions, reference: 'Box 1: mugs' },
    { ...parcels.insured, reference: 'Box 2: a reference of more than thirty-five characters' },
    parcels.withoutDimensions,
  ],
  heavyAndInsured: [parcels.heavy, parcels.insuredAtLimit],
  twenty: Array.from({ length: 20 }, (_, i) => ({ weightLb: 1 + i, dimensionsIn: { length: 12, width: 10, height: 2 + i }, reference: `Box ${i + 1}` })),
};
const fewAddresses = { plain: addresses.plain!, business: addresses.business!, homeWithCompany: addresses.homeWithCompany!, over70: addresses.over70! };

test('several boxes keep Rating.yaml and Shipping.yaml: a Package per box in order, each with its own weight, declared value and references', () => {
  const cases = purchaseCases({ services: upsServices.map((s) => s.code), parcels: {}, addresses: fewAddresses, shipDate, reference: 'ORD-1234567890', boxSets });
  let checked = 0;
  for (const { request, what } of cases) {
    if (request.isReturn) continue;
    const ship = built(buildShipRequest(request, account)) as { body: { ShipmentRequest: { Shipment: { Package: Record<string, any>[] } } } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- read below
    assertContract(shipCall, ship, `ship ${what}`);
    const packages = ship.body.ShipmentRequest.Shipment.Package;
    assert.equal(packages.length, request.parcels.length, what);
    packages.forEach((p, i) => {
      const box = request.parcels[i]!;
      assert.equal(Number(p.PackageWeight.Weight), Math.ceil(box.weightLb * 10) / 10, `${what}: box ${i + 1}'s weight`);
      assert.equal(p.PackageServiceOptions?.DeclaredValue.MonetaryValue, box.insuredCents === undefined ? undefined : (box.insuredCents / 100).toFixed(2));
      const refs = (p.ReferenceNumber ?? []).map((r: { Value: string }) => r.Value);
      if (box.reference) assert.equal(refs.at(-1), box.reference.slice(0, 35).trim(), `${what}: box ${i + 1}'s own reference comes last`);
    });
    const rate: DomesticRateRequest = { from: request.from, to: request.to, parcels: request.parcels, shipDate };
    const rated = built(buildRateRequest(rate, account)) as { body: { RateRequest: { Shipment: { Package: unknown[]; NumOfPieces: string } } } };
    assertContract(rateCall, rated, `rate ${what}`);
    assert.equal(rated.body.RateRequest.Shipment.Package.length, request.parcels.length);
    checked++;
  }
  assert.ok(checked > 500, `${checked} shipments checked`);
});

test("the contracts refuse what UPS refuses of several boxes: more than 200 packages, a return of more than one", () => {
  const r: DomesticPurchaseRequest = { from: addresses.plain!, to: addresses.business!, parcels: boxSets.three!, shipDate, service: '03', quotedCents: 1, labelFormat: 'zpl', isReturn: false, idempotencyKey: 'k' };
  const tooMany = { ...r, parcels: Array.from({ length: 201 }, () => parcels.withoutDimensions) };
  assert.match(contractViolations(shipCall, built(buildShipRequest(tooMany, account))).join('\n'), /Package must NOT have more than 200 items/);
  assert.match(contractViolations(rateCall, built(buildRateRequest(tooMany, account))).join('\n'), /Package must NOT have more than 200 items/);
  assert.match(contractViolations(shipCall, built(buildShipRequest({ ...r, isReturn: true }, account))).join('\n'), /Package must NOT have more than 1 items/);
});

/** Every option UPS takes, alone and together; `services` pins those that do it (carriers/options.ts). */
const optionSets: Record<string, ShipmentOptions> = {
  signature: { signature: 'standard' },
  adultSignature: { signature: 'adult' },
  saturday: { saturday_delivery: true },
  additionalHandling: { additional_handling: true },
  dryIceOunces: { dry_ice: { weight: { value: 11, unit: 'oz' } } },
  dryIceKilograms: { dry_ice: { weight: { value: 0.4, unit: 'kg' } } },
  dryIcePinch: { dry_ice: { weight: { value: 1, unit: 'g' } } },
  carbonNeutral: { carbon_neutral: true },
  alcohol: { signature: 'adult', alcohol: { recipient: 'consumer' } },
  everything: { signature: 'adult', saturday_delivery: true, additional_handling: true, dry_ice: { weight: { value: 1.5, unit: 'lb' } }, alcohol: { recipient: 'licensee' }, carbon_neutral: true },
};

test('delivery options keep both specs on every service that does them, on one box and on several, where each box carries the package options', () => {
  for (const [name, options] of Object.entries(optionSets)) {
    for (const service of upsServices) {
      if (liveOptionsRefusal({ id: 'ups', name: 'UPS' }, { options, service: service.code }, true, true)) continue;
      for (const boxes of [[parcels.withDimensions], boxSets.three!]) {
        const what = `${name} on ${service.code}, ${boxes.length} box(es)`;
        const r: DomesticPurchaseRequest = { from: addresses.business!, to: addresses.plain!, parcels: boxes, shipDate, service: service.code, options, quotedCents: 1, labelFormat: 'pdf', isReturn: false, idempotencyKey: 'k' };
        const ship = built(buildShipRequest(r, account)) as { body: { ShipmentRequest: { Shipment: Record<string, any> } } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- read below
        assertContract(shipCall, ship, `ship ${what}`);
        const rate = built(buildRateRequest({ from: r.from, to: r.to, parcels: boxes, shipDate, options }, account)) as { body: { RateRequest: { Shipment: Record<string, any> } } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- read below
        assertContract(rateCall, rate, `rate ${what}`);
        for (const shipment of [ship.body.ShipmentRequest.Shipment, rate.body.RateRequest.Shipment]) {
          for (const p of shipment.Package) {
            assert.equal(p.PackageServiceOptions?.DeliveryConfirmation?.DCISType, options.signature && { standard: '2', adult: '3' }[options.signature as 'standard' | 'adult'], what);
            assert.equal(p.AdditionalHandlingIndicator, options.additional_handling ? '' : undefined, what);
            assert.equal(p.PackageServiceOptions?.DryIce !== undefined, options.dry_ice !== undefined, what);
          }
          const sso = shipment.ShipmentServiceOptions ?? {};
          assert.equal(sso.SaturdayDeliveryIndicator, options.saturday_delivery ? '' : undefined, what);
          assert.equal(sso.UPScarbonneutralIndicator, options.carbon_neutral ? '' : undefined, what);
          assert.deepEqual(sso.RestrictedArticles, options.alcohol ? { AlcoholicBeveragesIndicator: '' } : undefined, what);
        }
      }
    }
  }
  const iceOf = (options: ShipmentOptions) => {
    const r = built(buildRateRequest({ from: addresses.business!, to: addresses.plain!, parcels: [parcels.withDimensions], shipDate, options }, account)) as { body: { RateRequest: { Shipment: { Package: Record<string, any>[] } } } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- read below
    return r.body.RateRequest.Shipment.Package[0]!.PackageServiceOptions.DryIce;
  };
  // Pounds rounded up to the tenth, never below UPS's "more than 0.0".
  assert.deepEqual(iceOf(optionSets.dryIceOunces!), { RegulationSet: 'CFR', DryIceWeight: { UnitOfMeasurement: { Code: '01', Description: 'LBS' }, Weight: '0.7' } });
  assert.equal(iceOf(optionSets.dryIceKilograms!).DryIceWeight.Weight, '0.9');
  assert.equal(iceOf(optionSets.dryIcePinch!).DryIceWeight.Weight, '0.1');
  assert.equal(iceOf({ dry_ice: { weight: { value: 2, unit: 'lb' } } }).DryIceWeight.Weight, '2.0');
});

test('a return asked with options, and an option UPS does not take, are refused before UPS is asked', () => {
  const r: DomesticPurchaseRequest = { from: addresses.plain!, to: addresses.business!, parcels: [parcels.withDimensions], shipDate, service: '03', options: { signature: 'standard' }, quotedCents: 1, labelFormat: 'pdf', isReturn: true, idempotencyKey: 'k' };
  const ship = buildShipRequest(r, account);
  assert.equal(!ship.ok && ship.error.code, 'option_not_supported');
  const rate = buildRateRequest({ from: r.from, to: r.to, parcels: r.parcels, shipDate, options: r.options, isReturn: true }, account);
  assert.equal(!rate.ok && rate.error.code, 'option_not_supported');
  const ups = { id: 'ups' as const, name: 'UPS' };
  const elsewhere = { hold_for_pickup: true, hold_location: { carrier: 'fedex', id: 'NQAA' } };
  for (const options of [{ hazmat: 'limited_quantity' }, { hazmat: 'lithium_metal_in_equipment' }, { signature: 'indirect' }, elsewhere, { non_machinable: true }] as ShipmentOptions[]) {
    const refused = liveOptionsRefusal(ups, { options, service: '03' }, true, true);
    assert.equal(refused && !refused.ok && refused.error.code, 'option_not_supported', JSON.stringify(options));
  }
  // A hold at a UPS Access Point is sold on every domestic service, and not abroad.
  const atAccessPoint: ShipmentOptions = { hold_for_pickup: true, hold_location: { carrier: 'ups', id: 'U94105A01' } };
  for (const s of upsServices.filter((x) => x.domestic)) assert.equal(liveOptionsRefusal(ups, { options: atAccessPoint, service: s.code }, true, true), null, s.code);
  assert.equal(liveOptionsRefusal(ups, { options: atAccessPoint }, false, true)?.ok, false);
  assert.match(JSON.stringify(liveOptionsRefusal(ups, { options: { saturday_delivery: true }, service: '03' }, true, true)), /does not offer Saturday delivery/);
});

test('the contracts refuse malformed option fields as the specs write them', () => {
  const r: DomesticPurchaseRequest = { from: addresses.plain!, to: addresses.business!, parcels: [parcels.withDimensions], shipDate, service: '01', options: optionSets.everything, quotedCents: 1, labelFormat: 'pdf', isReturn: false, idempotencyKey: 'k' };
  const ship = built(buildShipRequest(r, account));
  const rate = built(buildRateRequest({ from: r.from, to: r.to, parcels: r.parcels, shipDate, options: r.options }, account));
  assertContract(shipCall, ship, 'ship with every option');
  assertContract(rateCall, rate, 'rate with every option');
  type Shipment = { Package: Record<string, any>[]; ShipmentServiceOptions: Record<string, unknown>; ReturnService?: unknown; ShipFrom?: unknown }; // eslint-disable-line @typescript-eslint/no-explicit-any -- spoiled below
  const spoil = (call: UpsCall, at: (body: any) => Shipment, change: (s: Shipment) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any -- a copy to spoil
    const copy = structuredClone(call) as { body: unknown };
    change(at(copy.body));
    return copy;
  };
  const shipAt = (b: any) => b.ShipmentRequest.Shipment; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
  const rateAt = (b: any) => b.RateRequest.Shipment; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
  const faults = (schema: typeof shipCall, call: UpsCall, at: typeof shipAt, change: (s: Shipment) => void) => contractViolations(schema, spoil(call, at, change)).join('\n');
  for (const [schema, call, at] of [[shipCall, ship, shipAt], [rateCall, rate, rateAt]] as const) {
    assert.match(faults(schema, call, at, (s) => (s.Package[0]!.PackageServiceOptions.DeliveryConfirmation.DCISType = '1')), /DCISType/);
    assert.match(faults(schema, call, at, (s) => (s.Package[0]!.PackageServiceOptions.DeliveryConfirmation = {})), /must have required property 'DCISType'/);
    assert.match(faults(schema, call, at, (s) => delete s.Package[0]!.PackageServiceOptions.DryIce.RegulationSet), /must have required property 'RegulationSet'/);
    assert.match(faults(schema, call, at, (s) => (s.Package[0]!.PackageServiceOptions.DryIce.RegulationSet = 'DOT')), /RegulationSet/);
    for (const weight of ['0.0', '1.25', '123456', '-1']) {
      assert.match(faults(schema, call, at, (s) => (s.Package[0]!.PackageServiceOptions.DryIce.DryIceWeight.Weight = weight)), /DryIceWeight\/Weight/, weight);
    }
    assert.match(faults(schema, call, at, (s) => (s.Package[0]!.PackageServiceOptions.AdditionalHandlingIndicator = '')), /additional properties \(AdditionalHandlingIndicator\)/);
    assert.match(faults(schema, call, at, (s) => (s.ShipmentServiceOptions.AlcoholicBeveragesIndicator = '')), /additional properties \(AlcoholicBeveragesIndicator\)/);
    assert.match(faults(schema, call, at, (s) => (s.ShipmentServiceOptions.SaturdayDelivery = '')), /additional properties \(SaturdayDelivery\)/);
  }
  // Rating's dry ice unit takes the numeric code alone and needs its Description; Shipping takes LBS and none.
  assert.match(faults(rateCall, rate, rateAt, (s) => (s.Package[0]!.PackageServiceOptions.DryIce.DryIceWeight.UnitOfMeasurement = { Code: 'LBS', Description: 'LBS' })), /UnitOfMeasurement\/Code/);
  assert.match(faults(rateCall, rate, rateAt, (s) => delete s.Package[0]!.PackageServiceOptions.DryIce.DryIceWeight.UnitOfMeasurement.Description), /must have required property 'Description'/);
  assert.equal(faults(shipCall, ship, shipAt, (s) => (s.Package[0]!.PackageServiceOptions.DryIce.DryIceWeight.UnitOfMeasurement = { Code: 'LBS' })), '');
  // A signature is "Valid for forward shipments only".
  const returned = spoil(ship, shipAt, (s) => {
    s.ReturnService = { Code: '9' };
    s.Package[0]!.Description = 'Return';
  });
  assert.match(contractViolations(shipCall, returned).join('\n'), /PackageServiceOptions must NOT be valid/);
});

test('pickup requests keep Pickup.yaml: rate, creation (every address with a phone, parcels up to 999 and a heavy load), cancel by PRN, pending status', () => {
  const request = (address: Address, parcels = { count: 3, weightLb: 12.5 }): PickupRequest => ({
    address,
    date: '2026-03-03',
    window: { start: '09:00', end: '17:30' },
    trackingNumbers: [],
    parcels,
    instructions: 'Ring the bell at the loading dock in the back of the building, by the green door',
    reference: 'pku_01m84js0b1cwjhzr4kr959j173',
  });
  for (const [name, a] of Object.entries(addresses)) {
    assertContract(pickupRateCall, buildPickupRateRequest(request(a), account), `pickup rate ${name}`);
    assertContract(pickupRateCall, buildPickupRateRequest(request(a), undefined), `pickup rate ${name} no account`);
    const withPhone = { ...a, phone: a.phone ?? '212 555 0100' };
    for (const parcels of [{ count: 1, weightLb: 0.2 }, { count: 999, weightLb: 9999.9 }, { count: 2, weightLb: 150 }]) {
      assertContract(pickupCreationCall, built(buildPickupCreationRequest(request(withPhone, parcels), account)), `pickup creation ${name} ${parcels.count}`);
    }
  }
  const noPhone = buildPickupCreationRequest(request(addresses.plain!), account);
  assert.ok(!noPhone.ok && noPhone.error.code === 'address_invalid', 'UPS requires a phone at the pickup address');
  const tooMany = buildPickupCreationRequest(request(addresses.business!, { count: 1000, weightLb: 2000 }), account);
  assert.ok(!tooMany.ok, 'more than 999 parcels of a service are refused before UPS is asked');
  assertContract(pickupCancelCall, buildPickupCancelRequest({ confirmationNumber: '2929602E9CP', date: '2026-03-03' }), 'pickup cancel');
  assertContract(pickupPendingCall, buildPendingStatusRequest(account), 'pending status');
  assert.equal(pickupWeight(12.5), '0012.5');
  assert.equal(pickupWeight(0.04), '0000.1', 'rounded up to the tenth');
  // The contract refuses what the spec does not allow: a weight not of 6 characters, a second AddressLine.
  const creation = built(buildPickupCreationRequest(request(addresses.business!), account)) as UpsCall & { body: { PickupCreationRequest: Record<string, any> } }; // eslint-disable-line @typescript-eslint/no-explicit-any -- the wire body
  creation.body.PickupCreationRequest.TotalWeight.Weight = '12.5';
  assert.ok(contractViolations(pickupCreationCall, creation).length > 0);
});

test("UPS's pickup answers are read: the rate in USD (none in another currency), the PRN, a cancel, the pending pickup booked with our reference, refusals by their words", () => {
  assert.deepEqual(parsePickupRateResponse({ PickupRateResponse: { Response: {}, RateResult: { CurrencyCode: 'USD', GrandTotalOfAllCharge: '00007.75' } } }), { ok: true, value: { amountCents: 775 } });
  assert.deepEqual(parsePickupRateResponse({ PickupRateResponse: { Response: {}, RateResult: { CurrencyCode: 'USD', GrandTotalOfAllCharge: '00000.00' } } }), { ok: true, value: null });
  assert.equal(parsePickupRateResponse({ PickupRateResponse: { RateResult: { CurrencyCode: 'CAD', GrandTotalOfAllCharge: '00007.75' } } }).ok, false);
  assert.deepEqual(parsePickupCreationResponse({ PickupCreationResponse: { PRN: '2929602E9CP', RateStatus: { Code: '04' } } }), { ok: true, value: { confirmationNumber: '2929602E9CP' } });
  assert.equal(parsePickupCancelResponse({ PickupCancelResponse: { Response: { ResponseStatus: { Code: '1', Description: 'Success' } }, PickupType: '01' } }).ok, true);
  const lookup = { reference: 'pku_1', date: '2026-03-03', address: addresses.plain! };
  // One pending pickup comes as an object, as UPS's JSON does with lists of one.
  const pending = (entries: unknown) => ({ PickupPendingStatusResponse: { Response: {}, PendingStatus: entries } });
  assert.deepEqual(parsePendingStatusResponse(pending({ PRN: '2929602E9CP', ServiceDate: '20260303', ReferenceNumber: 'pku_1', PickupType: '01', PickupStatusMessage: '012' }), lookup), { ok: true, value: { confirmationNumber: '2929602E9CP' } });
  assert.deepEqual(parsePendingStatusResponse(pending([{ PRN: '2929602E9CP', ServiceDate: '20260304', ReferenceNumber: 'pku_1' }]), lookup), { ok: true, value: null });
  const refusal = (message: string) => upsPickupFailure(400, { response: { errors: [{ code: '400', message }] } }, 'book the pickup').code;
  assert.equal(refusal('The ReadyTime is later than the CallByTime for this pickup address'), 'outside_pickup_window');
  assert.equal(refusal('On-call pickup service is not available at this address on this date'), 'pickup_unavailable');
  assert.equal(upsPickupFailure(401, {}, 'book the pickup').code, 'carrier_unavailable');
});

const accessPoint: FoundLocation = {
  id: 'U94105A01',
  name: 'MISSION STREET MAIL & PRINT OF THE SOUTH OF MARKET',
  kind: 'UPS Access Point',
  address: { street1: '101 MISSION STREET AT THE CORNER OF SPEAR AND STEUART', street2: 'STE 110', city: 'SAN FRANCISCO', state: 'CA', zip: '94105', country: 'US' },
  distanceMiles: 0.3,
};

test('Locator requests keep Locator.yaml: an Access Point search around every kind of ZIP, a lookup by id from every address', () => {
  for (const zip of ['94105', '10001', '07102', '99501', '00601']) {
    for (const limit of [1, 10, 25]) assertContract(locatorCall, built(buildAccessPointSearch({ zip, limit })), `search ${zip} ${limit}`);
  }
  for (const [name, a] of Object.entries(addresses)) assertContract(locatorCall, buildAccessPointLookup('U94105A01', { street: a.street1, city: a.city, state: a.state, zip: a.zip }), `lookup from ${name}`);
});

test('the Locator contract refuses what the spec does not allow', () => {
  const search = built(buildAccessPointSearch({ zip: '94105', limit: 10 }));
  const spoiled = (change: (call: any) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any -- a copy to spoil
    const copy = structuredClone(search) as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
    change(copy);
    return contractViolations(locatorCall, copy).join('\n');
  };
  assert.match(spoiled((c) => (c.body.LocatorRequest.Request.RequestAction = 'Search')), /RequestAction/);
  assert.match(spoiled((c) => delete c.body.LocatorRequest.OriginAddress.AddressKeyFormat.AddressLine), /must have required property 'AddressLine'/);
  assert.match(spoiled((c) => delete c.body.LocatorRequest.Translate), /must have required property 'Translate'/);
  assert.match(spoiled((c) => (c.body.LocatorRequest.LocationSearchCriteria.MaximumListSize = '51')), /MaximumListSize/);
  assert.match(spoiled((c) => (c.body.LocatorRequest.LocationSearchCriteria.AccessPointSearch.AccessPointStatus = '06')), /AccessPointStatus/);
  assert.match(spoiled((c) => Object.assign(c.body.LocatorRequest.LocationSearchCriteria.AccessPointSearch, { PublicAccessPointID: 'U94105A01', AccountNumber: 'A1B2C3' })), /must NOT be valid/);
  assert.match(spoiled((c) => (c.path = c.path.replace(/64$/, '1'))), /must NOT be valid/);
  assert.match(spoiled((c) => (c.path = c.path.replace('/v3/', '/v2/'))), /path/);
});

test('a hold at a UPS Access Point keeps Shipping.yaml and Rating.yaml on every domestic service, names clipped to their limits', () => {
  for (const s of upsServices.filter((x) => x.domestic)) {
    const options: ShipmentOptions = { hold_for_pickup: true, hold_location: { carrier: 'ups', id: accessPoint.id } };
    const r: DomesticPurchaseRequest = { from: addresses.business!, to: addresses.longName!, parcels: [parcels.withDimensions], shipDate, service: s.code, options, quotedCents: 1, labelFormat: 'pdf', isReturn: false, idempotencyKey: 'k' };
    const ship = built(buildShipRequest(r, account, accessPoint));
    assertContract(shipCall, ship, `ship ${s.code}`);
    const shipment = (ship.body as any).ShipmentRequest.Shipment; // eslint-disable-line @typescript-eslint/no-explicit-any -- read below
    assert.deepEqual(shipment.ShipmentIndicationType, [{ Code: '01' }]);
    assert.equal(shipment.AlternateDeliveryAddress.UPSAccessPointID, 'U94105A01');
    assert.equal(shipment.AlternateDeliveryAddress.AttentionName, 'Maria Gaetana Agnesi de la Milano U');
    assert.equal(shipment.ShipTo.Address.PostalCode, '07102');
    assertContract(rateCall, built(buildRateRequest({ from: r.from, to: r.to, parcels: r.parcels, shipDate, options }, account, accessPoint)), `rate ${s.code}`);
  }
});

test('the ship and rate contracts refuse a hold UPS would refuse: no AlternateDeliveryAddress, no AttentionName, an id not of 9, a long name, a PO box', () => {
  const options: ShipmentOptions = { hold_for_pickup: true, hold_location: { carrier: 'ups', id: accessPoint.id } };
  const r: DomesticPurchaseRequest = { from: addresses.business!, to: addresses.plain!, parcels: [parcels.withDimensions], shipDate, service: '03', options, quotedCents: 1, labelFormat: 'pdf', isReturn: false, idempotencyKey: 'k' };
  const ship = built(buildShipRequest(r, account, accessPoint));
  const rate = built(buildRateRequest({ from: r.from, to: r.to, parcels: r.parcels, shipDate, options }, account, accessPoint));
  const spoil = (call: UpsCall, schema: typeof shipCall, change: (shipment: any) => void) => { // eslint-disable-line @typescript-eslint/no-explicit-any -- a copy to spoil
    const copy = structuredClone(call) as any; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
    change(copy.body.ShipmentRequest?.Shipment ?? copy.body.RateRequest.Shipment);
    return contractViolations(schema, copy).join('\n');
  };
  for (const [call, schema] of [[ship, shipCall], [rate, rateCall]] as const) {
    assert.match(spoil(call, schema, (s) => delete s.AlternateDeliveryAddress), /must have required property 'AlternateDeliveryAddress'/);
    assert.match(spoil(call, schema, (s) => (s.ShipmentIndicationType = [{ Code: '03' }])), /Code/);
    assert.match(spoil(call, schema, (s) => (s.ShipmentIndicationType = { Code: '01' })), /must be array/);
    assert.match(spoil(call, schema, (s) => (s.AlternateDeliveryAddress.Address.AddressLine = ['x'.repeat(36)])), /AddressLine/);
  }
  assert.match(spoil(ship, shipCall, (s) => delete s.AlternateDeliveryAddress.AttentionName), /must have required property 'AttentionName'/);
  assert.match(spoil(ship, shipCall, (s) => (s.AlternateDeliveryAddress.UPSAccessPointID = 'GB00088')), /UPSAccessPointID/);
  assert.match(spoil(ship, shipCall, (s) => (s.AlternateDeliveryAddress.Name = 'x'.repeat(36))), /Name/);
  assert.match(spoil(ship, shipCall, (s) => (s.AlternateDeliveryAddress.Address.PostalCode = '9410')), /PostalCode/);
  assert.match(spoil(ship, shipCall, (s) => delete s.AlternateDeliveryAddress.Address.StateProvinceCode), /StateProvinceCode/);
  assert.match(spoil(rate, rateCall, (s) => (s.AlternateDeliveryAddress.Address.POBoxIndicator = '')), /must NOT be valid/);
  assert.match(spoil(rate, rateCall, (s) => (s.AlternateDeliveryAddress.Address.StateProvinceCode = 'CAL')), /StateProvinceCode/);
});
