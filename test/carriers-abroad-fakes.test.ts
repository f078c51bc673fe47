import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AbroadPurchase } from '../src/carriers/abroad.ts';
import type { PurchaseRequest } from '../src/carriers/carrier.ts';
import { FedexCarrier } from '../src/carriers/fedex/adapter.ts';
import { UpsCarrier } from '../src/carriers/ups/adapter.ts';
import { UspsCarrier } from '../src/carriers/usps/adapter.ts';
import { buildShipRequestAbroad as buildFedexShip } from '../src/carriers/fedex/international.ts';
import { parseShipResponse as parseFedexShip } from '../src/carriers/fedex/ship.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { buildRateRequestAbroad, buildShipRequestAbroad as buildUpsShip, parseInvoiceForm } from '../src/carriers/ups/international.ts';
import { parseShipResponse as parseUpsShip } from '../src/carriers/ups/ship.ts';
import { buildTokenRequest as upsToken } from '../src/carriers/ups/token.ts';
import { buildInternationalLabelRequest, internationalLabelPath, parseInternationalLabel } from '../src/carriers/usps/international.ts';
import { buildPaymentRequest, paymentPath } from '../src/carriers/usps/payment.ts';
import { labelHeaders } from '../src/carriers/usps/ship.ts';
import { buildTokenRequest as uspsToken, tokenPath as uspsTokenPath } from '../src/carriers/usps/token.ts';
import { buildTokenRequest as fedexToken, tokenPath as fedexTokenPath } from '../src/carriers/fedex/token.ts';
import { declarations, merchant, recipientsAbroad } from './contracts/abroad-cases.ts';
import { startFedexFake, type FedexFake } from './fakes/fedex.ts';
import { startUpsFake, upsFakeCredentials, type UpsFake } from './fakes/ups.ts';
import { fakeUspsCredentials, startUspsFake, type UspsFake } from './fakes/usps.ts';
import { TestClock } from './harness.ts';

// The international requests the live adapters build, sent over HTTP to the fake carriers, which hold them against
// the same published contracts and refuse what the carriers refuse; the answers read back by the adapters' parsers.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let ups: UpsFake;
let usps: UspsFake;
let fedex: FedexFake;
before(async () => {
  [ups, usps, fedex] = await Promise.all([startUpsFake(), startUspsFake(), startFedexFake()]);
});
after(async () => {
  await Promise.all([ups.close(), usps.close(), fedex.close()]);
});

async function send(url: string, init: { method?: string; headers?: Record<string, string>; json?: unknown; form?: Record<string, string> }): Promise<{ status: number; body: Json }> {
  const headers = { ...init.headers, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}), ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) };
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.form ? new URLSearchParams(init.form).toString() : undefined;
  const res = await fetch(url, { method: init.method ?? 'POST', headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, body: (await res.json()) as Json };
}

const shipDate = new Date('2026-11-30T12:00:00Z');
const purchase = (overrides: Partial<AbroadPurchase>): AbroadPurchase => ({
  from: merchant, to: recipientsAbroad.GB!, customs: declarations.merchandise!, service: '07', labelFormat: 'pdf', idempotencyKey: `k-${Math.random()}`, reference: 'ORD-1043', parcels: [{ weightLb: 3 }], shipDate, ...overrides,
});

async function upsBearer(): Promise<string> {
  const t = upsToken(upsFakeCredentials);
  return `Bearer ${(await send(`${ups.url}${t.path}`, { headers: t.headers, form: t.form })).body.access_token}`;
}

