import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CarrierResult, DomesticPurchaseRequest, DomesticRateRequest } from '../../src/carriers/carrier.ts';
import { buildRateRequest } from '../../src/carriers/ups/rate.ts';
import { buildShipRequest } from '../../src/carriers/ups/ship.ts';
import type { UpsCall } from '../../src/carriers/ups/wire.ts';
import type { Address } from '../../src/schemas/address.ts';
import { declarations, merchant } from './abroad-cases.ts';
import { assertContract, contractViolations } from './check.ts';
import { rateCall } from './ups/rating.ts';
import { shipCall } from './ups/shipping.ts';

// Puerto Rico stays country US, state PR in shipd; UPS takes it as country PR, with what a shipment between two of
// its countries needs.

const sanJuan: Address = { name: 'Rita Moreno', street1: '100 Calle del Cristo', city: 'San Juan', state: 'PR', zip: '00901', phone: '787-555-0142' };
const shipDate = new Date('2026-03-02T12:00:00Z');
const parcel = { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 } };
const customs = declarations.merchandise!;

const rate = (r: Partial<DomesticRateRequest>) => buildRateRequest({ from: merchant, to: sanJuan, parcels: [parcel], shipDate, customs, ...r }, 'A1B2C3');
const ship = (r: Partial<DomesticPurchaseRequest>) =>
  buildShipRequest({ from: merchant, to: sanJuan, parcels: [parcel], shipDate, customs, service: '03', quotedCents: 1500, labelFormat: 'pdf', isReturn: false, idempotencyKey: 'k-pr-1', ...r }, 'A1B2C3');

function built(c: CarrierResult<UpsCall>): UpsCall {
  if (!c.ok) assert.fail(`the builder refused: ${c.error.detail}`);
  return c.value;
}
interface Party {
  Address: { CountryCode: string };
  AttentionName?: string;
  Phone?: { Number: string };
}
interface SentShipment {
  Shipper: Party;
  ShipFrom: Party;
  ShipTo: Party;
  InvoiceLineTotal?: { CurrencyCode: string; MonetaryValue: string };
}
const shipment = (c: UpsCall, root: 'RateRequest' | 'ShipmentRequest') => (c.body as Record<string, { Shipment: SentShipment }>)[root]!.Shipment;

test('a UPS rate and label to Puerto Rico name country PR and carry the declared value as InvoiceLineTotal, within both contracts', () => {
  const rated = built(rate({}));
  assertContract(rateCall, rated, 'rate US → PR');
  assert.equal(shipment(rated, 'RateRequest').ShipTo.Address.CountryCode, 'PR');
  assert.equal(shipment(rated, 'RateRequest').ShipFrom.Address.CountryCode, 'US');
  // 2 × 18.50 + 45.00 = 82.00, in whole units.
  assert.deepEqual(shipment(rated, 'RateRequest').InvoiceLineTotal, { CurrencyCode: 'USD', MonetaryValue: '82' });

  const shipped = built(ship({}));
  assertContract(shipCall, shipped, 'ship US → PR');
  const s = shipment(shipped, 'ShipmentRequest');
  assert.equal(s.ShipTo.Address.CountryCode, 'PR');
  assert.equal(s.ShipTo.AttentionName, 'Rita Moreno');
  assert.deepEqual(s.ShipTo.Phone, { Number: '7875550142' });
  assert.deepEqual(s.InvoiceLineTotal, { CurrencyCode: 'USD', MonetaryValue: '82' });
});

