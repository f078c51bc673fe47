import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelRef, PurchaseRequest, RateRequest } from '../src/carriers/carrier.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { UpsCarrier } from '../src/carriers/ups/adapter.ts';
import type { Address } from '../src/schemas/address.ts';
import { fakePdf, fakeZpl, startUpsFake, upsFakeCredentials, type UpsFake } from './fakes/ups.ts';

const clock = { now: () => new Date('2026-03-02T12:00:00Z') };
const signal = new AbortController().signal;
const from: Address = { name: 'Ada Lovelace', company: 'Analytical Co', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105', phone: '4155550100' };
const to: Address = { name: 'Grace Hopper', street1: '100 Main St', city: 'New York', state: 'NY', zip: '10001' };
const rateRequest: RateRequest = { from, to, parcels: [{ weightLb: 4.2, dimensionsIn: { length: 10, width: 8, height: 6 } }], shipDate: clock.now() };
const purchaseRequest = (labelFormat: PurchaseRequest['labelFormat'], over: Partial<PurchaseRequest> = {}): PurchaseRequest => ({
  from, to, parcels: rateRequest.parcels, shipDate: clock.now(), service: '03', quotedCents: 1000, labelFormat, isReturn: false, idempotencyKey: `key-${labelFormat}`, reference: 'ORD-7', ...over,
});
const ref = (tn: string): LabelRef => ({ trackingNumber: tn, carrierShipmentId: tn, service: '03', purchasedAt: clock.now() });

let fake: UpsFake;
const carriers: UpsCarrier[] = [];
function carrier(over: { timeoutMs?: number; credentials?: Partial<typeof upsFakeCredentials>; baseUrl?: string } = {}): UpsCarrier {
  const c = new UpsCarrier({
    credentials: { ...upsFakeCredentials, ...over.credentials },
    baseUrl: over.baseUrl ?? fake.url,
    timeoutMs: over.timeoutMs ?? 2000,
    clock,
  });
  carriers.push(c);
  return c;
}

before(async () => {
  fake = await startUpsFake();
});
after(async () => {
  assert.deepEqual(fake.contractRefusals.filter((r) => !r.path.startsWith('/api/labels/v2409')), [], 'every request shipd built kept the contract');
  await Promise.all(carriers.map((c) => c.close()));
  await fake.close();
});

test('one token serves many calls, fetched with HTTP Basic; quotes cover our catalog services only', async () => {
  const before = fake.tokenRequests;
  const ups = carrier();
  const results = await Promise.all([ups.rate(rateRequest, signal), ups.rate(rateRequest, signal), ups.validateAddress(to, signal)]);
  assert.ok(results.every((r) => r.ok));
  assert.ok((await ups.rate({ ...rateRequest, services: ['02'] }, signal)).ok);
  assert.equal(fake.tokenRequests - before, 1);
  const tokenCall = fake.calls.filter((c) => c.path === '/security/v1/oauth/token').at(-1)!;
  assert.match(String(tokenCall.headers.authorization), /^Basic /);
  assert.equal(tokenCall.body, 'grant_type=client_credentials');
  const quotes = results[0]!.ok ? results[0]!.value : [];
  assert.deepEqual(quotes.map((q) => q.service).sort(), ['01', '02', '03', '12', '13', '14']);
  const ground = quotes.find((q) => q.service === '03')!;
  assert.equal(ground.listAmountCents, 1485);
  assert.equal(ground.amountCents, 1188);
  assert.equal(ground.billableWeightLb, 5);
  assert.equal(ground.deliveryDays, 3);
  assert.equal(ground.estimatedDeliveryDate, '2026-03-05');
  const rateCall = fake.calls.find((c) => c.path.startsWith('/api/rating/'))!;
  assert.equal(rateCall.path, '/api/rating/v2409/Shoptimeintransit');
  assert.match(String(rateCall.headers.authorization), /^Bearer ups-token-/);
});

test('an expired token is refreshed once after UPS answers 401', async () => {
  const ups = carrier();
  assert.ok((await ups.rate(rateRequest, signal)).ok);
  const before = fake.tokenRequests;
  fake.expireTokens();
  const r = await ups.rate(rateRequest, signal);
  assert.ok(r.ok);
  assert.equal(fake.tokenRequests - before, 1);
});

test('the fake token endpoint, like UPS, refuses credentials sent in the form instead of HTTP Basic', async () => {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: upsFakeCredentials.clientId, client_secret: upsFakeCredentials.clientSecret });
  const res = await fetch(`${fake.url}/security/v1/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  assert.equal(res.status, 401);
  assert.equal(((await res.json()) as { response: { errors: { code: string }[] } }).response.errors[0]!.code, '10401');
});

test('wrong credentials give carrier_unavailable naming the settings', async () => {
  const r = await carrier({ credentials: { clientSecret: 'nope' } }).rate(rateRequest, signal);
  assert.equal(!r.ok && r.error.code, 'carrier_unavailable');
  assert.match(!r.ok ? r.error.detail : '', /UPS refused the credentials \(401/);
});

test('a slow answer gives carrier_timeout within the time-out', async () => {
  const ups = carrier({ timeoutMs: 300 });
  assert.ok((await ups.rate(rateRequest, signal)).ok);
  fake.failNext({ kind: 'slow', ms: 1500 });
  const started = Date.now();
  const r = await ups.rate(rateRequest, signal);
  assert.equal(!r.ok && r.error.code, 'carrier_timeout');
  assert.ok(Date.now() - started < 1200, `took ${Date.now() - started} ms`);
});

test('malformed JSON, a 500, an error envelope and an unreachable host come back as failures, never throws', async () => {
  const ups = carrier();
  fake.failNext({ kind: 'malformed' });
  const malformed = await ups.rate(rateRequest, signal);
  assert.equal(!malformed.ok && malformed.error.code, 'carrier_error');
  fake.failNext({ kind: 'server_error' });
  const broken = await ups.track(ref('1Z5R89390357567127'), signal);
  assert.equal(!broken.ok && broken.error.code, 'carrier_unavailable');
  fake.failNext({ kind: 'envelope', status: 400, code: '111210', message: 'The requested service is unavailable between the selected locations.' });
  const unavailable = await ups.rate(rateRequest, signal);
  assert.equal(!unavailable.ok && unavailable.error.code, 'service_unavailable');
  const badZip = await ups.rate({ ...rateRequest, to: { ...to, zip: '00000' } }, signal);
  assert.equal(!badZip.ok && badZip.error.code, 'address_invalid');
  const heavy = await ups.rate({ ...rateRequest, parcels: [{ weightLb: 160 }] }, signal);
  assert.equal(!heavy.ok && heavy.error.code, 'parcel_too_large');
  const down = await carrier({ baseUrl: 'http://127.0.0.1:9' }).rate(rateRequest, signal);
  assert.equal(!down.ok && down.error.code, 'carrier_unavailable');
});

test('single-object answers (RatedShipment, PackageResults, Candidate) still parse', async () => {
  const ups = carrier();
  fake.singleObjects = true;
  try {
    const rated = await ups.rate(rateRequest, signal);
    assert.deepEqual(rated.ok && rated.value.map((q) => q.service), ['03']);
    const bought = await ups.purchase(purchaseRequest('zpl', { idempotencyKey: 'single' }), signal);
    assert.ok(bought.ok && isValidTrackingNumber('ups', bought.value.trackingNumber));
    const checked = await ups.validateAddress(to, signal);
    assert.ok(checked.ok && checked.value.valid);
    assert.equal(checked.ok && checked.value.address.street1, '100 MAIN ST');
  } finally {
    fake.singleObjects = false;
  }
});

test('labels come back in the format asked: ZPL as printed, GIF redrawn as PNG, PDF through label recovery', async () => {
  const ups = carrier();
  const zpl = await ups.purchase(purchaseRequest('zpl'), signal);
  assert.ok(zpl.ok);
  assert.ok(isValidTrackingNumber('ups', zpl.value.trackingNumber));
  assert.equal(zpl.value.carrierShipmentId, zpl.value.trackingNumber);
  assert.equal(zpl.value.postageCents, 1188);
  assert.equal(zpl.value.file?.format, 'zpl');
  assert.equal(zpl.value.file?.bytes.toString(), fakeZpl(zpl.value.trackingNumber));
  const png = await ups.purchase(purchaseRequest('png'), signal);
  assert.ok(png.ok);
  assert.equal(png.value.file?.format, 'png');
  assert.deepEqual([...png.value.file!.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const pdf = await ups.purchase(purchaseRequest('pdf'), signal);
  assert.ok(pdf.ok);
  assert.equal(pdf.value.file?.format, 'pdf');
  assert.equal(pdf.value.file?.bytes.toString(), fakePdf(pdf.value.trackingNumber));
  const shipCall = fake.calls.filter((c) => c.path === '/api/shipments/v2409/ship').at(-1)!;
  assert.equal((shipCall.body as { ShipmentRequest: { LabelSpecification: { LabelImageFormat: { Code: string } } } }).ShipmentRequest.LabelSpecification.LabelImageFormat.Code, 'GIF');
  fake.failNext({ kind: 'server_error' }, '/api/labels/');
  const fallback = await ups.purchase(purchaseRequest('pdf', { idempotencyKey: 'pdf-fallback' }), signal);
  assert.ok(fallback.ok, 'a bought label stands when only the PDF copy fails');
  assert.equal(fallback.value.file?.format, 'png');
  const noAccount = await carrier({ credentials: { accountNumber: undefined } }).purchase(purchaseRequest('zpl'), signal);
  assert.equal(!noAccount.ok && noAccount.error.code, 'credentials_missing');
  const badService = await ups.purchase(purchaseRequest('zpl', { service: '75' }), signal);
  assert.equal(!badService.ok && badService.error.code, 'service_unavailable');
});

test('a label image of another type than asked is reported as what it is', async () => {
  const ups = carrier();
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
  fake.recoveredImage = png;
  try {
    const bought = await ups.purchase(purchaseRequest('pdf', { idempotencyKey: 'png-for-pdf' }), signal);
    assert.ok(bought.ok);
    assert.equal(bought.value.file?.format, 'png');
    assert.deepEqual(bought.value.file?.bytes, png);
  } finally {
    fake.recoveredImage = undefined;
  }
  const recovery = fake.calls.filter((c) => c.path.startsWith('/api/labels/')).at(-1)!;
  assert.equal(recovery.path, '/api/labels/v1903/recovery');
  assert.deepEqual((recovery.body as { LabelRecoveryRequest: { Request: unknown } }).LabelRecoveryRequest.Request, { SubVersion: '1903', TransactionReference: { CustomerContext: 'shipd label recovery' } });
});

test('a return is a UPS Print Return Label; a street UPS cannot take is refused before UPS is called', async () => {
  const ups = carrier();
  // For a return, `from` is the customer and `to` the merchant.
  const bought = await ups.purchase(purchaseRequest('pdf', { from: to, to: from, isReturn: true, idempotencyKey: 'return-1' }), signal);
  assert.ok(bought.ok);
  assert.equal(bought.value.file?.format, 'pdf');
  const shipment = (fake.calls.filter((c) => c.path.endsWith('/ship')).at(-1)!.body as { ShipmentRequest: { Shipment: Record<string, { Name?: string; Code?: string }> } }).ShipmentRequest.Shipment;
  assert.equal(shipment.ReturnService!.Code, '9');
  assert.equal(shipment.Shipper!.Name, 'Analytical Co');
  assert.equal(shipment.ShipFrom!.Name, 'Grace Hopper');
  const rated = await ups.rate({ ...rateRequest, from: to, to: from, isReturn: true }, signal);
  assert.ok(rated.ok);
  assert.ok(!rated.value.some((q) => q.service === '13'), 'Next Day Air Saver is not sold as a return');
  const calls = fake.calls.length;
  const long = { ...to, street1: 'One Very Long Street Name That Goes On And On Past Every Limit', street2: 'Building Number Seventeen Of The Northern Campus Annex' };
  const refused = await ups.purchase(purchaseRequest('zpl', { to: long, idempotencyKey: 'long-street' }), signal);
  assert.equal(!refused.ok && refused.error.code, 'address_invalid');
  assert.match(!refused.ok ? refused.error.detail : '', /UPS allows 3 address lines of 35 characters/);
  assert.equal(fake.calls.length, calls, 'nothing was sent to UPS');
});

test('the fake refuses, as UPS does, a request that breaks the published contract', async () => {
  const before = fake.contractRefusals.length;
  const ups = carrier();
  assert.ok((await ups.rate(rateRequest, signal)).ok);
  const res = await fetch(`${fake.url}/security/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${upsFakeCredentials.clientId}:${upsFakeCredentials.clientSecret}`).toString('base64')}` },
    body: 'grant_type=client_credentials',
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  const oldRecovery = await fetch(`${fake.url}/api/labels/v2409/recovery`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ LabelRecoveryRequest: { LabelSpecification: { LabelImageFormat: { Code: 'PDF' } }, TrackingNumber: '1Z5R89390357567127' } }),
  });
  assert.equal(oldRecovery.status, 400);
  const said = (await oldRecovery.json()) as { response: { errors: { code: string; message: string }[] } };
  assert.match(said.response.errors[0]!.message, /must have required property 'Request'/);
  assert.equal(fake.contractRefusals.length, before + 1);
});

