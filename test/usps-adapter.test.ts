import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { boxKey, type PurchaseRequest, type RateRequest } from '../src/carriers/carrier.ts';
import { isValidTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { UspsCarrier } from '../src/carriers/usps/adapter.ts';
import { uspsIdempotencyKey } from '../src/carriers/usps/idempotency.ts';
import type { LiveCredentials } from '../src/carriers/live/options.ts';
import { fakeUspsCredentials, startUspsFake, type UspsFake } from './fakes/usps.ts';
import { TestClock } from './harness.ts';

const signal = new AbortController().signal;
// Long enough for a loaded CI machine to answer in time, well under the slow answer a time-out test waits for.
const timeoutMs = 1500;

const rateRequest: RateRequest = {
  from: { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  to: { name: 'Grace Hopper', street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001' },
  parcels: [{ weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 } }],
  shipDate: new Date('2025-01-06T15:00:00Z'),
};

let n = 0;
const purchaseRequest = (overrides: Partial<PurchaseRequest> = {}): PurchaseRequest => ({
  ...rateRequest,
  service: 'PRIORITY_MAIL',
  quotedCents: 1000,
  labelFormat: 'pdf',
  isReturn: false,
  reference: 'ORDER-1',
  idempotencyKey: `key-${++n}`,
  ...overrides,
});

const labelRef = (trackingNumber: string) => ({ trackingNumber, carrierShipmentId: trackingNumber, service: 'PRIORITY_MAIL', purchasedAt: new Date() });

let fake: UspsFake;
let usps: UspsCarrier;
const carriers: UspsCarrier[] = [];

function adapter(credentials: LiveCredentials = fakeUspsCredentials): UspsCarrier {
  const c = new UspsCarrier({ credentials, baseUrl: fake.url, timeoutMs, clock: new TestClock() });
  carriers.push(c);
  return c;
}

before(async () => {
  fake = await startUspsFake();
});
beforeEach(() => {
  usps = adapter();
  fake.tokenRequests = 0;
  fake.paymentRequests = 0;
  fake.failNext = null;
  fake.singleObjects = false;
  fake.manifested = false;
  fake.imageOverride = null;
  fake.violations.length = 0;
  fake.calls.length = 0;
  fake.refuseLabelAfter = null;
  fake.rateDelayMs = 0;
  fake.mostRatesAtOnce = 0;
});
after(async () => {
  await Promise.all(carriers.map((c) => c.close()));
  await fake.close();
});

test('rates for every catalog class in one search, with the token fetched once for many calls', async () => {
  for (let i = 0; i < 3; i++) {
    const result = await usps.rate(rateRequest, signal);
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(result.value.map((q) => q.service), ['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL', 'PRIORITY_MAIL_EXPRESS']);
    const pm = result.value[1]!;
    assert.equal(pm.listAmountCents, 1245);
    assert.equal(pm.amountCents, 1058);
    assert.equal(pm.deliveryDays, 2);
    assert.equal(pm.estimatedDeliveryDate, '2025-01-08');
    assert.equal(result.value[2]!.guaranteed, true);
  }
  assert.equal(fake.tokenRequests, 1);
  const searches = fake.calls.filter((c) => c.path === '/shipments/v3/options/search');
  assert.equal(searches.length, 3);
  const token = fake.calls.find((c) => c.path === '/oauth2/v3/token')!;
  assert.equal(token.headers.authorization, undefined, 'credentials go in the body, not Basic');
  assert.equal((token.body as Record<string, string>).client_id, fakeUspsCredentials.clientId);
});

test('request.services filters the quotes; a single-object answer still parses', async () => {
  const only = await usps.rate({ ...rateRequest, services: ['USPS_GROUND_ADVANTAGE'] }, signal);
  assert.ok(only.ok);
  assert.deepEqual(only.value.map((q) => q.service), ['USPS_GROUND_ADVANTAGE']);
  fake.singleObjects = true;
  const single = await usps.rate(rateRequest, signal);
  assert.ok(single.ok, JSON.stringify(single));
  assert.deepEqual(single.value.map((q) => [q.service, q.amountCents]), [['PRIORITY_MAIL', 1058]]);
});

test('an expired token is refreshed once after a 401 and the call succeeds', async () => {
  assert.ok((await usps.rate(rateRequest, signal)).ok);
  fake.expireTokens();
  const result = await usps.rate(rateRequest, signal);
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(fake.tokenRequests, 2);
});

test('wrong credentials are carrier_unavailable with a clear detail', async () => {
  const result = await adapter({ clientId: 'nobody', clientSecret: 'wrong' }).rate(rateRequest, signal);
  assert.equal(result.ok ? null : result.error.code, 'carrier_unavailable');
  assert.match(result.ok ? '' : result.error.detail, /invalid_client.*USPS_CLIENT_ID/);
});

test('a slow answer is carrier_timeout within the time-out', async () => {
  fake.failNext = 'slow';
  fake.slowMs = 3000;
  const started = performance.now();
  const result = await usps.rate(rateRequest, signal);
  assert.equal(result.ok ? null : result.error.code, 'carrier_timeout');
  assert.ok(performance.now() - started < timeoutMs + 1000);
});

test('malformed JSON, a 500, a 429 and a generic error envelope become failures, never throws', async () => {
  const expected: [NonNullable<UspsFake['failNext']>, string][] = [
    ['malformed', 'carrier_error'],
    ['http500', 'carrier_unavailable'],
    ['rate_limited', 'carrier_unavailable'],
    ['envelope', 'carrier_error'],
  ];
  for (const [shape, code] of expected) {
    fake.failNext = shape;
    const result = await usps.rate(rateRequest, signal);
    assert.equal(result.ok ? null : result.error.code, code, shape);
  }
});

test('an unknown ZIP is address_invalid and an overweight parcel parcel_too_large', async () => {
  const zip = await usps.rate({ ...rateRequest, to: { ...rateRequest.to, zip: '00000' } }, signal);
  assert.equal(zip.ok ? null : zip.error.code, 'address_invalid');
  const heavy = await usps.rate({ ...rateRequest, parcels: [{ weightLb: 80 }] }, signal);
  assert.equal(heavy.ok ? null : heavy.error.code, 'parcel_too_large');
});

test('purchase: the label comes back in the asked format, paid with one payment authorization, idempotent by key', async () => {
  const starts: Record<string, Buffer> = { pdf: Buffer.from('%PDF-'), zpl: Buffer.from('^XA'), png: Buffer.from([0x89, 0x50, 0x4e, 0x47]) };
  for (const format of ['pdf', 'zpl', 'png'] as const) {
    const result = await usps.purchase(purchaseRequest({ labelFormat: format }), signal);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.file?.format, format);
    assert.ok(result.value.file!.bytes.subarray(0, starts[format]!.length).equals(starts[format]!), format);
    assert.ok(isValidTrackingNumber('usps', result.value.trackingNumber));
    assert.equal(result.value.postageCents, 1058);
  }
  assert.equal(fake.paymentRequests, 1);
  const labelCall = fake.calls.find((c) => c.path === '/labels/v3/label')!;
  assert.equal(labelCall.headers.accept, 'application/vnd.usps.labels+json');
  assert.equal(labelCall.headers['x-payment-authorization-token'], 'usps-payment-1');

  const request = purchaseRequest();
  const first = await usps.purchase(request, signal);
  const again = await usps.purchase(request, signal);
  assert.ok(first.ok && again.ok);
  assert.equal(again.value.trackingNumber, first.value.trackingNumber);
  // USPS requires a UUID; the same purchase sends the same one, so a retry gets the label already sold.
  const sent = fake.calls.filter((c) => c.headers['x-idempotency-key'] === uspsIdempotencyKey(request.idempotencyKey));
  assert.equal(sent.length, 2);
  assert.match(String(sent[0]!.headers['x-idempotency-key']), /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual(fake.violations, []);
});

test('a return label is bought at /labels/v3/return-label in the return class; a service without one is refused before paying', async () => {
  const result = await usps.purchase(purchaseRequest({ isReturn: true, service: 'USPS_GROUND_ADVANTAGE' }), signal);
  assert.ok(result.ok, JSON.stringify(result));
  assert.ok(isValidTrackingNumber('usps', result.value.trackingNumber));
  assert.equal(result.value.file?.format, 'pdf');
  const call = fake.calls.find((c) => c.path === '/labels/v3/return-label')!;
  assert.equal((call.body as { packageDescription: { mailClass: string } }).packageDescription.mailClass, 'USPS_GROUND_ADVANTAGE_RETURN_SERVICE');
  assert.equal(fake.calls.filter((c) => c.path === '/labels/v3/label').length, 0);
  assert.deepEqual(fake.violations, []);

  const before = fake.calls.length;
  const media = await usps.purchase(purchaseRequest({ isReturn: true, service: 'MEDIA_MAIL' }), signal);
  assert.equal(media.ok ? null : media.error.code, 'service_unavailable');
  assert.equal(fake.calls.length, before);
});

test('return rates quote the return classes under our codes, dated by the same classes outbound', async () => {
  const result = await usps.rate({ ...rateRequest, isReturn: true }, signal);
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.value.map((q) => [q.service, q.amountCents, q.deliveryDays]), [
    ['USPS_GROUND_ADVANTAGE', 612, 5],
    ['PRIORITY_MAIL', 1058, 2],
    ['PRIORITY_MAIL_EXPRESS', 3115, 1],
  ]);
  const searched = fake.calls.filter((c) => c.path === '/shipments/v3/options/search').map((c) => (c.body as { packageDescription: { mailClass: string } }).packageDescription.mailClass);
  assert.deepEqual(searched, ['ALL_RETURNS', 'ALL_OUTBOUND']);
});

test('no dimensions, long names and streets, and every optional address field keep the published contract end to end', async () => {
  const long: PurchaseRequest = purchaseRequest({
    parcels: [{ weightLb: 1 }],
    from: { name: 'Augusta Ada King Countess of Lovelace and Baroness Wentworth of Nettlestead', company: 'The Analytical Engine Company of Greater San Francisco', street1: '415 Mission Street Salesforce Tower Observation Level Entrance B', street2: 'Suite 4500', city: 'San Francisco', state: 'CA', zip: '94105-2533', phone: '+1 (415) 555-0100', email: 'ada@example.com' },
    to: { name: 'Grace', street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001', residential: true },
    reference: 'ORDER-0000000000000000000000000000042',
  });
  const rate = await usps.rate(long, signal);
  assert.ok(rate.ok, JSON.stringify(rate));
  const bought = await usps.purchase(long, signal);
  assert.ok(bought.ok, JSON.stringify(bought));
  assert.equal(bought.value.postageCents, rate.value.find((q) => q.service === 'PRIORITY_MAIL')!.amountCents);
  assert.deepEqual(fake.violations, []);
});

test('a nonstandard fee is in the quote and in the charge, and they agree', async () => {
  const long = purchaseRequest({ parcels: [{ weightLb: 2, dimensionsIn: { length: 24, width: 8, height: 4 } }] });
  const rate = await usps.rate(long, signal);
  assert.ok(rate.ok, JSON.stringify(rate));
  const pm = rate.value.find((q) => q.service === 'PRIORITY_MAIL')!;
  assert.equal(pm.amountCents, 1058 + 400);
  const bought = await usps.purchase(long, signal);
  assert.ok(bought.ok, JSON.stringify(bought));
  assert.equal(bought.value.postageCents, pm.amountCents);
  const body = fake.calls.find((c) => c.path === '/labels/v3/label')!.body as { packageDescription: { processingCategory: string } };
  assert.equal(body.packageDescription.processingCategory, 'NONSTANDARD');
});

test('a PNG answered to a PDF purchase is reported as PNG', async () => {
  fake.imageOverride = 'PNG';
  const result = await usps.purchase(purchaseRequest({ labelFormat: 'pdf' }), signal);
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.value.file?.format, 'png');
});

test('a request that breaks the published contract is refused by the fake with the USPS error envelope', async () => {
  const res = await fetch(`${fake.url}/oauth2/v3/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: fakeUspsCredentials.clientId, client_secret: fakeUspsCredentials.clientSecret }).toString() });
  const { access_token: token } = (await res.json()) as { access_token: string };
  const zero = await fetch(`${fake.url}/shipments/v3/options/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ originZIPCode: '94105', destinationZIPCode: '10001', packageDescription: { weight: 1, length: 0, width: 0, height: 0, mailClass: 'ALL_OUTBOUND' }, pricingOptions: [{ priceType: 'RETAIL' }] }),
  });
  assert.equal(zero.status, 400);
  const answer = (await zero.json()) as { apiVersion: string; error: { code: string; message: string; errors: { status: string; code: string; title: string; detail: string; source: { parameter: string } }[] } };
  assert.equal(answer.apiVersion, '/shipments/v3');
  assert.equal(answer.error.code, '400');
  assert.ok(answer.error.errors.length >= 3);
  assert.deepEqual(Object.keys(answer.error.errors[0]!).sort(), ['code', 'detail', 'source', 'status', 'title']);
  assert.equal(answer.error.errors[0]!.source.parameter, 'packageDescription.length');
});