test('from Puerto Rico the Shipper and ShipFrom are PR; Shipping gets no InvoiceLineTotal (forward US → PR only), Rating does', () => {
  const to = { ...merchant, name: undefined };
  const rated = built(rate({ from: sanJuan, to }));
  assertContract(rateCall, rated, 'rate PR → US');
  assert.equal(shipment(rated, 'RateRequest').Shipper.Address.CountryCode, 'PR');
  assert.ok(shipment(rated, 'RateRequest').InvoiceLineTotal);

  const shipped = built(ship({ from: sanJuan, to }));
  assertContract(shipCall, shipped, 'ship PR → US');
  const s = shipment(shipped, 'ShipmentRequest');
  assert.equal(s.Shipper.Address.CountryCode, 'PR');
  assert.equal(s.ShipFrom.Address.CountryCode, 'PR');
  assert.equal(s.InvoiceLineTotal, undefined);
  // No person's name: the company stands in as the contact UPS requires between two countries.
  assert.equal(s.ShipTo.AttentionName, 'Analytical Engines');

  const returned = built(ship({ isReturn: true, from: sanJuan, to: merchant }));
  assertContract(shipCall, returned, 'return label PR → US');
});

test('within Puerto Rico and within the US nothing changes: no InvoiceLineTotal, no declaration needed', () => {
  const local = { ...sanJuan, name: 'Roberto Clemente', street1: '1 Calle Loíza', phone: undefined };
  const s = shipment(built(ship({ from: sanJuan, to: local, customs: undefined })), 'ShipmentRequest');
  assert.equal(s.ShipTo.Address.CountryCode, 'PR');
  assert.equal(s.InvoiceLineTotal, undefined);
  assert.equal(shipment(built(rate({ to: { ...merchant, zip: '10001', city: 'New York', state: 'NY' }, customs: undefined })), 'RateRequest').InvoiceLineTotal, undefined);
});

test('UPS refuses a shipment between Puerto Rico and the US without a declared value or a recipient phone, naming what is missing', () => {
  for (const result of [rate({ customs: undefined }), ship({ customs: undefined })]) {
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.error.code, 'not_serviced');
      assert.match(result.error.detail, /InvoiceLineTotal.*customs/);
    }
  }
  const noPhone = ship({ to: { ...sanJuan, phone: undefined } });
  assert.equal(noPhone.ok, false);
  if (!noPhone.ok) assert.match(noPhone.error.detail, /recipient's phone/);
});

test('our contracts refuse what UPS refuses: a forward label to PR without InvoiceLineTotal, a ShipTo in the US from PR without a phone, a rate to PR without it', () => {
  const shipped = built(ship({}));
  const s = shipment(shipped, 'ShipmentRequest');
  delete s.InvoiceLineTotal;
  assert.ok(contractViolations(shipCall, shipped).some((v) => v.includes('InvoiceLineTotal')), 'ship to PR without InvoiceLineTotal');

  const fromPr = built(ship({ from: sanJuan, to: merchant }));
  delete shipment(fromPr, 'ShipmentRequest').ShipTo.Phone;
  assert.ok(contractViolations(shipCall, fromPr).some((v) => v.includes('Phone')), 'ship PR → US without ShipTo phone');

  for (const [from, to] of [[merchant, sanJuan], [sanJuan, merchant]] as const) {
    const rated = built(rate({ from, to }));
    delete shipment(rated, 'RateRequest').InvoiceLineTotal;
    assert.ok(contractViolations(rateCall, rated).some((v) => v.includes('InvoiceLineTotal')), `rate ${from.state} → ${to.state} without InvoiceLineTotal`);
  }
});

test("without a declaration the order's line items give the value, in whole units; a declaration's value comes first", () => {
  const goodsValue = { amount: '19.99', currency: 'USD' };
  const s = shipment(built(ship({ customs: undefined, goodsValue })), 'ShipmentRequest');
  assert.deepEqual(s.InvoiceLineTotal, { CurrencyCode: 'USD', MonetaryValue: '20' });
  assert.deepEqual(shipment(built(rate({ customs: undefined, goodsValue })), 'RateRequest').InvoiceLineTotal, { CurrencyCode: 'USD', MonetaryValue: '20' });
  assert.deepEqual(shipment(built(ship({ goodsValue })), 'ShipmentRequest').InvoiceLineTotal, { CurrencyCode: 'USD', MonetaryValue: '82' });
});