test('void: refunded, then already_voided; a picked-up parcel is label_in_transit', async () => {
  const ups = carrier();
  const first = await ups.purchase(purchaseRequest('zpl', { idempotencyKey: 'void-1' }), signal);
  const second = await ups.purchase(purchaseRequest('zpl', { idempotencyKey: 'void-2' }), signal);
  assert.ok(first.ok && second.ok);
  assert.deepEqual(await ups.void(ref(first.value.carrierShipmentId), signal), { ok: true, value: 'refunded' });
  const again = await ups.void(ref(first.value.carrierShipmentId), signal);
  assert.equal(!again.ok && again.error.code, 'already_voided');
  fake.setStage(second.value.trackingNumber, 'in_transit');
  const moving = await ups.void(ref(second.value.carrierShipmentId), signal);
  assert.equal(!moving.ok && moving.error.code, 'label_in_transit');
  const voided = await ups.track(ref(first.value.trackingNumber), signal);
  assert.equal(voided.ok && voided.value.status, 'cancelled');
  const voidCall = fake.calls.find((c) => c.method === 'DELETE')!;
  assert.equal(voidCall.path, `/api/shipments/v2409/void/cancel/${first.value.carrierShipmentId}`);
});

test('track: statuses through the table, events oldest first with places, unknown numbers as not yet tracked', async () => {
  const ups = carrier();
  const bought = await ups.purchase(purchaseRequest('zpl', { idempotencyKey: 'track' }), signal);
  assert.ok(bought.ok);
  const tn = bought.value.trackingNumber;
  const expected = { label: 'pre_transit', in_transit: 'in_transit', out_for_delivery: 'out_for_delivery', delivered: 'delivered', exception: 'in_transit', returned: 'return_to_sender' } as const;
  for (const [stage, status] of Object.entries(expected)) {
    fake.setStage(tn, stage as keyof typeof expected);
    const r = await ups.track(ref(tn), signal);
    assert.ok(r.ok, stage);
    assert.equal(r.value.status, status, stage);
    const times = r.value.events.map((e) => e.occurredAt.getTime());
    assert.deepEqual(times, [...times].sort((a, b) => a - b), stage);
  }
  const delivered = (fake.setStage(tn, 'delivered'), await ups.track(ref(tn), signal));
  assert.ok(delivered.ok);
  assert.equal(delivered.value.estimatedDeliveryDate, '2026-03-04');
  assert.deepEqual(delivered.value.events.at(-1)!.location, { city: 'Brooklyn', state: 'NY', zip: '11201', country: 'US' });
  assert.equal(delivered.value.events[0]!.status, 'pre_transit');
  const trackCall = fake.calls.filter((c) => c.path.startsWith('/api/track/')).at(-1)!;
  assert.ok(trackCall.headers.transid && trackCall.headers.transactionsrc);
  const unknown = await ups.track(ref('1Z879E930346834440'), signal);
  assert.ok(unknown.ok && unknown.value.status === 'unknown' && unknown.value.events.length === 0);
  fake.notFoundAs404 = true;
  try {
    const missing = await ups.track(ref('1Z879E930346834440'), signal);
    assert.ok(missing.ok && missing.value.statusDetail === 'Tracking Information Not Found');
  } finally {
    fake.notFoundAs404 = false;
  }
});