test('UPS: a label to the United Kingdom with its invoice, one to Canada, rates abroad; refused without the recipient phone or without an ITN over $2,500', async () => {
  const authorization = await upsBearer();
  const post = async (call: { path: string; body?: unknown }) => send(`${ups.url}${call.path}`, { headers: { authorization }, json: call.body });
  for (const to of [recipientsAbroad.GB!, recipientsAbroad.CA!]) {
    const built = buildUpsShip(purchase({ to, service: to === recipientsAbroad.CA ? '11' : '07' }), upsFakeCredentials.accountNumber);
    assert.ok(built.ok);
    const answer = await post(built.value);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const label = parseUpsShip(answer.body);
    assert.ok(label.ok && isValidTrackingNumber('ups', label.value.packages[0]!.trackingNumber));
    assert.match(parseInvoiceForm(answer.body)!.bytes.toString(), /^%PDF/);
  }
  const rate = buildRateRequestAbroad({ from: merchant, to: recipientsAbroad.JP!, customs: declarations.gift!, parcels: [{ weightLb: 2 }], shipDate }, upsFakeCredentials.accountNumber);
  assert.ok(rate.ok);
  const rated = await post(rate.value);
  assert.equal(rated.status, 200);
  assert.deepEqual(rated.body.RateResponse.RatedShipment.map((r: Json) => r.Service.Code).sort(), ['07', '08', '65']);
  assert.deepEqual(ups.contractRefusals, []);

  const built = buildUpsShip(purchase({}), upsFakeCredentials.accountNumber);
  assert.ok(built.ok);
  const silent = structuredClone(built.value) as Json;
  delete silent.body.ShipmentRequest.Shipment.ShipTo.Phone;
  const refused = await post(silent as { path: string });
  assert.equal(refused.status, 400);
  assert.match(refused.body.response.errors[0].message, /ShipTo must have required property 'Phone'/);
  const noItn = buildUpsShip(purchase({ customs: { ...declarations.itn!, aes_itn: undefined, eel_pfc: 'NOEEI 30.37(a)' } }), upsFakeCredentials.accountNumber);
  assert.ok(noItn.ok);
  const refusedItn = await post(noItn.value);
  assert.equal(refusedItn.status, 400);
  assert.match(refusedItn.body.response.errors[0].message, /requires EEI: give the ITN/);
  const withItn = buildUpsShip(purchase({ customs: declarations.itn! }), upsFakeCredentials.accountNumber);
  assert.ok(withItn.ok);
  assert.equal((await post(withItn.value)).status, 200);
});

