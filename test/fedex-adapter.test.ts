import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelRef, PurchaseRequest, RateRequest } from '../src/carriers/carrier.ts';
import { FedexCarrier } from '../src/carriers/fedex/adapter.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { startFedexFake, type FedexFake } from './fakes/fedex.ts';

const clock = { now: () => new Date('2024-05-01T15:00:00Z') };
const signal = new AbortController().signal;

const from = { name: 'Shop', company: 'Shop Inc', street1: '1 Main St', city: 'Nashville', state: 'TN', zip: '37201', phone: '615-555-0100' };
const to = { name: 'Ada', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' };
const rateRequest: RateRequest = { from, to, parcels: [{ weightLb: 4.2, dimensionsIn: { length: 10.5, width: 8, height: 4 } }], shipDate: new Date('2024-05-01T15:00:00Z') };
const purchaseRequest: PurchaseRequest = {
  from,
  to,
  parcels: [{ weightLb: 4.2 }],
  shipDate: new Date('2024-05-01T15:00:00Z'),
  service: 'FEDEX_2_DAY',
  quotedCents: 3000,
  labelFormat: 'pdf',
  isReturn: false,
  reference: 'ORDER-7',
  idempotencyKey: 'idem-fedex-1',
};
const labelRef = (trackingNumber: string): LabelRef => ({ trackingNumber, carrierShipmentId: trackingNumber, service: 'FEDEX_2_DAY', purchasedAt: clock.now() });

let fake: FedexFake;
let carrier: FedexCarrier;
const adapters: FedexCarrier[] = [];

function adapter(overrides: { clientSecret?: string; accountNumber?: string | null; timeoutMs?: number; baseUrl?: string } = {}): FedexCarrier {
  const a = new FedexCarrier({
    credentials: {
      clientId: fake.clientId,
      clientSecret: overrides.clientSecret ?? fake.clientSecret,
      ...(overrides.accountNumber === null ? {} : { accountNumber: overrides.accountNumber ?? fake.accountNumber }),
    },
    baseUrl: overrides.baseUrl ?? fake.url,
    timeoutMs: overrides.timeoutMs ?? 5000,
    clock,
  });
  adapters.push(a);
  return a;
}

before(async () => {
  fake = await startFedexFake();
});

beforeEach(() => {
  fake.faults.length = 0;
  fake.singleObjects = false;
  carrier = adapter();
});

after(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await fake.close();
});

test('rating asks all services in one call and quotes our catalog services only', async () => {
  const before = fake.calls.length;
  const result = await carrier.rate(rateRequest, signal);
  assert.ok(result.ok, JSON.stringify(result));
  const apiCalls = fake.calls.slice(before).filter((c) => c.path === '/rate/v1/rates/quotes');
  assert.equal(apiCalls.length, 1);
  const sent = apiCalls[0]!;
  assert.match(String(sent.headers.authorization), /^Bearer fedex-token-\d+$/);
  assert.equal(sent.headers['x-locale'], 'en_US');
  assert.equal((sent.body as { requestedShipment: Record<string, unknown> }).requestedShipment.serviceType, undefined);
  // A home address: Home Delivery, not Ground; FEDEX_2_DAY_AM is not in the catalog.
  assert.deepEqual(result.value.map((q) => q.service).sort(), ['FEDEX_2_DAY', 'FEDEX_EXPRESS_SAVER', 'GROUND_HOME_DELIVERY', 'PRIORITY_OVERNIGHT', 'STANDARD_OVERNIGHT']);
  const ground = result.value.find((q) => q.service === 'GROUND_HOME_DELIVERY')!;
  assert.deepEqual([ground.amountCents, ground.listAmountCents, ground.deliveryDays, ground.estimatedDeliveryDate, ground.zone], [1680, 2100, 3, '2024-05-06', '5']);
  const overnight = result.value.find((q) => q.service === 'PRIORITY_OVERNIGHT')!;
  assert.deepEqual([overnight.deliveryDays, overnight.estimatedDeliveryDate, overnight.guaranteed], [1, '2024-05-02', true]);

  const filtered = await carrier.rate({ ...rateRequest, services: ['FEDEX_2_DAY'] }, signal);
  assert.ok(filtered.ok);
  assert.deepEqual(filtered.value.map((q) => q.service), ['FEDEX_2_DAY']);
});