test('address validation: valid with classification, ambiguous candidates, no candidates', async () => {
  const ups = carrier();
  const valid = await ups.validateAddress({ ...to, street1: '101 Main Street' }, signal);
  assert.ok(valid.ok);
  assert.equal(valid.value.valid, true);
  assert.equal(valid.value.residential, false);
  assert.equal(valid.value.address.street1, '101 MAIN ST');
  assert.equal(valid.value.address.zip, '10001-1804');
  const home = await ups.validateAddress(to, signal);
  assert.equal(home.ok && home.value.residential, true);
  const ambiguous = await ups.validateAddress({ ...to, street1: '100 Main St Ambiguous' }, signal);
  assert.ok(ambiguous.ok && !ambiguous.value.valid && ambiguous.value.messages[0]!.code === 'ambiguous');
  const none = await ups.validateAddress({ ...to, street1: '1 Nowhere Rd' }, signal);
  assert.ok(none.ok && !none.value.valid && none.value.messages[0]!.code === 'no_candidates');
});

test('several boxes: one shipment, a 1Z and a label per box in order, PDFs recovered box by box or none of them', async () => {
  const ups = carrier();
  const parcels = [{ weightLb: 2 }, { weightLb: 7.5, dimensionsIn: { length: 12, width: 10, height: 8 } }, { weightLb: 1 }];
  const quotes = await ups.rate({ ...rateRequest, parcels, services: ['03'] }, signal);
  assert.ok(quotes.ok);
  // Each box billed at its own whole pounds: 2, 8 and 1 (the fake's Ground: $11.25 + $0.90 a pound after the first).
  assert.equal(quotes.value[0]!.listAmountCents, 1215 + 1755 + 1125);
  const zpl = await ups.purchase(purchaseRequest('zpl', { parcels, idempotencyKey: 'boxes-zpl' }), signal);
  assert.ok(zpl.ok);
  const boxes = zpl.value.packages!;
  assert.equal(boxes.length, 3);
  assert.equal(zpl.value.masterTrackingNumber, boxes[0]!.trackingNumber);
  assert.equal(zpl.value.carrierShipmentId, boxes[0]!.trackingNumber);
  assert.equal(zpl.value.trackingNumber, boxes[0]!.trackingNumber);
  for (const b of boxes) {
    assert.ok(isValidTrackingNumber('ups', b.trackingNumber), b.trackingNumber);
    assert.equal(b.file?.bytes.toString(), fakeZpl(b.trackingNumber));
  }
  assert.equal(zpl.value.postageCents, Math.round((1215 + 1755 + 1125) * 0.8));

  const pdf = await ups.purchase(purchaseRequest('pdf', { parcels, idempotencyKey: 'boxes-pdf' }), signal);
  assert.ok(pdf.ok);
  assert.deepEqual(pdf.value.packages!.map((b) => b.file?.bytes.toString()), pdf.value.packages!.map((b) => fakePdf(b.trackingNumber)));
  fake.failNext({ kind: 'server_error' }, '/api/labels/');
  const fallback = await ups.purchase(purchaseRequest('pdf', { parcels, idempotencyKey: 'boxes-pdf-fallback' }), signal);
  assert.ok(fallback.ok, 'the boxes bought stand when a PDF copy fails');
  assert.deepEqual(fallback.value.packages!.map((b) => b.file?.format), ['png', 'png', 'png'], 'every box keeps one format, so they merge');

  fake.setStage(boxes[1]!.trackingNumber, 'in_transit');
  const kept = await ups.void({ ...ref(boxes[0]!.trackingNumber), boxes: boxes.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: zpl.value.carrierShipmentId })) }, signal);
  assert.equal(!kept.ok && kept.error.code, 'label_in_transit', 'one box picked up keeps the shipment');
  const voided = await ups.void(ref(pdf.value.carrierShipmentId), signal);
  assert.equal(voided.ok && voided.value, 'refunded');
  for (const b of pdf.value.packages!) {
    const tracked = await ups.track(ref(b.trackingNumber), signal);
    assert.equal(tracked.ok && tracked.value.status, 'cancelled', `${b.trackingNumber} is voided with its shipment`);
  }
});

