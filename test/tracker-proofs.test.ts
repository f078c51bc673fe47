import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { problem, startServer, type TestServer } from './harness.ts';
import { fedexTrackingNumber, upsTrackingNumber, uspsTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { startCarrierFakes, type CarrierFakes } from './fakes/carriers.ts';
import { pollTrackers, trackerPollBatch } from '../src/domain/tracking/trackers.ts';
import { fetchProofs, proofBatch } from '../src/domain/tracking/proofs.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const ups = () => upsTrackingNumber(digits(6), '03', digits(7));
const usps = () => uspsTrackingNumber('001', `9${digits(8)}`, digits(7));
const fedex = () => fedexTrackingNumber(digits(11));

let server: TestServer;
let key: string;
let otherKey: string;

before(async () => {
  server = await startServer({ env: { SHIPD_RATE_LIMIT_PER_SECOND: '1000000', SHIPD_RATE_LIMIT_BURST: '1000000' } });
  key = (await server.key(await server.account())).secret;
  otherKey = (await server.key(await server.account())).secret;
});
after(() => server.close());

const quiet = { warn: (o: object) => assert.fail(`warned ${JSON.stringify(o)}`) };
const get = (path: string, k = key) => server.request('GET', path, { key: k });
async function follow(body: Json, k = key): Promise<Json> {
  const res = await server.request('POST', '/trackers', { key: k, body });
  assert.equal(res.status, 201, res.text);
  return res.body;
}
async function proofs(): Promise<void> {
  while ((await fetchProofs(serviceContext(server.services, 'test'), quiet)) === proofBatch);
}
/** A file behind a link the API handed out, fetched without the API key as a printer or browser would. */
async function fetchLink(url: string): Promise<Response> {
  const u = new URL(url);
  return fetch(`${server.url}${u.pathname}${u.search}`);
}

describe('proofs of delivery in test mode', () => {
  test('a delivered parcel gets a sample signed PDF, linked without the API key; none before delivery', async () => {
    const t = await follow({ tracking_number: ups() });
    assert.deepEqual(t.proof_of_delivery, [], 'nothing before delivery');
    await proofs();
    assert.deepEqual((await get(`/trackers/${t.id}`)).body.proof_of_delivery, [], 'nor is anything asked for');
    let now: Json = t;
    for (let step = 0; step < 400 && now.status !== 'delivered'; step++) {
      server.clock.advance(20_000);
      while ((await pollTrackers(serviceContext(server.services, 'test'), quiet)) === trackerPollBatch);
      now = (await get(`/trackers/${t.id}`)).body;
    }
    assert.equal(now.status, 'delivered');
    assert.deepEqual(now.proof_of_delivery, [], 'asked for by the proofs worker, off the tracking path');
    await proofs();
    const done = (await get(`/trackers/${t.id}`)).body;
    assert.equal(done.proof_of_delivery.length, 1);
    const [pod] = done.proof_of_delivery;
    assert.equal(pod.type, 'signature');
    assert.equal(pod.content_type, 'application/pdf');
    assert.match(pod.url, new RegExp(`/labels/${t.id}\\.pod1\\.pdf\\?token=`));
    const file = await fetchLink(pod.url);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/pdf');
    assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    // The same delivery always has the same proof, kept once: a second pass asks for nothing.
    await proofs();
    assert.deepEqual((await get(`/trackers/${t.id}`)).body.proof_of_delivery.map((p: Json) => p.type), ['signature']);

    const tampered = new URL(pod.url);
    tampered.searchParams.set('token', `${tampered.searchParams.get('token')!.split('.')[0]}.${'A'.repeat(43)}`);
    const refused = await fetchLink(tampered.toString());
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as Json).code, 'invalid_label_token');
    const other = await fetchLink(pod.url.replace('.pod1.pdf', '.pod2.pdf'));
    assert.equal(other.status, 404, "the token signs the tracker's files, but it has no pod2");
  });

  test('a magic delivered number is delivered when followed and has its proof at the next pass; the other key sees none of it', async () => {
    const t = await follow({ tracking_number: 'SHIPD_TEST_DELIVERED' });
    assert.equal(t.status, 'delivered');
    await proofs();
    const done = (await get(`/trackers/${t.id}`)).body;
    assert.equal(done.proof_of_delivery.length, 1);
    problem(await get(`/trackers/${t.id}`, otherKey), 404, 'tracker_not_found');
    const theirs = await follow({ tracking_number: 'SHIPD_TEST_DELIVERED' }, otherKey);
    assert.notEqual(theirs.id, t.id);
    await proofs();
    const theirsNow = (await get(`/trackers/${theirs.id}`, otherKey)).body;
    assert.equal(theirsNow.proof_of_delivery.length, 1);
    assert.notEqual(theirsNow.proof_of_delivery[0].url.split('?')[0], done.proof_of_delivery[0].url.split('?')[0], 'each tracker has its own file');
  });
});