test('purchase failures: no account number, a bad address, an unknown mail class, malformed JSON', async () => {
  const noAccount = await adapter({ clientId: fakeUspsCredentials.clientId, clientSecret: fakeUspsCredentials.clientSecret }).purchase(purchaseRequest(), signal);
  assert.equal(noAccount.ok ? null : noAccount.error.code, 'credentials_missing');
  const address = await usps.purchase(purchaseRequest({ to: { ...rateRequest.to, street1: '1 Nowhere Lane' } }), signal);
  assert.equal(address.ok ? null : address.error.code, 'address_invalid');
  const service = await usps.purchase(purchaseRequest({ service: 'USPS_RETAIL_GROUND' }), signal);
  assert.equal(service.ok ? null : service.error.code, 'service_unavailable');
  await usps.rate(rateRequest, signal);
  fake.failNext = 'malformed';
  const malformed = await usps.purchase(purchaseRequest(), signal);
  assert.equal(malformed.ok ? null : malformed.error.code, 'carrier_error');
});

test('the payment authorization names the PAYER and LABEL_OWNER as the spec requires, and USPS takes it', async () => {
  const bought = await usps.purchase(purchaseRequest(), signal);
  assert.ok(bought.ok, JSON.stringify(bought));
  const { crid, mid, accountNumber } = fakeUspsCredentials;
  assert.deepEqual(fake.calls.find((c) => c.path === '/payments/v3/payment-authorization')?.body, {
    roles: [
      { roleName: 'PAYER', CRID: crid, accountType: 'EPS', accountNumber },
      { roleName: 'LABEL_OWNER', CRID: crid, MID: mid, manifestMID: mid },
    ],
  });
  assert.deepEqual(fake.violations, []);
});