test("one box of several is voided by its 1Z under the shipment's number, the others tracked on; one picked up is label_in_transit, a stranger refused; the rest are voided by theirs", async () => {
  const ups = carrier();
  const parcels = [{ weightLb: 2 }, { weightLb: 3 }, { weightLb: 4 }];
  const bought = await ups.purchase(purchaseRequest('zpl', { parcels, idempotencyKey: 'void-one-box' }), signal);
  assert.ok(bought.ok);
  const shipmentId = bought.value.carrierShipmentId;
  const boxes = bought.value.packages!.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: shipmentId }));
  const label: LabelRef = { ...ref(shipmentId), boxes };
  const status = async (tn: string) => {
    const t = await ups.track(ref(tn), signal);
    return t.ok ? t.value.status : t.error.code;
  };
  const deletes = () => fake.calls.filter((c) => c.method === 'DELETE').map((c) => [c.path, c.query]);
  const before = deletes().length;

  assert.deepEqual(await ups.voidBox(label, boxes[1]!, signal), { ok: true, value: 'refunded' });
  assert.deepEqual(deletes().slice(before), [[`/api/shipments/v2409/void/cancel/${shipmentId}`, { trackingnumber: boxes[1]!.trackingNumber }]]);
  assert.deepEqual(await Promise.all(boxes.map((b) => status(b.trackingNumber))), ['pre_transit', 'cancelled', 'pre_transit']);
  assert.deepEqual(await ups.voidBox(label, boxes[1]!, signal), { ok: true, value: 'refunded' }, 'UPS answers a package voided before as voided ("1 = Voided or Already Voided")');

  fake.setStage(boxes[2]!.trackingNumber, 'in_transit');
  const moving = await ups.voidBox(label, boxes[2]!, signal);
  assert.equal(!moving.ok && moving.error.code, 'label_in_transit');
  assert.match(!moving.ok ? moving.error.detail : '', new RegExp(boxes[2]!.trackingNumber));
  const stranger = await ups.voidBox(label, { trackingNumber: '1Z023E2X0214323462', carrierShipmentId: shipmentId }, signal);
  assert.equal(!stranger.ok && stranger.error.code, 'carrier_error');
  assert.match(!stranger.ok ? stranger.error.detail : '', /No package 1Z023E2X0214323462 in shipment/);

  fake.setStage(boxes[2]!.trackingNumber, 'label');
  const rest = [boxes[0]!, boxes[2]!];
  assert.deepEqual(await ups.void({ ...label, boxes: rest, boxesVoidedBefore: 1 }, signal), { ok: true, value: 'refunded' }, 'the boxes left are voided');
  assert.deepEqual(deletes().at(-1), [`/api/shipments/v2409/void/cancel/${shipmentId}`, { trackingnumber: JSON.stringify(rest.map((b) => b.trackingNumber)) }], 'by their own numbers');
  assert.deepEqual(await Promise.all(boxes.map((b) => status(b.trackingNumber))), ['cancelled', 'cancelled', 'cancelled']);
  const again = await ups.voidBox(label, boxes[0]!, signal);
  assert.equal(!again.ok && again.error.code, 'already_voided');
});

test('several boxes abroad or in a return stay refused with not_serviced, before UPS is asked', async () => {
  const ups = carrier();
  const before = fake.calls.length;
  const parcels = [{ weightLb: 2 }, { weightLb: 3 }];
  const back = await ups.purchase(purchaseRequest('zpl', { parcels, isReturn: true, from: to, to: from }), signal);
  assert.equal(!back.ok && back.error.code, 'not_serviced');
  assert.match(!back.ok ? back.error.detail : '', /one package in a return/);
  const abroad = await ups.rate({ ...rateRequest, parcels, to: { name: 'Jean Tremblay', street1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA' } }, signal);
  assert.equal(!abroad.ok && abroad.error.code, 'not_serviced');
  assert.equal(fake.calls.slice(before).filter((c) => c.path.startsWith('/api/')).length, 0);
});
