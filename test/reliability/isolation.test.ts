import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { problem, startServer, type Response, type TestServer } from '../harness.ts';
import { austin, orderBody } from '../fixtures.ts';
import { startReceiver, verify, type Receiver } from '../webhook-receiver.ts';
import { fakeUspsCredentials, startUspsFake, type UspsFake } from '../fakes/usps.ts';
import { pushFedexTracking, startFedexFake, type FedexFake } from '../fakes/fedex.ts';
import { fedexTrackingNumber } from '../../src/carriers/tracking-numbers.ts';
import { carrierEventsPath } from '../../src/domain/tracking/carrier-subscriptions.ts';
import { setPaymentMethod } from '../../src/domain/billing/payment-methods.ts';
import { saveCard, startBilling } from '../live-billing.ts';
import { addLocation } from '../../src/domain/locations/locations.ts';
import { addPackage } from '../../src/domain/packages/packages.ts';
import { createJobRunner } from '../../src/jobs/index.ts';
import { createLogger } from '../../src/http/logger.ts';
import type { JobRunner } from '../../src/jobs/runner.ts';
import { detectCarrier } from '../../src/carriers/tracking-numbers.ts';
import { Harvest, Rng, fillPath, matchRoute, paramRole, resolve, routesOf, validValue, type ApiDocument, type Json, type Route } from './api-document.ts';

// test/isolation.test.ts shows the rule on orders and events; this applies it to every route of the served
// OpenAPI document. Each key makes one of everything; then every other key tries every route with the first's
// ids, in the path, the query and the body, and must get exactly what a made-up id gets. A route the document
// lists that no case reaches fails, so a new route is covered or noticed.

let runner: JobRunner;

// The routes are read before the tests are declared, so that each route is a test of its own.
const usps: UspsFake = await startUspsFake();
// FedEx's tracking push reaches the hidden carrier events route (not in the document): its own case below.
const fedex: FedexFake = await startFedexFake();
const fedexPushToken = 'isolation-fedex-webhook-token-0123';
const billing = await startBilling();
const server: TestServer = await startServer({
  env: {
    ...billing.env,
    SHIPD_FEATURES: 'batches,manifests,pickups',
    SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true',
    // Live keys buy labels too: from USPS, played by its fake over HTTP.
    USPS_BASE_URL: usps.url,
    USPS_CLIENT_ID: fakeUspsCredentials.clientId,
    USPS_CLIENT_SECRET: fakeUspsCredentials.clientSecret,
    USPS_ACCOUNT_NUMBER: fakeUspsCredentials.accountNumber,
    USPS_CRID: fakeUspsCredentials.crid,
    USPS_MID: fakeUspsCredentials.mid,
    FEDEX_BASE_URL: fedex.url,
    FEDEX_CLIENT_ID: fedex.clientId,
    FEDEX_CLIENT_SECRET: fedex.clientSecret,
    FEDEX_ACCOUNT_NUMBER: fedex.accountNumber,
    FEDEX_WEBHOOK_SECURITY_TOKEN: fedexPushToken,
  },
});
const doc = (await server.request('GET', '/openapi.json')).body as ApiDocument;
const routes = routesOf(doc);
const apiPath = new URL(server.api).pathname;

after(async () => {
  await runner?.stop();
  for (const w of worlds.values()) await w.receiver.close();
  await server.close();
  await usps.close();
  await fedex.close();
  await billing.stripe.close();
});

/** A key, its webhook receiver, and everything it made and saw. */
interface World {
  name: string;
  key: string;
  account: string;
  mode: 'test' | 'live';
  receiver: Receiver;
  secrets: string[];
  harvest: Harvest;
  /** Every id, tracking number, URL and link it got back. */
  strings: Set<string>;
  /** Creating routes that refused this key, with the problem code. */
  refused: Map<string, string>;
}

const worlds = new Map<string, World>();

async function call(w: World, method: string, path: string, body?: unknown): Promise<Response> {
  const res = await server.request(method, path.startsWith(apiPath) ? path.slice(apiPath.length) : path, { key: w.key, body });
  if (res.status < 300 && res.body) w.harvest.collect(res.body);
  return res;
}