describe('proofs of delivery in live mode: asked of the fake carriers, as each publishes them, once delivered', () => {
  let live: TestServer;
  let fakes: CarrierFakes;
  let liveKey: string;
  const warnings: object[] = [];
  before(async () => {
    fakes = await startCarrierFakes();
    live = await startServer({ env: fakes.env(['ups', 'usps', 'fedex']) });
    liveKey = (await live.key(await live.account(), 'live')).secret;
  });
  after(async () => {
    await live.close();
    await fakes.close();
  });
  const ctx = () => serviceContext(live.services, 'test');
  const log = { warn: (o: object) => void warnings.push(o) };
  const tracker = async (id: string): Promise<Json> => (await live.request('GET', `/trackers/${id}`, { key: liveKey })).body;

  test('UPS: its signature image and POD (asked with returnPOD only once delivered); FedEx: its SPOD letter; USPS: none, and it is not asked', async () => {
    const numbers = { ups: ups(), usps: usps(), fedex: fedex() };
    fakes.ups.addPackage(numbers.ups, 'in_transit');
    fakes.usps.addParcel(numbers.usps, 'delivered');
    fakes.fedex.parcels.set(numbers.fedex, '568838414941');
    const made: Record<string, Json> = {};
    for (const [carrier, tracking_number] of Object.entries(numbers)) {
      const res = await live.request('POST', '/trackers', { key: liveKey, body: { tracking_number } });
      assert.equal(res.status, 201, res.text);
      made[carrier] = res.body;
    }
    live.clock.advance(2 * 60_000);
    while ((await pollTrackers(ctx(), log)) === trackerPollBatch);
    assert.equal((await tracker(made.ups!.id)).status, 'in_transit');
    assert.ok(fakes.ups.calls.filter((c) => c.path.startsWith('/api/track/v1/details/')).every((c) => c.query.returnPOD === 'false' && c.query.returnSignature === 'false'), 'no proof is asked for before delivery');
    await fetchProofs(ctx(), log);
    assert.deepEqual(fakes.fedex.spodAsked, []);

    fakes.ups.setStage(numbers.ups, 'delivered');
    fakes.fedex.parcels.set(numbers.fedex, '581190049992');
    live.clock.advance(6 * 3_600_000);
    while ((await pollTrackers(ctx(), log)) === trackerPollBatch);
    for (const t of Object.values(made)) assert.equal((await tracker(t.id)).status, 'delivered');
    const uspsCalls = fakes.usps.calls.length;
    while ((await fetchProofs(ctx(), log)) === proofBatch);
    assert.deepEqual(warnings, []);

    const upsNow = await tracker(made.ups!.id);
    assert.equal(upsNow.signed_by, 'LOVELACE');
    assert.deepEqual(upsNow.proof_of_delivery.map((p: Json) => [p.type, p.content_type]), [['signature', 'image/gif'], ['document', 'application/pdf']]);
    const asked = fakes.ups.calls.filter((c) => c.query.returnPOD === 'true');
    assert.equal(asked.length, 1, 'UPS is asked for the proofs once');
    assert.equal(asked[0]!.query.returnSignature, 'true');
    assert.deepEqual(fakes.ups.contractRefusals, []);
    const gif = await fetch(`${live.url}${new URL(upsNow.proof_of_delivery[0].url).pathname}${new URL(upsNow.proof_of_delivery[0].url).search}`);
    assert.equal(gif.status, 200);
    assert.equal(gif.headers.get('content-type'), 'image/gif');
    assert.equal(Buffer.from(await gif.arrayBuffer()).subarray(0, 4).toString('latin1'), 'GIF8');

    const fedexNow = await tracker(made.fedex!.id);
    assert.deepEqual(fedexNow.proof_of_delivery.map((p: Json) => [p.type, p.content_type]), [['document', 'application/pdf']]);
    assert.deepEqual(fakes.fedex.spodAsked, [numbers.fedex]);
    const spod = fakes.fedex.calls.find((c) => c.path === '/track/v1/trackingdocuments')!;
    assert.deepEqual((spod.body as Json).trackDocumentDetail, { documentType: 'SIGNATURE_PROOF_OF_DELIVERY', documentFormat: 'PDF' });
    const letter = new URL(fedexNow.proof_of_delivery[0].url);
    const file = await fetch(`${live.url}${letter.pathname}${letter.search}`);
    assert.match(Buffer.from(await file.arrayBuffer()).toString('latin1'), new RegExp(`FedEx signature proof of delivery ${numbers.fedex}`));

    assert.deepEqual((await tracker(made.usps!.id)).proof_of_delivery, [], "USPS's API gives no proof of delivery");
    assert.equal(fakes.usps.calls.length, uspsCalls, 'and USPS is not asked for one');
  });
});