test('one token serves many calls', async () => {
  const fresh = adapter();
  const tokensBefore = fake.tokenRequests;
  const results = await Promise.all([fresh.rate(rateRequest, signal), fresh.rate(rateRequest, signal), fresh.track(labelRef('581190049992'), signal)]);
  for (const r of results) assert.ok(r.ok);
  assert.ok((await fresh.validateAddress(to, signal)).ok);
  assert.equal(fake.tokenRequests - tokensBefore, 1);
});

test('credentials go in the form body; FedEx refuses Basic alone and wrong secrets', async () => {
  const tokenCall = fake.calls.find((c) => c.path === '/oauth/token')!;
  assert.match(String(tokenCall.body), /grant_type=client_credentials/);
  assert.match(String(tokenCall.body), /client_secret=/);
  assert.equal(tokenCall.headers.authorization, undefined);

  const basic = await fetch(`${fake.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  // The token form's contract requires client_id and client_secret in the body: without them it is bad input.
  assert.equal(basic.status, 400);
  const refusal = (await basic.json()) as { errors: { code: string; parameterList: { value: string }[] }[] };
  assert.equal(refusal.errors[0]!.code, 'INVALID.INPUT.EXCEPTION');
  assert.match(refusal.errors[0]!.parameterList.map((p) => p.value).join('\n'), /client_id/);

  const wrong = await adapter({ clientSecret: 'nope' }).rate(rateRequest, signal);
  assert.equal(!wrong.ok && wrong.error.code, 'carrier_unavailable');
  assert.match(!wrong.ok ? wrong.error.detail : '', /FedEx refused the API credentials/);
});

test('an expired token is refreshed once and the call goes through', async () => {
  assert.ok((await carrier.rate(rateRequest, signal)).ok);
  const tokensBefore = fake.tokenRequests;
  fake.expireTokens();
  const result = await carrier.track(labelRef('581190049992'), signal);
  assert.ok(result.ok);
  assert.equal(fake.tokenRequests - tokensBefore, 1);
});

test('a slow answer is carrier_timeout within the time-out', async () => {
  const quick = adapter({ timeoutMs: 300 });
  assert.ok((await quick.rate(rateRequest, signal)).ok);
  fake.faults.push({ kind: 'slow', ms: 2000 });
  const started = performance.now();
  const result = await quick.rate(rateRequest, signal);
  assert.equal(!result.ok && result.error.code, 'carrier_timeout');
  assert.ok(performance.now() - started < 1500, `took ${performance.now() - started} ms`);
});

test('malformed JSON, a 500 and error envelopes come back as typed failures', async () => {
  fake.faults.push({ kind: 'malformed' });
  const malformed = await carrier.rate(rateRequest, signal);
  assert.equal(!malformed.ok && malformed.error.code, 'carrier_error');

  fake.faults.push({ kind: 'status500' });
  const down = await carrier.track(labelRef('581190049992'), signal);
  assert.equal(!down.ok && down.error.code, 'carrier_unavailable');

  const badZip = await carrier.rate({ ...rateRequest, to: { ...to, zip: 'ABCDE' } }, signal);
  assert.equal(!badZip.ok && badZip.error.code, 'address_invalid');

  fake.faults.push({ kind: 'error', status: 400, code: 'SERVICETYPE.NOT.ALLOWED', message: 'This service type is not allowed for this origin and destination.' });
  const service = await carrier.purchase(purchaseRequest, signal);
  assert.equal(!service.ok && service.error.code, 'service_unavailable');

  const mismatch = await adapter({ accountNumber: '111111111' }).rate(rateRequest, signal);
  assert.equal(!mismatch.ok && mismatch.error.code, 'carrier_unavailable');
});

test('a missing account number or an unreachable host is a failure, not a throw', async () => {
  const calls = fake.calls.length;
  const noAccount = await adapter({ accountNumber: null }).purchase(purchaseRequest, signal);
  assert.equal(!noAccount.ok && noAccount.error.code, 'credentials_missing');
  assert.equal(fake.calls.length, calls);

  const gone = await adapter({ baseUrl: 'http://127.0.0.1:9' }).rate(rateRequest, signal);
  assert.equal(!gone.ok && gone.error.code, 'carrier_unavailable');
});

test('single objects where FedEx promises arrays, and strings for numbers, still parse', async () => {
  fake.singleObjects = true;
  const rate = await carrier.rate({ ...rateRequest, services: ['STANDARD_OVERNIGHT'] }, signal);
  assert.ok(rate.ok);
  assert.equal(rate.value.length, 1);
  assert.equal(rate.value[0]!.amountCents, 5500);

  const label = await carrier.purchase(purchaseRequest, signal);
  assert.ok(label.ok);
  assert.equal(label.value.postageCents, 2650);

  const track = await carrier.track(labelRef('581190049992'), signal);
  assert.ok(track.ok);
  assert.equal(track.value.status, 'delivered');

  const address = await carrier.validateAddress(to, signal);
  assert.ok(address.ok);
  assert.equal(address.value.valid, true);
});

test('the label comes back in the format asked for, with a valid FedEx tracking number', async () => {
  const magic: Record<string, (b: Buffer) => boolean> = {
    pdf: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
    png: (b) => b[0] === 0x89 && b.subarray(1, 4).toString('latin1') === 'PNG',
    zpl: (b) => b.toString('utf8').startsWith('^XA'),
  };
  for (const format of ['pdf', 'png', 'zpl'] as const) {
    const result = await carrier.purchase({ ...purchaseRequest, labelFormat: format }, signal);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.file?.format, format);
    assert.ok(magic[format]!(result.value.file!.bytes), format);
    assert.ok(isValidTrackingNumber('fedex', result.value.trackingNumber));
    assert.equal(result.value.postageCents, 2650);
    const sent = fake.calls.at(-1)!;
    assert.equal(sent.headers['x-customer-transaction-id'], 'idem-fedex-1');
  }
});

test('void: refunded, then already_voided; a tendered shipment is label_in_transit', async () => {
  const bought = await carrier.purchase(purchaseRequest, signal);
  assert.ok(bought.ok);
  const ref = labelRef(bought.value.trackingNumber);
  assert.deepEqual(await carrier.void(ref, signal), { ok: true, value: 'refunded' });
  const again = await carrier.void(ref, signal);
  assert.equal(!again.ok && again.error.code, 'already_voided');

  const second = await carrier.purchase(purchaseRequest, signal);
  assert.ok(second.ok);
  fake.tendered.add(second.value.trackingNumber);
  const late = await carrier.void(labelRef(second.value.trackingNumber), signal);
  assert.equal(!late.ok && late.error.code, 'label_in_transit');

  const cancelCall = fake.calls.filter((c) => c.path === '/ship/v1/shipments/cancel').at(-1)!;
  assert.equal(cancelCall.method, 'PUT');
  assert.equal((cancelCall.body as { deletionControl: string }).deletionControl, 'DELETE_ALL_PACKAGES');
});

test("FedEx's mock tracking numbers map to our statuses, events oldest first", async () => {
  const expected: Record<string, string> = {
    '449044304137821': 'pre_transit',
    '568838414941': 'in_transit',
    '039813852990618': 'out_for_delivery',
    '581190049992': 'delivered',
    '957794015041323': 'return_to_sender',
    '122816215025810': 'available_for_pickup',
    '843119172384577': 'cancelled',
  };
  for (const [number, status] of Object.entries(expected)) {
    const result = await carrier.track(labelRef(number), signal);
    assert.ok(result.ok, number);
    assert.equal(result.value.status, status, number);
    const times = result.value.events.map((e) => e.occurredAt.getTime());
    assert.deepEqual(times, [...times].sort((a, b) => a - b));
  }
  const moving = await carrier.track(labelRef('568838414941'), signal);
  assert.ok(moving.ok);
  assert.equal(moving.value.estimatedDeliveryDate, '2024-05-03');
  assert.deepEqual(moving.value.events[0]!.location, { city: 'NASHVILLE', state: 'TN', zip: '37201', country: 'US' });

  const unknown = await carrier.track(labelRef('123456789012'), signal);
  assert.ok(unknown.ok);
  assert.equal(unknown.value.status, 'unknown');
});

test('address validation: a deliverable address is standardized, a bad one is not valid', async () => {
  const good = await carrier.validateAddress(to, signal);
  assert.ok(good.ok);
  assert.equal(good.value.valid, true);
  assert.equal(good.value.address.zip, '94105-1804');
  assert.equal(good.value.address.street1, '415 MISSION ST');
  const bad = await carrier.validateAddress({ ...to, street1: '1 Nowhere Ln' }, signal);
  assert.ok(bad.ok);
  assert.equal(bad.value.valid, false);
  assert.equal(bad.value.messages[0]!.code, 'PARTIAL.STREET.MATCH');
});

test('a return label is bought as a FedEx printed return, shipped by the customer to the merchant', async () => {
  // For a return, from is the customer and to the merchant (whose phone the label carries for both).
  const result = await carrier.purchase({ ...purchaseRequest, isReturn: true, from: to, to: from }, signal);
  assert.ok(result.ok, JSON.stringify(result));
  type Party = { address: { postalCode: string } };
  const sent = fake.calls.filter((c) => c.path === '/ship/v1/shipments').at(-1)!.body as { requestedShipment: { shipmentSpecialServices: unknown; shipper: Party; recipients: Party[] } };
  assert.deepEqual(sent.requestedShipment.shipmentSpecialServices, { specialServiceTypes: ['RETURN_SHIPMENT'], returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' } });
  assert.equal(sent.requestedShipment.shipper.address.postalCode, '94105');
  assert.equal(sent.requestedShipment.recipients[0]!.address.postalCode, '37201');

  const rated = await carrier.rate({ ...rateRequest, isReturn: true, from: to, to: from }, signal);
  assert.ok(rated.ok, JSON.stringify(rated));
  const rateSent = fake.calls.filter((c) => c.path === '/rate/v1/rates/quotes').at(-1)!.body as { requestedShipment: Record<string, unknown> };
  assert.deepEqual(rateSent.requestedShipment.shipmentSpecialServices, { specialServiceTypes: ['RETURN_SHIPMENT'], returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' } });
});

test('the fake refuses a request that breaks the published contract, as FedEx answers bad input', async () => {
  assert.ok((await carrier.rate(rateRequest, signal)).ok);
  const token = /^Bearer (.+)$/.exec(String(fake.calls.filter((c) => c.path === '/rate/v1/rates/quotes').at(-1)!.headers.authorization))![1];
  const sent = fake.calls.filter((c) => c.path === '/rate/v1/rates/quotes').at(-1)!.body as { requestedShipment: Record<string, unknown> };
  const broken = {
    ...sent,
    requestedShipment: { ...sent.requestedShipment, requestedPackageLineItems: [{ weight: { units: 'LB', value: 4.2 }, dimensions: { length: 10.5, width: 8, height: 4, units: 'IN' } }] },
  };
  const res = await fetch(`${fake.url}/rate/v1/rates/quotes`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(broken) });
  assert.equal(res.status, 400);
  const answer = (await res.json()) as { transactionId: string; errors: { code: string; message: string; parameterList: { key: string; value: string }[] }[] };
  assert.equal(answer.transactionId, 'fake-txn');
  assert.equal(answer.errors[0]!.code, 'INVALID.INPUT.EXCEPTION');
  assert.equal(answer.errors[0]!.parameterList[0]!.key, '/requestedShipment/requestedPackageLineItems/0/dimensions/length');
});

test('a service FedEx prices without transit data is quoted with the days FedEx commits to', async () => {
  const result = await carrier.rate({ ...rateRequest, services: ['FEDEX_EXPRESS_SAVER'] }, signal);
  assert.ok(result.ok, JSON.stringify(result));
  // Wednesday 1 May 2024 plus three business days.
  assert.deepEqual([result.value[0]!.deliveryDays, result.value[0]!.estimatedDeliveryDate], [3, '2024-05-06']);
});

const threeBoxes = [{ weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 6 } }, { weightLb: 1.5 }, { weightLb: 4.2, reference: 'Box 3: the lamp' }];
const apiBody = (path: string) => fake.calls.filter((c) => c.path === path).at(-1)!.body as { requestedShipment: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- the request as FedEx read it

test('several boxes are rated in one call, for the whole shipment: what each box costs alone, added up', async () => {
  const alone = await Promise.all(threeBoxes.slice(0, 2).map((p) => carrier.rate({ ...rateRequest, parcels: [p], services: ['FEDEX_2_DAY'] }, signal)));
  const before = fake.calls.length;
  const both = await carrier.rate({ ...rateRequest, parcels: threeBoxes.slice(0, 2), services: ['FEDEX_2_DAY'] }, signal);
  assert.ok(both.ok, JSON.stringify(both));
  assert.equal(fake.calls.slice(before).filter((c) => c.path === '/rate/v1/rates/quotes').length, 1);
  assert.equal(apiBody('/rate/v1/rates/quotes').requestedShipment.totalPackageCount, 2);
  const sum = alone.reduce((cents, r) => cents + (r.ok ? r.value[0]!.amountCents : NaN), 0);
  assert.equal(both.value[0]!.amountCents, sum);
  assert.equal(both.value[0]!.billableWeightLb, 4);
});

test('several boxes are bought as one multiple-piece shipment: a master, a valid number and a label per box, voided together', async () => {
  const bought = await carrier.purchase({ ...purchaseRequest, parcels: threeBoxes, labelFormat: 'zpl' }, signal);
  assert.ok(bought.ok, JSON.stringify(bought));
  const label = bought.value;
  const sent = apiBody('/ship/v1/shipments').requestedShipment;
  assert.equal(sent.totalPackageCount, 3);
  assert.deepEqual(sent.requestedPackageLineItems.map((i: { sequenceNumber: number }) => i.sequenceNumber), [1, 2, 3]);
  assert.ok(isValidTrackingNumber('fedex', label.masterTrackingNumber!));
  assert.equal(label.carrierShipmentId, label.masterTrackingNumber);
  const numbers = label.packages!.map((p) => p.trackingNumber);
  assert.equal(new Set(numbers).size, 3);
  for (const n of numbers) assert.ok(isValidTrackingNumber('fedex', n), n);
  assert.deepEqual(fake.sold.get(label.masterTrackingNumber!)!.pieces, numbers, 'the pieces in the order asked');
  for (const p of label.packages!) assert.match(p.file!.bytes.toString(), new RegExp(`\\^FD${p.trackingNumber}\\^FS`), "each box's label is its own");
  assert.equal(label.postageCents, 3 * 2650, "the shipment's total");

  const boxes = numbers.map((trackingNumber) => ({ trackingNumber, carrierShipmentId: label.carrierShipmentId }));
  fake.tendered.add(numbers[2]!);
  const held = await carrier.void({ ...labelRef(numbers[0]!), carrierShipmentId: label.carrierShipmentId, boxes }, signal);
  assert.equal(!held.ok && held.error.code, 'label_in_transit', 'one box in FedEx hands keeps the whole shipment');
  fake.tendered.delete(numbers[2]!);
  const voided = await carrier.void({ ...labelRef(numbers[0]!), carrierShipmentId: label.carrierShipmentId, boxes }, signal);
  assert.deepEqual(voided, { ok: true, value: 'refunded' });
  assert.equal((fake.calls.filter((c) => c.path === '/ship/v1/shipments/cancel').at(-1)!.body as { trackingNumber: string }).trackingNumber, label.masterTrackingNumber);
  assert.ok(numbers.every((n) => fake.sold.get(n)!.cancelled), 'every box is cancelled');
});

test('abroad, several boxes are still refused before FedEx is asked', async () => {
  const before = fake.calls.length;
  const abroadTo = { name: 'Ada', street1: '1 Rue de Rivoli', city: 'Paris', zip: '75001', country: 'FR' };
  const rated = await carrier.rate({ ...rateRequest, to: abroadTo, parcels: threeBoxes }, signal);
  assert.equal(!rated.ok && rated.error.code, 'not_serviced');
  const bought = await carrier.purchase({ ...purchaseRequest, to: abroadTo, parcels: threeBoxes }, signal);
  assert.equal(!bought.ok && bought.error.code, 'not_serviced');
  assert.equal(fake.calls.length, before);
});

test('the fake refuses package counts FedEx would: a wrong totalPackageCount, a repeated sequence, 41 packages at once, dry ice not on the boxes counted', async () => {
  assert.ok((await carrier.purchase({ ...purchaseRequest, parcels: threeBoxes, options: { dry_ice: { weight: { value: 1, unit: 'kg' } } } }, signal)).ok);
  const call = fake.calls.filter((c) => c.path === '/ship/v1/shipments').at(-1)!;
  const sent = call.body as { requestedShipment: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- edited as raw JSON
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${fake.url}${path}`, { method: 'POST', headers: { authorization: String(call.headers.authorization), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, code: ((await res.json()) as { errors?: { code: string }[] }).errors?.[0]?.code };
  };
  const ship = (change: Record<string, unknown>, top: Record<string, unknown> = {}) => post('/ship/v1/shipments', { ...sent, ...top, requestedShipment: { ...sent.requestedShipment, ...change } });
  const items = sent.requestedShipment.requestedPackageLineItems as Record<string, unknown>[];
  assert.deepEqual(await ship({ totalPackageCount: 2 }), { status: 400, code: 'PACKAGECOUNT.SEQUENCENUMBER.INVALID' });
  assert.deepEqual(await ship({ requestedPackageLineItems: items.map((i) => ({ ...i, sequenceNumber: 1 })) }), { status: 400, code: 'PACKAGECOUNT.SEQUENCENUMBER.INVALID' });
  const iced = sent.requestedShipment.shipmentSpecialServices;
  assert.deepEqual(await ship({ shipmentSpecialServices: { ...iced, shipmentDryIceDetail: { ...iced.shipmentDryIceDetail, packageCount: 1 } } }), { status: 400, code: 'DRYICE.PACKAGECOUNT.INVALID' });
  const many = { requestedPackageLineItems: [{ weight: { units: 'LB', value: 1 }, groupPackageCount: 41 }], totalPackageCount: 41, shipmentSpecialServices: undefined };
  assert.deepEqual(await ship(many, { processingOptionType: 'SYNCHRONOUS_ONLY' }), { status: 400, code: 'INVALID.INPUT.EXCEPTION' });
  const twoGroups = { requestedPackageLineItems: [21, 21].map((groupPackageCount) => ({ weight: { units: 'LB', value: 1 }, groupPackageCount })), totalPackageCount: undefined, shipmentSpecialServices: undefined };
  assert.deepEqual(await ship(twoGroups), { status: 400, code: 'PROCESSINGOPTIONTYPE.ASYNCHRONOUS.REQUIRED' }, '42 packages in two groups of 21');
  assert.equal((await ship({ requestedPackageLineItems: items.slice(0, 2), totalPackageCount: 2, shipmentSpecialServices: undefined })).status, 200, 'the same boxes, counted right, sell');

  assert.ok((await carrier.rate({ ...rateRequest, parcels: threeBoxes }, signal)).ok);
  const rated = apiBody('/rate/v1/rates/quotes');
  assert.deepEqual(await post('/rate/v1/rates/quotes', { ...rated, requestedShipment: { ...rated.requestedShipment, totalPackageCount: 4 } }), { status: 400, code: 'PACKAGECOUNT.SEQUENCENUMBER.INVALID' });
});