/** The next weekday at least `days` ahead, as YYYY-MM-DD. */
function weekdayAhead(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** What a key puts in a field: its own ids, its own receiver, a date the API takes. */
function lookupOf(w: World, attempt = 0) {
  return (name: string, schema: Json): unknown => {
    if (name === 'url') return w.receiver.url;
    // USPS mailer ids in their published formats (a carrier account's credentials), so some connections succeed.
    if (name === 'crid') return '56982563';
    if (name === 'mid' || name === 'manifest_mid') return '904128936';
    if (name.endsWith('_ids')) {
      const first = w.harvest.values(name.slice(0, -1), resolve(doc, schema.items ?? {}))[0];
      return first === undefined ? undefined : [first];
    }
    if (schema.format === 'date') return name === 'ship_date' ? new Date().toISOString().slice(0, 10) : weekdayAhead(2 + attempt);
    return w.harvest.values(name, schema)[0];
  };
}

const pathParams = (r: Route) => r.parameters.filter((p) => p.in === 'path');

/** Fills a route's path with the key's own resources, the last parameter naming the resource, the others its parents. */
function ownPath(r: Route, w: World, isWanted: (id: string) => boolean = () => true): { path: string; values: Record<string, string> } | undefined {
  const params = pathParams(r).reverse();
  const values: Record<string, string> = {};
  let owner: Record<string, unknown> | undefined;
  for (const p of params) {
    const role = paramRole(r.template, p.name);
    const fromOwner = owner?.[`${role}_id`];
    if (typeof fromOwner === 'string') {
      values[p.name] = fromOwner;
      continue;
    }
    const found = w.harvest.resources(role).find((f) => isWanted(String(f.object.id)));
    if (!found) return undefined;
    owner ??= found.object;
    values[p.name] = String(found.object.id);
  }
  return { path: fillPath(r.template, values), values };
}

/** One of everything the document lets a key make. */
async function populate(name: string, account: string, mode: 'test' | 'live'): Promise<World> {
  const key = (await server.key(account, mode)).secret;
  const receiver = await startReceiver(`/hooks/${name.replace(/\W+/g, '-')}`);
  const w: World = { name, key, account, mode, receiver, secrets: [], harvest: new Harvest(apiPath), strings: new Set(), refused: new Map() };
  const eventTypes: string[] = resolve(doc, doc.components.schemas.WebhookEventType).enum;
  const hook = await call(w, 'POST', '/webhooks', { url: receiver.url, events: eventTypes });
  assert.equal(hook.status, 201, hook.text);
  w.secrets.push(hook.body.secret);
  const body = orderBody({ ship_from: { ...austin, phone: '512-555-0100' } });
  assert.equal((await call(w, 'POST', '/orders', body)).status, 201, 'an order kept incomplete');
  const shipped = await call(w, 'POST', '/orders', body);
  const rates = await call(w, 'POST', '/rates', { order_id: shipped.body.id });
  assert.equal(rates.status, 200, rates.text);
  const rate = rates.body.rates.find((r: Json) => r.carrier === 'usps') ?? rates.body.rates[0];
  const label = await call(w, 'POST', '/shipments', { order_id: shipped.body.id, rate_id: rate.id });
  assert.equal(label.status, 201, label.text);
  await call(w, 'POST', `/shipments/${shipped.body.id}/return`, {});
  for (const made of [await call(w, 'POST', '/tracking', { order_id: shipped.body.id }), await call(w, 'POST', `/webhooks/${hook.body.id}/test`)]) {
    assert.ok(made.status < 300, made.text);
  }

  const readAll = () => readEverything(w);
  await readAll();
  // Whatever else the document can create (the ops helpers, and any route added later), from its schema.
  for (const r of routes.filter((r) => r.creates && r.method === 'POST' && pathParams(r).length === 0 && r.authenticated)) {
    if (['/orders', '/webhooks', '/shipments'].some((p) => r.template.endsWith(p))) continue;
    // Random bodies pass the schema but seldom the domain's rules (a pickup's window, its holidays): a few dozen tries.
    for (let attempt = 0; attempt < 60; attempt++) {
      const res = await call(w, 'POST', r.template, validValue(doc, r.body ?? {}, new Rng(attempt + 1), lookupOf(w, attempt % 7)));
      if (res.status < 300) break;
      // A refusal the key's mode answers whatever the body (pickups with live keys) means it can have none.
      if (res.status !== 400 && res.body?.code) w.refused.set(r.template, res.body.code);
    }
  }
  await readAll();
  await readAll();
  collectStrings(w);
  return w;
}

/** Every GET route the key can fill with its own things, read once: what they answer goes to its harvest. */
async function readEverything(w: World): Promise<void> {
  for (const r of routes.filter((r) => r.method === 'GET' && r.authenticated)) {
    const own = ownPath(r, w);
    if (own) await call(w, 'GET', own.path);
  }
}

function collectStrings(w: World): void {
  for (const list of [...w.harvest.objects.values(), ...[...w.harvest.fields.values()].map((v) => v.map((s) => ({ object: { id: s } })))]) {
    for (const f of list) w.strings.add(String(f.object.id));
  }
  for (const l of w.harvest.links) w.strings.add(l.split('?')[0]!);
  for (const s of w.secrets) w.strings.add(s);
  w.strings.add(w.receiver.url);
}

const crockford = '0123456789abcdefghjkmnpqrstvwxyz';
/** A value of the same form that nobody has. */
function madeUp(value: string): string {
  const m = /^([a-z]+_)([0-9a-z]+)(\..+)?$/.exec(value);
  if (m) return m[1] + Array.from(m[2]!, () => crockford[randomInt(crockford.length)]).join('') + (m[3] ?? '');
  return value.replace(/[0-9]/g, () => String(randomInt(10)));
}

/** An answer with what differs between two requests for a missing thing blanked: the value, ids, times. */
function normal(res: Response, value: string): string {
  return res.text
    .split(value)
    .join('<value>')
    .replace(/req_[0-9a-f]{32}/g, '<request>')
    .replace(/\b[a-z]{2,4}_[0-9a-z]{26}\b/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>');
}

/** A number in the same carrier's format as `number` (or in none, as it is) that nobody follows. */
function unheardOf(number: string): string {
  const form = JSON.stringify(detectCarrier(number));
  for (let i = 0; i < 10_000; i++) {
    const candidate = madeUp(number);
    if (candidate !== number && JSON.stringify(detectCarrier(candidate)) === form) return candidate;
  }
  throw new Error(`no other number of the form of ${number}`);
}

interface Pair {
  name: string;
  owner: () => World;
  other: () => World;
}

let a1: World;
let a1b: World;
let a2: World;
let live: World;
const pairs: Pair[] = [
  { name: "a key of another account, on a test key's resources", owner: () => a1, other: () => a2 },
  { name: "another key of the same account, on a test key's resources", owner: () => a1, other: () => a1b },
  { name: "the live key of the same account, on a test key's resources", owner: () => a1, other: () => live },
  { name: "the test key of the same account, on the live key's resources", owner: () => live, other: () => a1 },
];

before(async () => {
  runner = createJobRunner(server.services, createLogger('silent'), { pollMs: 20, delivery: { pollMs: 20, timeoutMs: 2_000, perEndpoint: 4 } });
  runner.start();
  const { db } = server.services.database;
  const accounts = [await server.account(), await server.account()];
  for (const account of accounts) {
    await setPaymentMethod(db, server.clock, account, 'test', 'pm_test_visa');
    // Account resources: the same for every key of the account, another account's for nobody else.
    await addLocation(db, server.clock, account, { name: 'Dock', address: { ...austin, phone: '512-555-0100' } });
    await addPackage(db, server.clock, account, { name: 'Box', dimensions: { length: 10, width: 8, height: 4, unit: 'in' }, maxWeight: { value: 20, unit: 'lb' } });
  }
  await saveCard(server, accounts[0]!);
  a1 = await populate('a1', accounts[0]!, 'test');
  a1b = await populate('a1b', accounts[0]!, 'test');
  a2 = await populate('a2', accounts[1]!, 'test');
  live = await populate('live', accounts[0]!, 'live');
  // What a key made later that every key of its account sees (a location, a box) is the earlier keys' too.
  for (const w of [a1, a1b, a2]) {
    await readEverything(w);
    collectStrings(w);
  }
  for (const w of [a1, a1b, a2, live]) worlds.set(w.name, w);
});

/** What the owner has that the other key does not have as well (its account's locations and boxes are the other's too). */
const privateTo = (owner: World, other: World) => new Set([...owner.strings].filter((s) => !other.strings.has(s)));

function assertNoLeak(res: Response, owner: World, other: World, sent: string[] = []): void {
  for (const s of privateTo(owner, other)) {
    if (!sent.includes(s)) assert.ok(!res.text.includes(s), `the answer holds ${s} of ${owner.name}: ${res.text.slice(0, 300)}`);
  }
}

/** Tries a route as `other` with `owner`'s things; returns how many cases it had. */
async function tryRoute(r: Route, owner: World, other: World): Promise<number> {
  const mine = privateTo(owner, other);
  const isMine = (s: string) => mine.has(s);
  let cases = 0;
  const send = (path: string, body?: unknown, key: string | undefined = other.key) =>
    server.request(r.method, path.slice(apiPath.length), { key, body });

  if (!r.authenticated) {
    // Links such as label_url carry their own token: without it, or with another's, nothing is served.
    const link = owner.harvest.links.map((l) => new URL(l, server.url)).find((u) => matchRoute([r], u.pathname) && isMine(u.pathname));
    if (!link) return 0;
    const otherLink = other.harvest.links.map((l) => new URL(l, server.url)).find((u) => matchRoute([r], u.pathname));
    const file = Object.values(matchRoute([r], link.pathname)!.params)[0]!;
    const bare = await send(link.pathname);
    const missing = await send(link.pathname.replace(file, madeUp(file)));
    assert.ok(bare.status >= 400 && bare.status < 500, `${bare.status} without the token`);
    assert.equal(normal(bare, file), normal(missing, file));
    cases++;
    for (const [name, value] of otherLink?.searchParams ?? []) {
      const swapped = new URL(link);
      swapped.searchParams.set(name, value);
      const res = await send(swapped.pathname + swapped.search);
      assert.ok(res.status >= 400 && res.status < 500, `${res.status} with another key's ${name}`);
      problem(res, res.status, JSON.parse(res.text).code);
      cases++;
    }
    return cases;
  }

  const body = r.body ? validValue(doc, r.body, new Rng(1), lookupOf(other)) : undefined;
  if (pathParams(r).length > 0) {
    const foreignPath = ownPath(r, owner, isMine);
    if (!foreignPath) return 0;
    const values = Object.values(foreignPath.values);
    let missingPath = foreignPath.path;
    for (const v of values) missingPath = missingPath.split(v).join(madeUp(v));
    const foreign = await send(foreignPath.path, body);
    const missing = await send(missingPath, body);
    const norm = (res: Response) => values.reduce((text, v) => text.split(v).join('<value>'), normal(res, '\u0000'));
    assert.equal(norm(foreign), norm(missing), `${r.method} ${foreignPath.path} answers differently from a made-up id`);
    assert.ok(foreign.status === 404 || (r.body && foreign.status === 400), `${foreign.status}: ${foreign.text.slice(0, 200)}`);
    assertNoLeak(foreign, owner, other, values);
    return 1;
  }

  // Ids in the query (list filters) and in the body, one at a time.
  const slots: { where: 'query' | 'body'; name: string; value: unknown; shown: string }[] = [];
  for (const p of r.parameters.filter((p) => p.in === 'query')) {
    const value = owner.harvest.values(p.name, p.schema).find(isMine) ?? (p.name === 'url' ? [...mine].find((s) => s === owner.receiver.url) : undefined);
    if (value) slots.push({ where: 'query', name: p.name, value, shown: value });
  }
  const properties: Record<string, Json> = r.body ? (resolve(doc, r.body).properties ?? {}) : {};
  // A URL is not anyone's: any key may register a webhook to any receiver, so only ids are tried in bodies.
  for (const [name, schema] of Object.entries(properties).filter(([name]) => /_ids?$|^tracking_number$/.test(name))) {
    const single = name.endsWith('_ids') ? name.slice(0, -1) : name;
    const value = owner.harvest.values(single, name.endsWith('_ids') ? resolve(doc, schema.items ?? {}) : resolve(doc, schema)).find(isMine);
    if (value) slots.push({ where: 'body', name, value: name.endsWith('_ids') ? [value] : value, shown: value });
  }
  for (const slot of slots) {
    const build = (value: unknown) => {
      if (slot.where === 'query') return { path: `${r.template}?${new URLSearchParams({ [slot.name]: String(value) })}`, body: undefined };
      const required: string[] = resolve(doc, r.body).required ?? [];
      const own = Object.fromEntries(required.filter((k) => k !== slot.name).map((k) => [k, validValue(doc, properties[k], new Rng(1), lookupOf(other), k)]));
      return { path: r.template, body: { ...own, [slot.name]: value } };
    };
    if (r.creates && slot.name === 'tracking_number') {
      // A number is nobody's: any key may follow one it was given (POST /trackers), and gets a tracker of its own.
      // Following the owner's must answer as following a number nobody has does, with nothing of the owner's label in
      // it. Both trackers are stopped at once, so they send nothing and later routes find the number unfollowed.
      const fresh = unheardOf(slot.shown);
      const answers = [];
      for (const value of [slot.value, fresh]) {
        const req = build(value);
        answers.push(await send(req.path, req.body));
      }
      const [foreign, missing] = answers as [Response, Response];
      const shape = (res: Response) => [res.status, res.body?.code, res.body?.origin, res.body?.carrier, res.body?.shipment_id, res.body?.order_id, res.body?.events?.length];
      assert.deepEqual(shape(foreign), shape(missing), `${r.method} ${r.template} with the tracking_number of ${owner.name}`);
      for (const res of answers.filter((a) => a.status < 300)) {
        const stopped = await server.request('DELETE', `${r.template.slice(apiPath.length)}/${res.body.id}`, { key: other.key });
        assert.equal(stopped.status, 200, stopped.text);
      }
      assertNoLeak(foreign, owner, other, [slot.shown]);
      cases++;
      continue;
    }
    const fake = madeUp(slot.shown);
    const foreignReq = build(slot.value);
    const missingReq = build(Array.isArray(slot.value) ? [fake] : fake);
    const foreign = await send(foreignReq.path, foreignReq.body);
    const missing = await send(missingReq.path, missingReq.body);
    const isId = /^[a-z]+_[0-9a-z]+$/.test(slot.shown);
    if (isId) assert.equal(normal(foreign, slot.shown), normal(missing, fake), `${r.method} ${r.template} with ${slot.name} of ${owner.name}`);
    else assert.deepEqual([foreign.status, foreign.body?.code, foreign.body?.data], [missing.status, missing.body?.code, missing.body?.data]);
    if (foreign.status < 300 && Array.isArray(foreign.body?.data)) assert.deepEqual(foreign.body.data, [], `${slot.name} of ${owner.name} lists nothing`);
    assertNoLeak(foreign, owner, other, [slot.shown]);
    cases++;
  }
  if (cases > 0) return cases;
  // Nothing of the owner's to name: what the other key gets holds nothing of the owner's.
  assertNoLeak(await send(r.template, body), owner, other);
  return 1;
}

/** What every key of an account sees (its locations and boxes), or every key of one of its modes (its carrier accounts). */
const sharedWithin: Record<string, 'account' | 'mode'> = { location: 'account', package: 'account', carrier_account: 'mode' };

/** Whether the other key rightly sees all of the owner's resources of this kind: both are keys of the account (and mode) they belong to. */
function sharedByBoth(role: string, owner: World, other: World): boolean {
  const scope = sharedWithin[role];
  return scope !== undefined && owner.account === other.account && (scope === 'account' || owner.mode === other.mode) && owner.harvest.resources(role).length > 0;
}

for (const pair of pairs) {
  describe(pair.name, () => {
    for (const r of routes) {
      test(`${r.method} ${r.template.slice(apiPath.length)}`, async (t) => {
        const owner = pair.owner();
        const cases = await tryRoute(r, owner, pair.other());
        const role = paramRole(r.template, pathParams(r).at(-1)?.name ?? '');
        if (cases === 0 && sharedByBoth(role, owner, pair.other())) {
          t.diagnostic(`${owner.name}'s ${role}s are ${pair.other().name}'s too: keys of one account share them`);
          return;
        }
        const refused = [...owner.refused].find(([made]) => r.template.startsWith(`${made}/`));
        if (cases === 0 && refused && !owner.harvest.resources(role).length) {
          t.diagnostic(`${owner.name} cannot have one: POST ${refused[0].slice(apiPath.length)} answered ${refused[1]}`);
          return;
        }
        assert.ok(cases > 0, `no case reaches ${r.method} ${r.template}: ${owner.name} has nothing of its own that it names`);
      });
    }
  });
}

test("each key's webhook receives its own key's events, signed with its secret, and nothing of another key's", async () => {
  for (const w of worlds.values()) await w.receiver.waitFor((got) => got.length >= 3);
  // Late deliveries of the tries above would arrive within the worker's next polls.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  for (const w of worlds.values()) {
    for (const r of w.receiver.received) {
      const event = verify(w.secrets[0]!, r);
      for (const other of worlds.values()) {
        if (other === w) continue;
        for (const s of privateTo(other, w)) assert.ok(!r.body.includes(s), `${w.name}'s webhook got ${s} of ${other.name} in a ${event.type}`);
      }
    }
  }
});

test('the hidden carrier push route (POST /carrier-events/{carrier}): a push for a number key A follows reaches only trackers that follow it, each key its own, and no other key\'s trackers or events', async () => {
  const live = async () => (await server.key(await server.account(), 'live')).secret;
  const [a, b] = [await live(), await live()];
  const bTest = (await server.key(await server.account())).secret;
  const number = fedexTrackingNumber(String(randomInt(10 ** 10, 10 ** 11)));
  const other = fedexTrackingNumber(String(randomInt(10 ** 10, 10 ** 11)));
  const follow = async (key: string, tracking_number: string) => {
    const res = await server.request('POST', '/trackers', { key, body: { tracking_number } });
    assert.equal(res.status, 201, res.text);
    return res.body as Json;
  };
  const events = async (key: string) => ((await server.request('GET', '/events?type=tracking.updated&limit=100', { key })).body as Json).data as Json[];
  const push = (day: number) =>
    pushFedexTracking(`${server.url}${carrierEventsPath('fedex')}`, fedexPushToken, number, [
      { at: new Date(Date.UTC(2026, 2, day, 15, 30)), eventType: 'PU', derivedStatusCode: 'PU', description: 'Picked up', city: 'MEMPHIS', state: 'TN', postalCode: '38118' },
    ]);

  const mine = await follow(a, number);
  const theirs = await follow(b, other);
  // B's test key follows the same number: the carrier pushes only real parcels, so a test tracker is never touched.
  const theirsInTest = await follow(bTest, number);
  const before = { theirs: (await server.request('GET', `/trackers/${theirs.id}`, { key: b })).body, test: (await server.request('GET', `/trackers/${theirsInTest.id}`, { key: bTest })).body };
  const pushed = await push(1);
  assert.equal(pushed.status, 200, pushed.text);

  const aEvents = await events(a);
  assert.deepEqual(aEvents.map((e) => e.data.id), [mine.id], 'one tracking.updated, about A\'s tracker');
  assert.deepEqual(await events(b), [], 'none for B');
  assert.deepEqual(await events(bTest), []);
  assert.deepEqual((await server.request('GET', `/trackers/${theirs.id}`, { key: b })).body, before.theirs);
  assert.deepEqual((await server.request('GET', `/trackers/${theirsInTest.id}`, { key: bTest })).body, before.test);
  problem(await server.request('GET', `/trackers/${mine.id}`, { key: b }), 404, 'tracker_not_found');

  // Once B follows the number live too, each key hears of the next scan through its own tracker only.
  const theirsToo = await follow(b, number);
  assert.equal((await push(2)).status, 200);
  const [aNow, bNow] = [await events(a), await events(b)];
  assert.ok(aNow.every((e) => e.data.id === mine.id) && aNow.length >= 2, JSON.stringify(aNow.map((e) => e.data.id)));
  assert.ok(bNow.length > 0 && bNow.every((e) => e.data.id === theirsToo.id), JSON.stringify(bNow.map((e) => e.data.id)));
  const rows = await server.services.database.db.selectFrom('events').select(['owner_key_id', 'data']).where('resource_id', 'in', [mine.id, theirsToo.id]).execute();
  for (const r of rows) assert.equal(JSON.parse(r.data).id === mine.id, rows.filter((x) => x.owner_key_id === r.owner_key_id).every((x) => JSON.parse(x.data).id === mine.id));
});
