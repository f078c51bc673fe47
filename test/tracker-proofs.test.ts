import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { problem, startServer, type TestServer } from './harness.ts';
import { upsTrackingNumber } from '../src/carriers/tracking-numbers.ts';
import { pollTrackers, trackerPollBatch } from '../src/domain/tracking/trackers.ts';
import { fetchProofs, proofBatch } from '../src/domain/tracking/proofs.ts';
import { serviceContext } from '../src/services.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
const ups = () => upsTrackingNumber(digits(6), '03', digits(7));

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