test('the fake USPS refuses the payment authorization shipd once sent, without CRID, MID and manifestMID', async () => {
  const res = await fetch(`${fake.url}/oauth2/v3/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: fakeUspsCredentials.clientId, client_secret: fakeUspsCredentials.clientSecret }).toString() });
  const { access_token: token } = (await res.json()) as { access_token: string };
  const roles = ['PAYER', 'LABEL_OWNER'].map((roleName) => ({ roleName, accountType: 'EPS', accountNumber: fakeUspsCredentials.accountNumber }));
  const old = await fetch(`${fake.url}/payments/v3/payment-authorization`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ roles }) });
  assert.equal(old.status, 400);
  assert.ok(fake.violations.some((v) => v.includes("'MID'")), fake.violations.join('\n'));
});

test('a purchase or cancel without a CRID or MID is credentials_missing naming the setting, before anything is asked of USPS', async () => {
  const { crid: _crid, ...noCrid } = fakeUspsCredentials;
  const purchase = await adapter(noCrid).purchase(purchaseRequest(), signal);
  assert.equal(purchase.ok ? null : purchase.error.code, 'credentials_missing');
  assert.match(purchase.ok ? '' : purchase.error.detail, /USPS_CRID/);
  const { mid: _mid, ...noMid } = fakeUspsCredentials;
  const cancel = await adapter(noMid).void(labelRef('9205500000000000000004'), signal);
  assert.equal(cancel.ok ? null : cancel.error.code, 'credentials_missing');
  assert.match(cancel.ok ? '' : cancel.error.detail, /USPS_MID/);
  assert.equal(fake.paymentRequests, 0);
  assert.deepEqual(fake.calls.filter((c) => c.path.startsWith('/labels/')), []);
});

test('void: CANCELED is refunded; after the manifest DISPUTED is refund_pending, then already_voided; scanned is label_in_transit', async () => {
  const buy = async () => {
    const r = await usps.purchase(purchaseRequest(), signal);
    assert.ok(r.ok);
    return r.value.trackingNumber;
  };
  assert.deepEqual(await usps.void(labelRef(await buy()), signal), { ok: true, value: 'refunded' });

  fake.manifested = true;
  const disputed = await buy();
  assert.deepEqual(await usps.void(labelRef(disputed), signal), { ok: true, value: 'refund_pending' });
  const twice = await usps.void(labelRef(disputed), signal);
  assert.equal(twice.ok ? null : twice.error.code, 'already_voided');

  const scanned = await buy();
  fake.scan(scanned, 'in_transit');
  const moving = await usps.void(labelRef(scanned), signal);
  assert.equal(moving.ok ? null : moving.error.code, 'label_in_transit');
  assert.ok(fake.calls.filter((c) => c.method === 'DELETE').every((c) => c.headers['x-payment-authorization-token']));
});

test('track: statuses through the table, events oldest first with places, single event objects too', async () => {
  const bought = await usps.purchase(purchaseRequest(), signal);
  assert.ok(bought.ok);
  const tn = bought.value.trackingNumber;

  const created = await usps.track(labelRef(tn), signal);
  assert.ok(created.ok);
  assert.equal(created.value.status, 'pre_transit');
  assert.equal(created.value.estimatedDeliveryDate, '2025-01-09');

  fake.scan(tn, 'out_for_delivery');
  const out = await usps.track(labelRef(tn), signal);
  assert.ok(out.ok);
  assert.equal(out.value.status, 'out_for_delivery');
  assert.deepEqual(out.value.events.map((e) => e.status), ['pre_transit', 'in_transit', 'in_transit', 'in_transit', 'out_for_delivery']);
  assert.ok(out.value.events.every((e, i, all) => i === 0 || all[i - 1]!.occurredAt <= e.occurredAt));
  assert.deepEqual(out.value.events.at(-1)!.location, { city: 'NEW YORK', state: 'NY', zip: '10001', country: 'US' });
  assert.equal(fake.calls.at(-1)!.path, `/tracking/v3/tracking/${tn}?expand=DETAIL`);

  fake.scan(tn, 'delivered');
  fake.singleObjects = true;
  const delivered = await usps.track(labelRef(tn), signal);
  assert.ok(delivered.ok);
  assert.equal(delivered.value.status, 'delivered');
  assert.equal(delivered.value.events.length, 1);
  assert.equal(delivered.value.estimatedDeliveryDate, null);

  const unknown = await usps.track(labelRef('9205590000000000000000'), signal);
  assert.ok(unknown.ok);
  assert.equal(unknown.value.status, 'unknown');
});

test('validateAddress: standardized, unit missing, and no match', async () => {
  const good = await usps.validateAddress({ name: 'Grace', street1: '350 Fifth Avenue', city: 'New York', state: 'NY', zip: '10001' }, signal);
  assert.ok(good.ok);
  assert.equal(good.value.valid, true);
  assert.equal(good.value.address.zip, '10001-1804');
  assert.equal(good.value.address.street1, '350 FIFTH AVENUE');
  assert.equal(good.value.residential, true);

  const unit = await usps.validateAddress({ street1: '1 Garden Apartments', city: 'New York', state: 'NY', zip: '10001' }, signal);
  assert.ok(unit.ok);
  assert.equal(unit.value.valid, false);
  assert.ok(unit.value.messages.some((m) => m.code === 'correction_32'));

  const none = await usps.validateAddress({ street1: '1 Nowhere Lane', city: 'New York', state: 'NY', zip: '10001' }, signal);
  assert.ok(none.ok);
  assert.equal(none.value.valid, false);
  assert.equal(none.value.messages[0]!.detail, 'There is no match for the address requested.');
});

const twoBoxes = [
  { weightLb: 2, dimensionsIn: { length: 10, width: 8, height: 4 } },
  { weightLb: 5, dimensionsIn: { length: 12, width: 10, height: 6 } },
];
const searches = () => fake.calls.filter((c) => c.path === '/shipments/v3/options/search').map((c) => (c.body as { packageDescription: Record<string, unknown> }).packageDescription);
const labelCalls = () => fake.calls.filter((c) => c.method === 'POST' && c.path === '/labels/v3/label');

test('several boxes: one search per different box, a service quoted at the sum of its boxes, boxes alike asked once', async () => {
  const alone = await Promise.all(twoBoxes.map((p) => usps.rate({ ...rateRequest, parcels: [p] }, signal)));
  fake.calls.length = 0;
  const both = await usps.rate({ ...rateRequest, parcels: twoBoxes }, signal);
  assert.ok(both.ok, JSON.stringify(both));
  assert.deepEqual(searches().map((p) => p.weight).sort((a, b) => Number(a) - Number(b)), [2, 5]);
  for (const q of both.value) {
    const parts = alone.map((a) => (a.ok ? a.value.find((x) => x.service === q.service)! : assert.fail()));
    assert.equal(q.amountCents, parts[0]!.amountCents + parts[1]!.amountCents, q.service);
    assert.equal(q.listAmountCents, parts[0]!.listAmountCents + parts[1]!.listAmountCents, q.service);
    assert.equal(q.billableWeightLb, 7);
  }
  fake.calls.length = 0;
  const same = await usps.rate({ ...rateRequest, parcels: [twoBoxes[0]!, twoBoxes[0]!, twoBoxes[0]!] }, signal);
  assert.ok(same.ok);
  assert.equal(searches().length, 1);
  assert.equal(same.value[0]!.amountCents, 3 * (alone[0]!.ok ? alone[0]!.value[0]!.amountCents : 0));
  const heavy = await usps.rate({ ...rateRequest, parcels: [twoBoxes[0]!, { weightLb: 80 }] }, signal);
  assert.equal(heavy.ok ? null : heavy.error.code, 'parcel_too_large');
  assert.match(heavy.ok ? '' : heavy.error.detail, /^box 2 of 2: /);
});

test('several different boxes are searched at most four at a time, every box still priced', async () => {
  const boxes = Array.from({ length: 12 }, (_, i) => ({ weightLb: i + 1, dimensionsIn: { length: 10, width: 8, height: 4 } }));
  fake.rateDelayMs = 25;
  const rated = await usps.rate({ ...rateRequest, parcels: boxes }, signal);
  assert.ok(rated.ok, JSON.stringify(rated));
  // Four in flight reach the fake in any order.
  assert.deepEqual(searches().map((p) => p.weight).sort((a, b) => Number(a) - Number(b)), boxes.map((b) => b.weightLb));
  assert.equal(fake.mostRatesAtOnce, 4);
  assert.equal(rated.value.find((q) => q.service === 'PRIORITY_MAIL')!.billableWeightLb, 78);

  // With options each box is searched class by class: 3 boxes × 3 classes still go 4 at a time.
  fake.calls.length = 0;
  fake.mostRatesAtOnce = 0;
  const signed = await usps.rate({ ...rateRequest, parcels: boxes.slice(0, 3), options: { signature: 'adult' } }, signal);
  assert.ok(signed.ok, JSON.stringify(signed));
  assert.equal(searches().length, 9);
  assert.equal(fake.mostRatesAtOnce, 4);
});

test("the searches still waiting when the rate call's time-out runs out are never sent", async () => {
  const boxes = Array.from({ length: 12 }, (_, i) => ({ weightLb: i + 1 }));
  fake.rateDelayMs = 300;
  // The call is cut off once the first four are in flight, however long a loaded machine took to send them.
  const cutOff = new AbortController();
  const rating = usps.rate({ ...rateRequest, parcels: boxes }, cutOff.signal);
  while (searches().length < 4) await new Promise((r) => setTimeout(r, 5));
  cutOff.abort();
  assert.equal((await rating).ok, false);
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(searches().length, 4, 'only the first four went out');
});

test('several boxes bought: a label per box under its own X-Idempotency-Key, no master, asked again for the same labels', async () => {
  const request = purchaseRequest({ parcels: twoBoxes, quotedCents: 2500 });
  const bought = await usps.purchase(request, signal);
  assert.ok(bought.ok, JSON.stringify(bought));
  const boxes = bought.value.packages!;
  assert.equal(boxes.length, 2);
  assert.equal(bought.value.masterTrackingNumber, undefined);
  assert.equal(bought.value.trackingNumber, boxes[0]!.trackingNumber);
  for (const b of boxes) {
    assert.ok(isValidTrackingNumber('usps', b.trackingNumber), b.trackingNumber);
    assert.equal(b.carrierShipmentId, b.trackingNumber);
    assert.equal(b.file?.format, 'pdf');
  }
  const sent = labelCalls();
  assert.deepEqual(sent.map((c) => c.headers['x-idempotency-key']), [0, 1].map((i) => uspsIdempotencyKey(boxKey(request.idempotencyKey, i))));
  assert.deepEqual(sent.map((c) => (c.body as { packageDescription: { weight: number } }).packageDescription.weight), [2, 5]);
  const postage = sent.length;
  assert.equal(fake.paymentRequests, 1);
  const again = await usps.purchase(request, signal);
  assert.ok(again.ok);
  assert.deepEqual(again.value.packages!.map((b) => b.trackingNumber), boxes.map((b) => b.trackingNumber));
  assert.equal(again.value.postageCents, bought.value.postageCents);
  assert.equal(labelCalls().length, postage * 2, 'asked again under the same keys');
  assert.deepEqual(fake.violations, []);
});

test('a box USPS refuses voids the boxes bought before it and fails the purchase', async () => {
  fake.refuseLabelAfter = 1;
  const result = await usps.purchase(purchaseRequest({ parcels: [...twoBoxes, twoBoxes[0]!] }), signal);
  assert.equal(result.ok ? null : result.error.code, 'carrier_error');
  assert.match(result.ok ? '' : result.error.detail, /^box 2 of 3: .*the 1 box\(es\) bought before it were voided/);
  const cancelled = fake.calls.filter((c) => c.method === 'DELETE').map((c) => decodeURIComponent(c.path.split('/').at(-1)!));
  assert.equal(cancelled.length, 1);
  assert.equal(labelCalls().length, 2, 'box 3 was not asked for');
});

test('void of several boxes cancels each label; one box scanned keeps them all; a void stopped halfway finishes when asked again', async () => {
  const buy = async () => {
    const r = await usps.purchase(purchaseRequest({ parcels: twoBoxes }), signal);
    assert.ok(r.ok, JSON.stringify(r));
    return { trackingNumber: r.value.trackingNumber, carrierShipmentId: r.value.carrierShipmentId, boxes: r.value.packages!.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: b.carrierShipmentId! })), service: 'PRIORITY_MAIL', purchasedAt: new Date() };
  };
  const deletes = () => fake.calls.filter((c) => c.method === 'DELETE').map((c) => decodeURIComponent(c.path.split('/').at(-1)!));
  const label = await buy();
  assert.deepEqual(await usps.void(label, signal), { ok: true, value: 'refunded' });
  assert.deepEqual(deletes(), label.boxes.map((b) => b.trackingNumber));

  fake.calls.length = 0;
  const scanned = await buy();
  fake.scan(scanned.boxes[1]!.trackingNumber, 'accepted');
  const refused = await usps.void(scanned, signal);
  assert.equal(refused.ok ? null : refused.error.code, 'label_in_transit');
  assert.match(refused.ok ? '' : refused.error.detail, /box 2 of 2/);
  assert.deepEqual(deletes(), [], 'nothing was cancelled');

  fake.manifested = true;
  const disputed = await buy();
  const firstOnly = await usps.void(labelRef(disputed.boxes[0]!.trackingNumber), signal);
  assert.deepEqual(firstOnly, { ok: true, value: 'refund_pending' });
  assert.deepEqual(await usps.void(disputed, signal), { ok: true, value: 'refund_pending' }, 'box 1 answers already submitted, box 2 is cancelled');
  const twice = await usps.void(disputed, signal);
  assert.equal(twice.ok ? null : twice.error.code, 'already_voided');
});

test("a box's cancel refused after others were cancelled: the failure names the boxes cancelled, with their outcomes", async () => {
  const r = await usps.purchase(purchaseRequest({ parcels: [...twoBoxes, twoBoxes[0]!], idempotencyKey: 'void-partly' }), signal);
  assert.ok(r.ok, JSON.stringify(r));
  const boxes = r.value.packages!.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: b.carrierShipmentId! }));
  const label = { trackingNumber: r.value.trackingNumber, carrierShipmentId: r.value.carrierShipmentId, boxes, service: 'PRIORITY_MAIL', purchasedAt: new Date() };
  // USPS took box 2 in, but its tracking does not say so yet: the check before cancelling lets it through.
  fake.scanUntracked(boxes[1]!.trackingNumber, 'accepted');
  const partly = await usps.void(label, signal);
  assert.ok(!partly.ok);
  assert.equal(partly.error.code, 'label_in_transit');
  assert.match(partly.error.detail, /^box 2 of 3: .*cannot be submitted; .* before it were cancelled/);
  assert.deepEqual(partly.error.voided, [{ trackingNumber: boxes[0]!.trackingNumber, outcome: 'refunded' }], 'box 1 alone: the cancels stop at box 2');
  assert.deepEqual(boxes.map((b) => fake.cancelOf(b.trackingNumber)), ['CANCELED', null, null]);

  // A refusal of the first box names none.
  const fresh = await usps.purchase(purchaseRequest({ parcels: twoBoxes, idempotencyKey: 'void-partly-first' }), signal);
  assert.ok(fresh.ok);
  const freshBoxes = fresh.value.packages!.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: b.carrierShipmentId! }));
  fake.scanUntracked(freshBoxes[0]!.trackingNumber, 'accepted');
  const none = await usps.void({ ...label, boxes: freshBoxes }, signal);
  assert.equal(none.ok ? null : none.error.code, 'label_in_transit');
  assert.equal(none.ok ? null : none.error.voided, undefined);

  // After the manifest, the box cancelled is a refund request, which USPS reviews.
  fake.manifested = true;
  const late = await usps.purchase(purchaseRequest({ parcels: twoBoxes, idempotencyKey: 'void-partly-manifested' }), signal);
  assert.ok(late.ok);
  const lateBoxes = late.value.packages!.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: b.carrierShipmentId! }));
  fake.scanUntracked(lateBoxes[1]!.trackingNumber, 'accepted');
  const pending = await usps.void({ ...label, boxes: lateBoxes }, signal);
  assert.deepEqual(pending.ok ? null : pending.error.voided, [{ trackingNumber: lateBoxes[0]!.trackingNumber, outcome: 'refund_pending' }]);
});

test("one box's own label is cancelled alone, once its tracking shows it unscanned; a last box left is cancelled by its own number", async () => {
  const r = await usps.purchase(purchaseRequest({ parcels: [...twoBoxes, twoBoxes[0]!], idempotencyKey: 'void-one-box' }), signal);
  assert.ok(r.ok, JSON.stringify(r));
  const boxes = r.value.packages!.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: b.carrierShipmentId! }));
  const label = { ...labelRef(r.value.trackingNumber), boxes };
  const deletes = () => fake.calls.filter((c) => c.method === 'DELETE').map((c) => decodeURIComponent(c.path.split('/').at(-1)!));
  fake.calls.length = 0;

  assert.deepEqual(await usps.voidBox(label, boxes[0]!, signal), { ok: true, value: 'refunded' });
  assert.deepEqual(deletes(), [boxes[0]!.trackingNumber], 'that box alone');

  fake.scan(boxes[2]!.trackingNumber, 'accepted');
  const scanned = await usps.voidBox(label, boxes[2]!, signal);
  assert.equal(scanned.ok ? null : scanned.error.code, 'label_in_transit');
  assert.match(scanned.ok ? '' : scanned.error.detail, /USPS has scanned box 3 of 3 .*it was not voided/);
  assert.deepEqual(deletes(), [boxes[0]!.trackingNumber], 'a scanned box is not asked to be cancelled');

  // Box 3 shipped on its own, the void of what is left is box 2's, by its number, not the shipment's first box's.
  const rest = await usps.void({ ...label, boxes: [boxes[1]!] }, signal);
  assert.deepEqual(rest, { ok: true, value: 'refunded' });
  assert.deepEqual(deletes(), [boxes[0]!.trackingNumber, boxes[1]!.trackingNumber]);

  const later = await usps.purchase(purchaseRequest({ parcels: twoBoxes, idempotencyKey: 'void-one-box-disputed' }), signal);
  assert.ok(later.ok, JSON.stringify(later));
  const laterBoxes = later.value.packages!.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: b.carrierShipmentId! }));
  const laterLabel = { ...labelRef(later.value.trackingNumber), boxes: laterBoxes };
  fake.manifested = true;
  assert.deepEqual(await usps.voidBox(laterLabel, laterBoxes[0]!, signal), { ok: true, value: 'refund_pending' }, 'after the manifest, a refund request');
  const twice = await usps.voidBox(laterLabel, laterBoxes[0]!, signal);
  assert.equal(twice.ok ? null : twice.error.code, 'already_voided');
});

test('options go to USPS as extra service codes, searched class by class, and are priced into the quote and the label', async () => {
  const signed = { ...rateRequest, options: { signature: 'standard' as const } };
  const quotes = await usps.rate(signed, signal);
  assert.ok(quotes.ok, JSON.stringify(quotes));
  assert.deepEqual(searches().map((p) => [p.mailClass, p.extraServices]), [
    ['USPS_GROUND_ADVANTAGE', [921]],
    ['PRIORITY_MAIL', [921]],
    ['PRIORITY_MAIL_EXPRESS', [981]],
  ]);
  assert.deepEqual(quotes.value.map((q) => [q.service, q.surcharges]), [
    ['USPS_GROUND_ADVANTAGE', [{ type: 'signature', amountCents: 395 }]],
    ['PRIORITY_MAIL', [{ type: 'signature', amountCents: 395 }]],
    ['PRIORITY_MAIL_EXPRESS', [{ type: 'signature', amountCents: 125 }]],
  ]);
  const pm = quotes.value[1]!;
  const bought = await usps.purchase(purchaseRequest({ options: signed.options, quotedCents: pm.amountCents }), signal);
  assert.ok(bought.ok, JSON.stringify(bought));
  assert.equal(bought.value.postageCents, pm.amountCents);
  const label = labelCalls().at(-1)!.body as { packageDescription: Record<string, unknown> };
  assert.deepEqual([label.packageDescription.extraServices, label.packageDescription.physicalSignatureRequired], [[921], false]);
  // Limited quantities go by Ground Advantage only: only its class is searched.
  fake.calls.length = 0;
  const limited = await usps.rate({ ...rateRequest, options: { hazmat: 'limited_quantity' } }, signal);
  assert.deepEqual(limited.ok && limited.value.map((q) => q.service), ['USPS_GROUND_ADVANTAGE']);
  assert.deepEqual(searches().map((p) => p.mailClass), ['USPS_GROUND_ADVANTAGE']);
  // A label on a service that does not do an option is refused before USPS is asked.
  const before = fake.calls.length;
  const refused = await usps.purchase(purchaseRequest({ service: 'PRIORITY_MAIL', options: { hazmat: 'limited_quantity' } }), signal);
  assert.equal(refused.ok ? null : refused.error.code, 'option_not_supported');
  assert.equal(fake.calls.length, before);
  assert.deepEqual(fake.violations, []);
});

test('holding at a Post Office: the Locations API finds it, every class is searched without an extra service, and the label asks toAddress.holdForPickup with its facilityId', async () => {
  const found = await usps.findLocations({ zip: '94105', limit: 10 }, signal);
  assert.ok(found.ok, JSON.stringify(found));
  assert.deepEqual(found.value.map((l) => [l.id, l.kind, l.distanceMiles]), [['1390271', 'Post Office', 0.3], ['1390274', 'Post Office', 1.9]]);
  const searched = fake.calls.findLast((c) => c.path.startsWith('/locations/v3/post-office-locations'))!;
  assert.equal(searched.path, '/locations/v3/post-office-locations?ZIPCode=94105&radius=20&limit=10&postOfficeType=POST_OFFICE&pickupService=HOLD_FOR_PICKUP');

  const to = { ...rateRequest.to, email: 'grace@example.com', phone: '212 555 0100' } as RateRequest['to'];
  const from = { ...rateRequest.from, email: 'ada@example.com', phone: '415-555-0100' };
  const options = { hold_for_pickup: true, hold_location: { carrier: 'usps' as const, id: found.value[0]!.id } };
  fake.calls.length = 0;
  const quotes = await usps.rate({ ...rateRequest, from, to, options }, signal);
  assert.ok(quotes.ok, JSON.stringify(quotes));
  assert.deepEqual(quotes.value.map((q) => [q.service, q.surcharges]), [['USPS_GROUND_ADVANTAGE', []], ['PRIORITY_MAIL', []], ['PRIORITY_MAIL_EXPRESS', []]]);
  assert.deepEqual(searches().map((p) => [p.mailClass, p.extraServices]), [['USPS_GROUND_ADVANTAGE', undefined], ['PRIORITY_MAIL', undefined], ['PRIORITY_MAIL_EXPRESS', undefined]]);
  const bought = await usps.purchase(purchaseRequest({ from, to, options, quotedCents: quotes.value[1]!.amountCents }), signal);
  assert.ok(bought.ok, JSON.stringify(bought));
  const label = labelCalls().at(-1)!.body as { toAddress: Record<string, unknown>; fromAddress: Record<string, unknown> };
  assert.deepEqual([label.toAddress.holdForPickup, label.toAddress.facilityId, label.toAddress.email, label.toAddress.phone], [true, '1390271', 'grace@example.com', '2125550100']);
  assert.deepEqual([label.fromAddress.firstName, label.fromAddress.lastName, label.fromAddress.email, label.fromAddress.phone], ['Ada', 'Lovelace', 'ada@example.com', '4155550100']);

  // Without the recipient's email USPS would refuse the label: refused first, naming the field, USPS not asked.
  const before = fake.calls.length;
  const unreachable = await usps.purchase(purchaseRequest({ from, to: { ...to, email: undefined } as PurchaseRequest['to'], options }), signal);
  assert.deepEqual(unreachable.ok ? null : [unreachable.error.code, /missing: ship_to\.email$/.test(unreachable.error.detail)], ['address_invalid', true]);
  const unquoted = await usps.rate({ ...rateRequest, from: { ...from, phone: undefined }, to, options }, signal);
  assert.match(unquoted.ok ? '' : unquoted.error.detail, /missing: ship_from\.phone$/);
  assert.equal(fake.calls.length, before);

  // A facility that is not a Post Office holding parcels is USPS's to refuse.
  const elsewhere = await usps.purchase(purchaseRequest({ from, to, options: { ...options, hold_location: { carrier: 'usps', id: '1390275' } } }), signal);
  assert.equal(elsewhere.ok ? null : elsewhere.error.code, 'address_invalid');
  assert.match(elsewhere.ok ? '' : elsewhere.error.detail, /toAddress\.facilityId: The facility 1390275 is not a Post Office that offers Hold for Pickup/);
  assert.deepEqual(fake.violations, []);
});

test('the fake refuses an extra service code the published specs do not list, in the search and on the label', async () => {
  assert.ok((await usps.purchase(purchaseRequest({ options: { signature: 'adult' } }), signal)).ok);
  const call = labelCalls().at(-1)!;
  const body = structuredClone(call.body) as { packageDescription: { extraServices: number[] } };
  body.packageDescription.extraServices = [922, 999];
  const headers = { 'content-type': 'application/json', authorization: String(call.headers.authorization), 'x-payment-authorization-token': String(call.headers['x-payment-authorization-token']) };
  const label = await fetch(`${fake.url}/labels/v3/label`, { method: 'POST', headers, body: JSON.stringify(body) });
  assert.equal(label.status, 400);
  assert.match(await label.text(), /extraServices\/1 must be equal to one of the allowed values/);
  await usps.rate({ ...rateRequest, options: { signature: 'adult' } }, signal);
  const search = structuredClone(fake.calls.findLast((c) => c.path === '/shipments/v3/options/search')!.body) as { packageDescription: { extraServices: number[] } };
  search.packageDescription.extraServices = [1234];
  const searched = await fetch(`${fake.url}/shipments/v3/options/search`, { method: 'POST', headers, body: JSON.stringify(search) });
  assert.equal(searched.status, 400);
  assert.match(await searched.text(), /OASValidation/);
});