test('USPS: international labels with their customs forms to five countries; refused for First-Class over 4 lb, for an exemption over $2,500, for a vague description', async () => {
  const token = (await send(`${usps.url}${uspsTokenPath}`, { form: uspsToken(fakeUspsCredentials) })).body.access_token as string;
  const payment = (await send(`${usps.url}${paymentPath}`, { headers: { authorization: `Bearer ${token}` }, json: buildPaymentRequest(fakeUspsCredentials) })).body.paymentAuthorizationToken as string;
  const buy = async (r: AbroadPurchase, change: (b: Json) => void = () => undefined) => {
    const built = buildInternationalLabelRequest(r);
    assert.ok(built.ok, built.ok ? '' : built.error.detail);
    const body = structuredClone(built.value) as Json;
    change(body);
    return send(`${usps.url}${internationalLabelPath}`, { headers: { authorization: `Bearer ${token}`, ...labelHeaders(payment, r.idempotencyKey) }, json: body });
  };
  for (const country of ['CA', 'MX', 'DE', 'AU', 'BR']) {
    const answer = await buy(purchase({ to: recipientsAbroad[country]!, service: 'PRIORITY_MAIL_INTERNATIONAL', idempotencyKey: `usps-${country}` }));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const label = parseInternationalLabel(answer.body);
    assert.ok(label.ok && isValidTrackingNumber('usps', label.value.trackingNumber), JSON.stringify(label));
    assert.match(label.ok ? label.value.trackingNumber : '', /^CP\d{9}US$/);
  }
  assert.deepEqual(usps.violations, []);
  const heavy = await buy(purchase({ service: 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', parcels: [{ weightLb: 5 }] }));
  assert.equal(heavy.status, 400);
  assert.match(heavy.body.error.errors[0].detail, /limited to 4 pounds/);
  const exempt = await buy(purchase({ service: 'PRIORITY_MAIL_INTERNATIONAL', customs: { ...declarations.itn!, aes_itn: undefined, eel_pfc: 'NOEEI 30.37(a)' } }));
  assert.equal(exempt.status, 400);
  assert.match(exempt.body.error.errors[0].detail, /requires an ITN/);
  const vague = await buy(purchase({ service: 'PRIORITY_MAIL_INTERNATIONAL' }), (b) => (b.customsForm.contents[0].itemDescription = 'Merchandise'));
  assert.equal(vague.status, 400);
  assert.match(JSON.stringify(vague.body), /itemDescription must NOT be valid/);
});

test('FedEx: shipments abroad with the commercial invoice printed and by ETD, Ground to Canada; refused for a short HS code, a wrong total, an exemption over $2,500', async () => {
  const token = (await send(`${fedex.url}${fedexTokenPath}`, { form: fedexToken({ clientId: fedex.clientId, clientSecret: fedex.clientSecret }) })).body.access_token as string;
  const ship = async (r: AbroadPurchase, electronicTradeDocuments: boolean, change: (b: Json) => void = () => undefined) => {
    const built = buildFedexShip(r, fedex.accountNumber, { electronicTradeDocuments });
    assert.ok(built.ok, built.ok ? '' : built.error.detail);
    const body = structuredClone(built.value) as Json;
    change(body);
    return send(`${fedex.url}/ship/v1/shipments`, { headers: { authorization: `Bearer ${token}` }, json: body });
  };
  for (const [r, etd] of [
    [purchase({ to: recipientsAbroad.FR!, service: 'FEDEX_INTERNATIONAL_PRIORITY' }), false],
    [purchase({ to: recipientsAbroad.IN!, service: 'INTERNATIONAL_ECONOMY', customs: declarations.ddp! }), true],
    [purchase({ to: recipientsAbroad.CA!, service: 'FEDEX_GROUND', customs: declarations.gift! }), false],
  ] as const) {
    const answer = await ship(r, etd);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const label = parseFedexShip(answer.body, { ...r, quotedCents: 0, isReturn: false } as never);
    assert.ok(label.ok && isValidTrackingNumber('fedex', label.value.trackingNumber));
    const shipment = answer.body.output.transactionShipments[0];
    assert.equal(shipment.shipmentDocuments[0].contentType, 'COMMERCIAL_INVOICE');
    assert.equal(Boolean(shipment.completedEtdDetail), etd);
  }
  const short = await ship(purchase({ service: 'INTERNATIONAL_ECONOMY' }), false, (b) => (b.requestedShipment.customsClearanceDetail.commodities[0].harmonizedCode = '6912'));
  assert.equal(short.status, 400);
  assert.equal(short.body.errors[0].code, 'COMMODITY.HARMONIZEDCODE.INVALID');
  const total = await ship(purchase({ service: 'INTERNATIONAL_ECONOMY' }), false, (b) => (b.requestedShipment.customsClearanceDetail.totalCustomsValue.amount = 1));
  assert.equal(total.body.errors[0].code, 'CUSTOMSVALUE.TOTAL.MISMATCH');
  const exempt = await ship(purchase({ service: 'INTERNATIONAL_ECONOMY', customs: { ...declarations.itn!, aes_itn: undefined, eel_pfc: 'NOEEI 30.37(a)' } }), false);
  assert.equal(exempt.body.errors[0].code, 'EXPORTDETAIL.ITN.REQUIRED');
  const unsupported = await ship(purchase({ service: 'INTERNATIONAL_ECONOMY' }), false, (b) => delete b.requestedShipment.customsClearanceDetail);
  assert.equal(unsupported.status, 400);
  assert.match(JSON.stringify(unsupported.body), /customsClearanceDetail/);
});

/** The three live adapters, each pointed at its fake carrier. */
function liveCarriers(): { upsCarrier: UpsCarrier; uspsCarrier: UspsCarrier; fedexCarrier: FedexCarrier } {
  const clock = new TestClock();
  return {
    upsCarrier: new UpsCarrier({ credentials: upsFakeCredentials, baseUrl: ups.url, timeoutMs: 5000, clock }),
    uspsCarrier: new UspsCarrier({ credentials: fakeUspsCredentials, baseUrl: usps.url, timeoutMs: 5000, clock }),
    fedexCarrier: new FedexCarrier({ credentials: { clientId: fedex.clientId, clientSecret: fedex.clientSecret, accountNumber: fedex.accountNumber }, baseUrl: fedex.url, timeoutMs: 5000, clock }),
  };
}

test('the live adapters rate and buy labels abroad with all three carriers, the customs parts on the wire; a return from abroad and a request without its declaration are not sent', async () => {
  const { upsCarrier, uspsCarrier, fedexCarrier } = liveCarriers();
  const signal = new AbortController().signal;
  try {
    const request = (service: string, to = recipientsAbroad.AU!, customs = declarations.merchandise!): PurchaseRequest => ({ ...purchase({ to, service, customs }), quotedCents: 5000, isReturn: false });
    const quotes = await upsCarrier.rate({ from: merchant, to: recipientsAbroad.MX!, customs: declarations.merchandise!, parcels: [{ weightLb: 4 }], shipDate }, signal);
    assert.ok(quotes.ok, quotes.ok ? '' : quotes.error.detail);
    assert.deepEqual(quotes.value.map((q) => q.service).sort(), ['07', '08', '11', '65']);
    const uspsQuotes = await uspsCarrier.rate({ from: merchant, to: recipientsAbroad.BR!, customs: declarations.other!, parcels: [{ weightLb: 3 }], shipDate }, signal);
    assert.ok(uspsQuotes.ok, uspsQuotes.ok ? '' : uspsQuotes.error.detail);
    assert.deepEqual(uspsQuotes.value.map((q) => [q.service, q.amountCents < q.listAmountCents]), [['PRIORITY_MAIL_EXPRESS_INTERNATIONAL', true], ['PRIORITY_MAIL_INTERNATIONAL', true], ['FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE', true]]);
    const fedexQuotes = await fedexCarrier.rate({ from: merchant, to: recipientsAbroad.CA!, customs: declarations.ddp!, parcels: [{ weightLb: 3 }], shipDate }, signal);
    assert.ok(fedexQuotes.ok, fedexQuotes.ok ? '' : fedexQuotes.error.detail);
    assert.deepEqual(fedexQuotes.value.map((q) => q.service).sort(), ['FEDEX_GROUND', 'FEDEX_INTERNATIONAL_CONNECT_PLUS', 'FEDEX_INTERNATIONAL_PRIORITY', 'INTERNATIONAL_ECONOMY']);
    const shipCalls = ups.calls.length;
    // USPS's customs form takes descriptions of 30 characters, shorter than the scarf's.
    for (const [carrier, service, customs] of [[upsCarrier, '65', declarations.merchandise!], [uspsCarrier, 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL', declarations.other!], [fedexCarrier, 'FEDEX_INTERNATIONAL_CONNECT_PLUS', declarations.merchandise!]] as const) {
      const bought = await carrier.purchase(request(service, recipientsAbroad.AU!, customs), signal);
      assert.ok(bought.ok, bought.ok ? '' : `${carrier.id}: ${bought.error.detail}`);
      assert.ok(isValidTrackingNumber(carrier.id, bought.value.trackingNumber), bought.value.trackingNumber);
    }
    const sentToUps = ups.calls.slice(shipCalls).find((c) => c.path.endsWith('/ship'))!.body as Json;
    assert.equal(sentToUps.ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms.Product[0].CommodityCode, '691200');
    const sentToUsps = usps.calls.find((c) => c.path === internationalLabelPath)!.body as Json;
    assert.equal(sentToUsps.customsForm.contents[0].HSTariffNumber, '691200');
    const sentToFedex = fedex.calls.filter((c) => c.path === '/ship/v1/shipments').at(-1)!.body as Json;
    assert.equal(sentToFedex.requestedShipment.customsClearanceDetail.commodities[0].harmonizedCode, '691200');
    assert.deepEqual(sentToFedex.requestedShipment.shipmentSpecialServices.specialServiceTypes, ['ELECTRONIC_TRADE_DOCUMENTS']);

    // USPS's international labels have no idempotency key: a lost one is never asked for again, unlike a domestic one.
    assert.equal(uspsCarrier.idempotentPurchase(request('PRIORITY_MAIL_INTERNATIONAL')), false);
    assert.equal(uspsCarrier.idempotentPurchase({ ...request('PRIORITY_MAIL'), to: merchant }), true);

    const returned = await uspsCarrier.purchase({ ...request('PRIORITY_MAIL_INTERNATIONAL'), isReturn: true }, signal);
    assert.ok(!returned.ok && returned.error.code === 'not_serviced');
    const { customs: _customs, ...undeclared } = request('07');
    const refused = await upsCarrier.purchase(undeclared, signal);
    assert.ok(!refused.ok && /needs its customs declaration/.test(refused.error.detail));
  } finally {
    await Promise.all([upsCarrier.close(), uspsCarrier.close(), fedexCarrier.close()]);
  }
});

test("the live adapters refuse what a carrier's API cannot hold whole, naming the carrier and why, and send nothing", async () => {
  const { upsCarrier, uspsCarrier, fedexCarrier } = liveCarriers();
  const signal = new AbortController().signal;
  const sent = () => ups.calls.length + usps.calls.length + fedex.calls.length;
  const before = sent();
  try {
    const twoStreets = { ...recipientsAbroad.GB!, street1: 'Flat 4 Kensington Court Mansions High Street', street2: 'Care of the building manager by the back door' };
    const longWord = { ...recipientsAbroad.GB!, street1: 'Konstantynopolitanczykowianeczkowskiego 5' };
    const mug = declarations.other!.items[0]!;
    const manyLines = { ...declarations.other!, items: Array.from({ length: 31 }, (_, i) => ({ ...mug, quantity: 1, weight: { value: 1, unit: 'oz' as const }, sku: `MUG-${i}` })) };
    const cases = [
      [upsCarrier, '07', purchase({ to: longWord, service: '07' }), 'address_invalid', /^UPS takes 3 address lines of 35 characters \(AddressLine\); the ship-to street "Konstantynopolitanczykowianeczkowskiego 5"/],
      [fedexCarrier, 'INTERNATIONAL_ECONOMY', purchase({ to: twoStreets, service: 'INTERNATIONAL_ECONOMY' }), 'address_invalid', /^FedEx takes 3 street lines of 35 characters \(streetLines\)/],
      [uspsCarrier, 'PRIORITY_MAIL_INTERNATIONAL', purchase({ service: 'PRIORITY_MAIL_INTERNATIONAL' }), 'not_serviced', /^USPS takes a customs form line description of at most 30 characters; customs\/items\/1\/description has 71/],
      [uspsCarrier, 'PRIORITY_MAIL_INTERNATIONAL', purchase({ service: 'PRIORITY_MAIL_INTERNATIONAL', customs: manyLines }), 'not_serviced', /^USPS takes at most 30 customs lines \(customs form lines\); this declaration has 31/],
    ] as const;
    for (const [carrier, service, shipment, code, why] of cases) {
      const rated = await carrier.rate({ from: shipment.from, to: shipment.to, customs: shipment.customs, parcels: shipment.parcels, shipDate }, signal);
      assert.ok(!rated.ok && rated.error.code === code && why.test(rated.error.detail), `${carrier.id} ${service}: ${JSON.stringify(rated)}`);
      const bought = await carrier.purchase({ ...shipment, quotedCents: 5000, isReturn: false }, signal);
      assert.ok(!bought.ok && bought.error.code === code && why.test(bought.error.detail), `${carrier.id} ${service}: ${JSON.stringify(bought)}`);
    }
    assert.equal(sent(), before, 'nothing refused was sent to a carrier');
    // The same shipments fit the carriers that take them: UPS wraps the two streets, FedEx cuts the long word.
    assert.ok((await upsCarrier.rate({ from: merchant, to: twoStreets, customs: declarations.merchandise!, parcels: [{ weightLb: 3 }], shipDate }, signal)).ok);
    assert.ok((await fedexCarrier.rate({ from: merchant, to: longWord, customs: manyLines, parcels: [{ weightLb: 3 }], shipDate }, signal)).ok);
  } finally {
    await Promise.all([upsCarrier.close(), uspsCarrier.close(), fedexCarrier.close()]);
  }
});
