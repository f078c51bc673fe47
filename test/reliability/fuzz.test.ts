import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { Pool, WebSocket } from 'undici';
import { createTestDatabase, type TestDatabase } from '../harness.ts';
import { orderBody } from '../fixtures.ts';
import { Harvest, Rng, fillPath, matchRoute, paramRole, resolve, routesOf, validValue, type ApiDocument, type Json, type Route } from './api-document.ts';

// Hostile input against a real `shipd serve` process, from its own OpenAPI document: valid requests derived
// from the schemas, and every kind of broken one. No answer may be a 5xx, every 4xx is a problem document, the
// process stays up and its memory stays flat. FUZZ_SEED=<n> replays a run.

const total = 20_000;
const warmUp = 2_000;
const concurrency = 8;
/**
 * The second half may grow the live JavaScript heap (measured after a full collection) by this much at most. It
 * moved by less than 1 MB in runs without a leak; a 1,000-character string kept per request grew it by 4 MB.
 */
const maxHeapGrowthMb = 2.5;
/**
 * The resident set is only a coarse guard against native leaks: it moves by ±100 MB within a run without leaking,
 * as V8 grows and shrinks its spaces and glibc keeps the arenas of 1 MiB bodies mapped (measured: 17 to 140 MB of
 * second-half growth on one seed, going down as often as up).
 */
const maxRssGrowthMb = 200;

const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);
const apiPath = '/api/integrations/v1';
const fuzzUpsCredential = 'fuzz-ups-track-alert-credential';

interface Served {
  url: string;
  key: string;
  child: ChildProcess;
  inspector: Inspector;
  /** Log lines of level error or worse the server wrote. */
  errors: string[];
  stop(): Promise<void>;
}

/** `shipd serve` as an operator runs it: the test key is the one it prints on its first start. */
function serve(db: TestDatabase): Promise<Served> {
  // The inspector lets the test collect garbage in the server before it weighs the heap.
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', join(import.meta.dirname, '..', '..', 'bin', 'shipd.js'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      HOST: '127.0.0.1',
      ...db.env,
      SHIPD_FEATURES: 'batches,manifests,pickups',
      // The fuzzer sends 20,000 requests with one key; the rate limiter has its own tests, and its 429s here
      // would only hide the routes behind it.
      SHIPD_RATE_LIMIT_PER_SECOND: '1000000',
      SHIPD_RATE_LIMIT_BURST: '1000000',
      // And thousands of them without a valid key, all from one address: the same holds for the limit per address.
      SHIPD_ADDRESS_RATE_LIMIT_PER_SECOND: '1000000',
      SHIPD_ADDRESS_RATE_LIMIT_BURST: '1000000',
      // Every webhook the fuzzer registers would be sent every event it causes: a delivery load that grows with
      // their product, and is measured by bench:webhooks, not here.
      SHIPD_WORKER: 'false',
      // The carriers' push endpoint (hidden from the document, as Stripe's is) checks posts against these.
      UPS_TRACK_ALERT_CREDENTIAL: fuzzUpsCredential,
      USPS_TRACKING_SECRET: 'fuzz-usps-tracking-secret-32char',
      USPS_TRACKING_ADMIN_EMAIL: 'ops@example.com',
      FEDEX_WEBHOOK_SECURITY_TOKEN: 'fuzz-fedex-security-token-0123456',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  let stdout = '';
  let stderr = '';
  return new Promise((resolvePromise, reject) => {
    // As long as the cluster tests allow: the suite runs two files at once, and beside four starting processes a
    // start that takes 6 s alone was seen taking over 30.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`shipd serve did not start in 60 s: ${stdout} ${stderr}`));
    }, 60_000);
    let served: Served | undefined;
    const ready = () => {
      const key = /^\s+(svc_test_[0-9A-Za-z]{32})$/m.exec(stdout)?.[1];
      const url = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(stdout)?.[1];
      const debuggerUrl = /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
      if (!key || !url || !debuggerUrl || served) return;
      clearTimeout(timer);
      const stop = () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null) return done();
          child.once('close', () => done());
          child.kill('SIGTERM');
        });
      served = { url, key, child, errors, inspector: new Inspector(debuggerUrl), stop };
      resolvePromise(served);
    };
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c;
      ready();
    });
    let lineStart = '';
    child.stdout!.on('data', (c: Buffer) => {
      const text = lineStart + c.toString();
      const lines = text.split('\n');
      lineStart = lines.pop()!;
      for (const line of lines) {
        if (/"level":(50|60)/.test(line)) errors.push(line.slice(0, 2000));
        if (stdout.length < 100_000) stdout += line + '\n';
      }
      ready();
    });
    child.once('close', (code) => reject(new Error(`shipd serve exited ${code}: ${stderr}`)));
  });
}

/** The server's main thread seen through its inspector (Chrome DevTools Protocol over a WebSocket). */
class Inspector {
  private readonly socket: WebSocket;
  private readonly opened: Promise<void>;
  private readonly pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  private lastId = 0;

  constructor(url: string) {
    this.socket = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.socket.addEventListener('open', () => resolve(), { once: true });
      this.socket.addEventListener('error', () => reject(new Error(`no inspector at ${url}`)), { once: true });
    });
    // Reported by the first call; a run that never weighs the heap has nothing to report.
    this.opened.catch(() => undefined);
    this.socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
  }

  async call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    await this.opened;
    const id = ++this.lastId;
    const answer = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.socket.send(JSON.stringify({ id, method, params }));
    return answer;
  }

  /** Live JavaScript heap after a full collection, in MB: what a leak of objects keeps, without the garbage. */
  async heapAfterGcMb(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const answer = (await this.call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true })) as {
      result: { value: number };
    };
    return answer.result.value / 1024 / 1024;
  }

  close(): void {
    this.socket.close();
  }
}

/** The resident set once the requests in flight are done: the least of a few readings over a quiet second. */
async function rssMb(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let n = 0; n < 5; n++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (!kb) throw new Error(`no VmRSS for ${pid}`);
    readings.push(Number(kb) / 1024);
  }
  return Math.min(...readings);
}

/**
 * One order of each carrier through to its label in every format, a return and a void, over the API as a client
 * does it. Random requests reach a bought label only now and then, so without this the first label of a run (its
 * render thread, the PDF, barcode and PNG code it loads) could fall in the second half and read as a leak.
 */
async function walkLabelPaths(url: string, key: string): Promise<unknown[]> {
  const answers: unknown[] = [];
  const call = async (method: string, path: string, body?: unknown, status = 200) => {
    const response = await fetch(`${url}${path.startsWith(apiPath) ? '' : apiPath}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const type = response.headers.get('content-type') ?? '';
    const answer = type.startsWith('application/json') ? await response.json() : Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, status, `${method} ${path}: ${type.startsWith('application/json') ? JSON.stringify(answer) : type}`);
    if (!Buffer.isBuffer(answer)) answers.push(answer);
    return answer as Record<string, unknown>;
  };
  for (const carrier of ['ups', 'usps', 'fedex']) {
    const order = await call('POST', '/orders', orderBody({ order_number: `walk-${carrier}` }), 201);
    const { rates } = await call('POST', '/rates', { order_id: order.id });
    const rate = (rates as Record<string, string>[]).find((r) => r.carrier === carrier);
    assert.ok(rate, `a ${carrier} rate for ${order.id}`);
    const shipment = await call('POST', '/shipments', { order_id: order.id, rate_id: rate.id }, 201);
    const label = new URL(shipment.label_url as string);
    for (const format of ['pdf', 'png', 'zpl']) await call('GET', label.pathname.replace(/\.pdf$/, `.${format}`) + label.search);
    await call('POST', `/shipments/${order.id}/return`, {}, 201);
    await call('POST', `/shipments/${order.id}/void`);
  }
  return answers;
}

/** One generated request. `headers` is a flat name, value list, so a header can be sent twice. */
interface Case {
  strategy: string;
  route: Route;
  method: string;
  path: string;
  headers: string[];
  body?: string | Buffer;
  /** Sent as a stream, so with Transfer-Encoding: chunked. */
  chunked?: boolean;
  /** Bytes written to a socket as they are, for what no HTTP client would send. */
  wire?: Buffer;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

// Strings that have broken parsers, databases and renderers somewhere.
const nastyStrings = [
  '\u202eevil\u202c',
  '👩‍👩‍👧‍👦🚚📦',
  '\ud800',
  '\udfff\ud800x',
  'a\u0000b',
  'e' + '\u0301'.repeat(200),
  '\ufeffBOM',
  '\uffff\ufffe',
  'Z\u0335\u0321a\u0337l\u0338g\u0335o',
  '\u200b\u200d\u2060',
  'שלום עולם',
  'مرحبا بالعالم',
  '𝕳𝖊𝖑𝖑𝖔',
  "' OR 1=1 --",
  "'); DROP TABLE orders; --",
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}%s%n',
  '../../../../etc/passwd',
  '\r\n\r\nX-Injected: 1',
  '\\u0000',
  '   ',
  '',
  'null',
  'NaN',
  '-0',
  '1e309',
  '__proto__',
];
const edgeNumbers = [0, -0, -1, -1e308, 1e308, 5e-324, 2 ** 53 + 1, -(2 ** 63), 1.5, 0.1, 1e21, 999999999.999];
/** Number literals JSON allows but a double cannot hold, or JSON does not allow at all. */
const numberTexts = ['1e400', '-1e400', '123456789012345678901234567890123', '0.0000000000000000000000000000001', '1E2', '-0.0', 'NaN', 'Infinity', '-Infinity', '0x10', '01', '.5', '+1'];
const ended = new Set(['cancelled', 'voided', 'delivered', 'disabled']);
const wrongTypes: unknown[] = [123, -1, 'text', true, false, null, [], {}, [1, 'a', null], { a: 1 }, 0.5];
const contentTypes = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset=latin1',
  'application/json; charset=utf-16',
  'application/problem+json',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'application/json, text/plain',
  'application/',
  '*/*',
  ';',
  'application/json; boundary="',
  'application/json ; ; ;',
];
const badDates = ['2026-13-45T99:99:99Z', 'yesterday', '0', '-271821-04-20T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00+25:00', '9'.repeat(300)];
const badLimits = ['-1', '0', '101', '1e2', 'abc', 'NaN', 'Infinity', '1.5', '', ' 1', '0x10', '1'.repeat(400), '100000000000000000000'];

/** Every path into a JSON value, the root being []. */
function pathsOf(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  return out;
}

function getAt(root: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], root);
}

/** A copy of root with the value at path replaced (or removed, when value is `remove`). */
const remove = Symbol('remove');
function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value === remove ? undefined : value;
  const copy = structuredClone(root);
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === remove) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = value;
  }
  return copy;
}

/** A value put in the body where its JSON text is then edited, for what JSON.stringify cannot write. */
const marker = '\u0001raw\u0001';
const rawText = (json: unknown, text: string) => JSON.stringify(json).replace(JSON.stringify(marker), text);

/** Percent-encoding that writes a lone surrogate as the bytes it would have in WTF-8, where encodeURIComponent throws. */
const uriEncode = (text: string) =>
  [...text]
    .map((ch) => {
      if (!/[\ud800-\udfff]/.test(ch) || ch.length === 2) return encodeURIComponent(ch);
      const u = ch.charCodeAt(0);
      return [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 63), 0x80 | (u & 63)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    })
    .join('');

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth);

class Fuzzer {
  readonly harvest = new Harvest(apiPath, 100);
  /** A few Idempotency-Keys used over and over, so that replays and reuse with another body happen. */
  private readonly idempotencyKeys = ['fuzz-1', 'fuzz-2', 'fuzz-3', '"quoted-key"', 'fuzz-🙂'.replace('🙂', 'x')];

  constructor(
    private readonly doc: ApiDocument,
    readonly routes: Route[],
    private readonly key: string,
  ) {}

  /** Request i of the run: its own PRNG, so it can be told apart in a report and regenerated from the seed. */
  make(i: number): Case {
    const rng = new Rng(seed ^ Math.imul(i + 1, 0x9e3779b1));
    // Round robin over the routes, so every route gets its share whatever the PRNG does.
    const route = this.routes[i % this.routes.length]!;
    const base = this.valid(route, rng, i);
    const strategy = rng.weighted<(c: Case, r: Rng) => Case>([
      [40, (c) => c],
      [14, (c, r) => this.mutateBody(c, r)],
      [8, (c, r) => this.rawBody(c, r)],
      [10, (c, r) => this.mutateHeaders(c, r)],
      [8, (c, r) => this.mutatePath(c, r)],
      [8, (c, r) => this.mutateQuery(c, r)],
      [4, (c, r) => this.otherMethod(c, r)],
      [4, (c, r) => this.wire(c, r)],
    ]);
    return strategy(base, rng);
  }

  /** A request the document says is valid, aimed at what the key has. */
  private valid(route: Route, rng: Rng, i: number): Case {
    const params: Record<string, string> = {};
    const query = new URLSearchParams();
    const headers: string[] = route.authenticated ? ['authorization', `Bearer ${this.key}`] : [];
    const lookup = (name: string, schema: Json) => {
      // A public address literal: the SSRF guard cannot resolve names here, and with no worker nothing is sent to it.
      if (name === 'url' && rng.chance(0.8)) return `https://93.184.215.14/hooks/${rng.int(1, 50)}`;
      // Mostly resources still in play: a cancelled order or a voided label can do little.
      const known = this.harvest.values(name, schema, (o) => !ended.has(String(o.status)) || rng.chance(0.2));
      return known.length > 0 && rng.chance(0.85) ? rng.pick(known) : undefined;
    };
    const links = this.harvest.links.map((l) => new URL(l, 'http://x')).filter((u) => matchRoute([route], u.pathname));
    if (links.length > 0 && rng.chance(0.9)) {
      const link = rng.pick(links);
      Object.assign(params, matchRoute([route], link.pathname)!.params);
      link.searchParams.forEach((v, k) => query.set(k, v));
    }
    // The last path parameter names the resource; those before it are its parents, as that resource says.
    const pathParams = route.parameters.filter((p) => p.in === 'path').reverse();
    let owner: Record<string, unknown> | undefined;
    for (const p of pathParams) {
      if (params[p.name] !== undefined) continue;
      const role = paramRole(route.template, p.name);
      const fromOwner = owner?.[`${role}_id`];
      const found = this.harvest.resources(role);
      if (typeof fromOwner === 'string') params[p.name] = fromOwner;
      else if (found.length > 0 && rng.chance(0.9)) {
        const f = rng.pick(found);
        owner = f.object;
        params[p.name] = String(f.object.id);
      } else params[p.name] = String(validValue(this.doc, p.schema, rng, () => undefined));
    }
    for (const p of route.parameters) {
      if (p.in === 'query' && !query.has(p.name) && (p.required || rng.chance(0.3))) query.set(p.name, String(validValue(this.doc, p.schema, rng, lookup, p.name)));
      if (p.in === 'header' && p.name === 'idempotency-key' && rng.chance(0.5)) headers.push('idempotency-key', rng.chance(0.8) ? `fuzz-${seed}-${i}` : rng.pick(this.idempotencyKeys));
    }
    const c: Case = { strategy: 'valid', route, method: route.method, path: fillPath(route.template, params) + (query.size ? `?${query}` : ''), headers };
    if (route.body) {
      c.body = JSON.stringify(validValue(this.doc, route.body, rng, lookup));
      c.headers.push('content-type', 'application/json');
    }
    return c;
  }

  private bodyValue(c: Case): unknown {
    if (typeof c.body !== 'string') return {};
    return JSON.parse(c.body);
  }

  private withBody(c: Case, strategy: string, body: string | Buffer): Case {
    const headers = c.headers.includes('content-type') ? c.headers : [...c.headers, 'content-type', 'application/json'];
    return { ...c, strategy, headers, body };
  }

  private mutateBody(c: Case, rng: Rng): Case {
    const value = this.bodyValue(c);
    const paths = pathsOf(value);
    const at = rng.pick(paths);
    const leafStrings = paths.filter((p) => typeof getAt(value, p) === 'string');
    const stringAt = leafStrings.length > 0 ? rng.pick(leafStrings) : ['extra'];
    const objects = paths.filter((p) => { const v = getAt(value, p); return v !== null && typeof v === 'object' && !Array.isArray(v); });
    const objectAt = objects.length > 0 ? rng.pick(objects) : [];
    const mutation = rng.weighted<[string, () => string]>([
      [3, ['wrong type', () => JSON.stringify(setAt(value, at, rng.pick(wrongTypes)))]],
      [2, ['missing field', () => JSON.stringify(at.length ? setAt(value, at, remove) : {})]],
      [2, ['extra field', () => JSON.stringify(setAt(value, [...objectAt, rng.pick(['extra', 'id', 'status', 'owner_key_id', 'mode', '', ' ', 'a'.repeat(300), rng.pick(nastyStrings)])], rng.pick(wrongTypes)))]],
      [2, ['huge string', () => JSON.stringify(setAt(value, stringAt, rng.pick(nastyStrings).padEnd(100_000, rng.pick(['x', '😀', '\u0301', ' ']))))]],
      [3, ['unicode', () => JSON.stringify(setAt(value, stringAt, rng.chance(0.5) ? rng.pick(nastyStrings) : `${getAt(value, stringAt) ?? ''}${rng.pick(nastyStrings)}`))]],
      [2, ['edge number', () => JSON.stringify(setAt(value, at, rng.pick(edgeNumbers)))]],
      [2, ['number text', () => rawText(setAt(value, at, marker), rng.pick(numberTexts))]],
      [1, ['null', () => JSON.stringify(setAt(value, at, null))]],
      [2, ['deep nesting', () => rawText(setAt(value, at, marker), rng.chance(0.5) ? deepArray(rng.pick([1_000, 10_000, 100_000])) : deepObject(rng.pick([1_000, 10_000])))]],
      [1, ['prototype', () => JSON.stringify(value).replace(/^\{/, rng.pick(['{"__proto__":{"admin":true},', '{"constructor":{"prototype":{"admin":true}},'])).replace(/,\}$/, '}')]],
      [1, ['duplicate key', () => { const k = Object.keys((value as object) ?? {})[0] ?? 'a'; return JSON.stringify(value).replace(/^\{/, `{${JSON.stringify(k)}:${JSON.stringify(rng.pick(wrongTypes))},`).replace(/,\}$/, '}'); }]],
      [1, ['not an object', () => rng.pick(['null', '[]', '"text"', '1', 'true', '[{}]', JSON.stringify([value])])]],
      [1, ['many fields', () => JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, n) => [`f${n}`, n])))]],
      [1, ['wide array', () => JSON.stringify(setAt(value, at, Array.from({ length: 50_000 }, (_, n) => n)))]],
    ]);
    return this.withBody(c, `body: ${mutation[0]}`, mutation[1]());
  }

  private rawBody(c: Case, rng: Rng): Case {
    const text = typeof c.body === 'string' ? c.body : '{}';
    const [name, body] = rng.weighted<[string, string | Buffer]>([
      [2, ['truncated', text.slice(0, rng.int(0, Math.max(0, text.length - 1)))]],
      [1, ['trailing garbage', text + rng.pick(['}', ']]', ',', ' x', '\u0000', '{}'])]],
      [1, ['single quotes', text.replace(/"/g, "'")]],
      [1, ['trailing comma', text.replace(/\}$/, ',}')]],
      [1, ['comment', `/* c */${text}`]],
      [1, ['BOM', `\ufeff${text}`]],
      [1, ['NaN', '{"a":NaN}']],
      [1, ['unquoted keys', text.replace(/"(\w+)":/g, '$1:')]],
      [1, ['invalid UTF-8', Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from(text.slice(-1))])]],
      [1, ['UTF-16', Buffer.from(text, 'utf16le')]],
      [2, ['empty', '']],
      [1, ['whitespace', ' \n\t ']],
      [2, ['over 1 MiB', JSON.stringify({ notes: 'x'.repeat(1_100_000) })]],
      [1, ['padded over 1 MiB', ' '.repeat(1_048_577) + text]],
      [1, ['just under 1 MiB', JSON.stringify({ notes: 'x'.repeat(1_040_000) })]],
      [1, ['form', 'a=1&b=2']],
    ]);
    return this.withBody(c, `raw body: ${name}`, body);
  }

  private mutateHeaders(c: Case, rng: Rng): Case {
    const without = (names: string[]) => {
      const out: string[] = [];
      for (let i = 0; i < c.headers.length; i += 2) if (!names.includes(c.headers[i]!)) out.push(c.headers[i]!, c.headers[i + 1]!);
      return out;
    };
    const key = this.key;
    const [name, headers] = rng.weighted<[string, () => string[]]>([
      [3, ['content-type', () => [...without(['content-type']), 'content-type', rng.pick(contentTypes)]]],
      [1, ['no content-type', () => without(['content-type'])]],
      [1, ['two content-types', () => [...without(['content-type']), 'content-type', 'application/json', 'content-type', rng.pick(contentTypes)]]],
      [1, ['no authorization', () => without(['authorization'])]],
      [3, ['broken authorization', () => [...without(['authorization']), 'authorization', rng.pick([
        'Bearer', 'Bearer ', `Bearer ${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`, `Bearer ${key.toUpperCase()}`, 'Basic dXNlcjpwYXNz', `Bearer ${key} extra`, `Token ${key}`,
        `bearer   ${key}   `, `Bearer svc_test_${'A'.repeat(32)}`, `Bearer svc_live_${'7'.repeat(32)}`, 'Bearer caf\u00e9', `Bearer ${'k'.repeat(8_000)}`, `Bearer ${key}${key}`, 'Bearer svc_test_', ' ',
      ])]]],
      [1, ['two authorizations', () => [...c.headers, 'authorization', rng.pick([`Bearer ${key}`, 'Bearer svc_test_other'])]]],
      [1, ['x-api-key', () => [...without(['authorization']), 'x-api-key', rng.pick([key, ` ${key} `, 'nope', '', key.slice(1)])]]],
      [1, ['x-api-key disagrees', () => [...c.headers, 'x-api-key', `svc_test_${'B'.repeat(32)}`]]],
      [1, ['two x-api-keys', () => [...without(['authorization']), 'x-api-key', key, 'x-api-key', key]]],
      [3, ['idempotency-key', () => [...without(['idempotency-key']), 'idempotency-key', rng.pick(['', ' ', 'a'.repeat(255), 'a'.repeat(256), 'a'.repeat(5_000), '"', '""', '"a', 'cl\u00e9', 'a\tb', rng.pick(this.idempotencyKeys)])]]],
      [1, ['two idempotency-keys', () => [...without(['idempotency-key']), 'idempotency-key', 'fuzz-1', 'idempotency-key', 'fuzz-2']]],
      [1, ['huge header', () => [...c.headers, 'x-filler', 'a'.repeat(rng.pick([8_000, 15_000, 20_000, 70_000]))]]],
      [1, ['many headers', () => [...c.headers, ...Array.from({ length: rng.pick([100, 500, 2_500]) }, (_, n) => [`x-h${n}`, 'v'.repeat(10)]).flat()]]],
      [1, ['request id', () => [...c.headers, 'x-request-id', rng.pick(['a'.repeat(300), 'caf\u00e9', '', ' ', 'req_ok', 'a b'])]]],
      [1, ['content-encoding', () => [...c.headers, 'content-encoding', rng.pick(['gzip', 'br', 'deflate', 'identity', 'bogus'])]]],
      [1, ['accept', () => [...c.headers, 'accept', rng.pick(['application/xml', 'text/html', '*/*;q=garbage', 'application/problem+json', ''])]]],
      [1, ['host', () => [...c.headers, 'host', rng.pick(['evil.example', '', 'a'.repeat(1_000), '127.0.0.1:1'])]]],
    ]);
    const mutated: Case = { ...c, strategy: `header: ${name}`, headers: headers() };
    if (name === 'content-type' && rng.chance(0.3)) mutated.chunked = true;
    return mutated;
  }

  private mutatePath(c: Case, rng: Rng): Case {
    const [path, query = ''] = c.path.split(/\?(.*)/s) as [string, string?];
    const suffix = query ? `?${query}` : '';
    const params = c.route.parameters.filter((p) => p.in === 'path');
    const badValue = () =>
      rng.pick([
        '', '%20', 'a'.repeat(101), 'a'.repeat(5_000), '%', '%zz', '%C0%80', '%00', '..', '%2e%2e%2f%2e%2e', '%F0%9F%98%80', 'ORD_01JF3K4M5N6P7Q8R9S0T1V2W3X', 'ord_' + '0'.repeat(26), 'whk_x',
        uriEncode(rng.pick(nastyStrings)), encodeURIComponent("'; DROP TABLE orders; --"), 'null', '-1', '1e999',
      ]);
    const [name, mutated] = rng.weighted<[string, () => string]>([
      [params.length ? 5 : 0, ['parameter', () => fillPath(c.route.template, Object.fromEntries(params.map((p) => [p.name, 'X']))).replace(/X/g, () => badValue())]],
      [1, ['trailing slash', () => `${path}/`]],
      [1, ['double slash', () => path.replace(/\//g, '//')]],
      [1, ['upper case', () => path.toUpperCase()]],
      [1, ['extension', () => `${path}${rng.pick(['.json', '.xml', ';a=b', '%20', '/..', '/.', '/extra'])}`]],
      [1, ['version', () => path.replace('/v1', rng.pick(['/v2', '/v0', '/V1', '']))]],
      [1, ['dot segments', () => path.replace(apiPath, `${apiPath}/x/..`)]],
    ]);
    return { ...c, strategy: `path: ${name}`, path: mutated() + suffix };
  }

  private mutateQuery(c: Case, rng: Rng): Case {
    const path = c.path.split('?')[0]!;
    const known = c.route.parameters.filter((p) => p.in === 'query');
    const current = c.path.includes('?') ? c.path.slice(c.path.indexOf('?') + 1) : '';
    const pickName = () => (known.length > 0 && rng.chance(0.7) ? rng.pick(known).name : rng.pick(['unknown', 'limit', 'cursor', 'token', '__proto__', 'a[b][c]', 'status[]']));
    const [name, query] = rng.weighted<[string, () => string]>([
      [3, ['bad value', () => `${pickName()}=${uriEncode(rng.pick([...badLimits, ...badDates, ...nastyStrings]))}`]],
      [1, ['limit', () => `limit=${encodeURIComponent(rng.pick(badLimits))}`]],
      [1, ['cursor', () => `cursor=${encodeURIComponent(rng.pick(['x', 'a'.repeat(10_000), Buffer.from('{"id":"ord_x","t":"\u0000"}').toString('base64url'), Buffer.from(rng.pick(nastyStrings)).toString('base64'), '%00']))}`]],
      [1, ['dates', () => `created_after=${encodeURIComponent(rng.pick(badDates))}&created_before=${encodeURIComponent(rng.pick(badDates))}`]],
      [1, ['duplicated', () => `${current}&${current || 'limit=1'}&limit=2`]],
      [1, ['unknown', () => `${current}&unknown=1`]],
      [1, ['nesting', () => rng.pick(['a[b][c]=1', 'status[]=x&status[]=y', 'limit[]=1', 'limit[a]=1', '__proto__[x]=1', 'constructor[prototype][x]=1'])]],
      [1, ['broken encoding', () => rng.pick(['%', '%E0%A4%A', 'a=%zz', '&&&', '=', ';', '=&=', 'limit=%00', '+++=+++'])]],
      [1, ['many', () => Array.from({ length: rng.pick([100, 1_000]) }, (_, n) => `p${n}=${n}`).join('&')]],
    ]);
    return { ...c, strategy: `query: ${name}`, path: `${path}?${query()}` };
  }

  private otherMethod(c: Case, rng: Rng): Case {
    const declared = new Set(this.routes.filter((r) => r.template === c.route.template).map((r) => r.method));
    const others = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'].filter((m) => !declared.has(m));
    return { ...c, strategy: 'method', method: rng.pick(others) };
  }

  /** What only a hand-written request can carry: broken framing, illegal bytes, conflicting lengths. */
  private wire(c: Case, rng: Rng): Case {
    const body = typeof c.body === 'string' ? c.body : '{}';
    const auth = `Authorization: Bearer ${this.key}\r\n`;
    const json = 'Content-Type: application/json\r\n';
    const head = (method = c.method, path = c.path, version = 'HTTP/1.1') => `${method} ${path} ${version}\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
    const withLength = (extra = '') => `${head()}${auth}${json}${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const [name, bytes] = rng.weighted<[string, () => string | Buffer]>([
      [1, ['header without colon', () => withLength('X-Broken\r\n')]],
      [1, ['space before colon', () => withLength('X-Broken : 1\r\n')]],
      [1, ['folded header', () => withLength('X-Folded: a\r\n  b\r\n')]],
      [1, ['NUL in header', () => withLength('X-Nul: a\u0000b\r\n')]],
      [1, ['bad header name', () => withLength('X(bad): 1\r\n')]],
      [1, ['UTF-8 in header', () => Buffer.from(withLength('X-Utf: caf\u00e9 \u{1F600}\r\n'), 'utf8')]],
      [1, ['bare LF', () => withLength().replace(/\r\n/g, '\n')]],
      [1, ['two lengths', () => `${head()}${auth}${json}Content-Length: 2\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`]],
      [1, ['length and chunked', () => `${head()}${auth}${json}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`]],
      [1, ['bad chunk size', () => `${head()}${auth}${json}Transfer-Encoding: chunked\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`]],
      [1, ['negative length', () => `${head()}${auth}${json}Content-Length: -1\r\n\r\n`]],
      [1, ['short length', () => `${head()}${auth}${json}Content-Length: 1\r\n\r\n${body}`]],
      [1, ['lower-case method', () => `${head(c.method.toLowerCase())}${auth}\r\n`]],
      [1, ['unknown method', () => `${head('FOO')}${auth}\r\n`]],
      [1, ['HTTP/2.0 line', () => `${head(c.method, c.path, 'HTTP/2.0')}${auth}\r\n`]],
      [1, ['HTTP/1.0', () => `${c.method} ${c.path} HTTP/1.0\r\n${auth}\r\n`]],
      [1, ['raw UTF-8 path', () => Buffer.from(`${head(c.method, `${c.path.split('?')[0]}/caf\u00e9\u{1F600}`)}${auth}\r\n`, 'utf8')]],
      [1, ['space in path', () => `${head(c.method, `${c.path} x`)}${auth}\r\n`]],
      [1, ['absolute URL', () => `${head(c.method, `http://evil.example${c.path}`)}${auth}\r\n`]],
      [1, ['huge header', () => `${head()}${auth}X-Big: ${'a'.repeat(40_000)}\r\n\r\n`]],
      [1, ['expect continue', () => withLength('Expect: 100-continue\r\n')]],
      [1, ['expect other', () => withLength('Expect: 200-ok\r\n')]],
    ]);
    const raw = bytes();
    return { ...c, strategy: `wire: ${name}`, wire: typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw };
  }
}

/** Sends bytes on a fresh connection and reads the first response, up to the end of its body. */
function sendWire(url: string, bytes: Buffer): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolvePromise, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 10 s'));
    }, 10_000);
    const parse = (): Answer | undefined => {
      let data = Buffer.concat(chunks);
      // A 100 Continue comes before the answer.
      while (/^HTTP\/1\.1 100 /.test(data.toString('latin1', 0, 13))) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return undefined;
        data = data.subarray(end + 4);
      }
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const head = data.toString('latin1', 0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      const bodyBytes = data.subarray(end + 4);
      if (Number.isFinite(length) && bodyBytes.length < length) return undefined;
      return {
        status: Number(head.split(' ')[1]),
        contentType: /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '',
        text: bodyBytes.subarray(0, Number.isFinite(length) ? length : undefined).toString('utf8'),
      };
    };
    let done = false;
    const finish = (answer: Answer | undefined, error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (answer) resolvePromise(answer);
      else reject(error ?? new Error(`connection closed without an answer (${Buffer.concat(chunks).length} bytes)`));
    };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      const answer = parse();
      if (answer) finish(answer);
    });
    socket.on('end', () => finish(parse()));
    socket.on('error', (e) => finish(parse(), e));
    socket.write(bytes);
  });
}

async function send(pool: Pool, url: string, c: Case): Promise<Answer> {
  if (c.wire) return sendWire(url, c.wire);
  const body = c.body === undefined ? undefined : c.chunked ? Readable.from([Buffer.from(c.body)]) : c.body;
  const res = await pool.request({ method: c.method as 'GET', path: c.path, headers: c.headers, body, signal: AbortSignal.timeout(30_000) });
  const text = await res.body.text();
  const type = res.headers['content-type'];
  return { status: res.statusCode, contentType: Array.isArray(type) ? type.join(', ') : (type ?? ''), text };
}

/** Why an answer breaks the rules, or undefined when it keeps them. */
function fault(c: Case, a: Answer): string | undefined {
  if (a.status >= 500) return `a ${a.status}`;
  if (a.status < 200 || (a.status >= 300 && a.status < 400)) return `an unexpected ${a.status}`;
  if (a.status < 400) return undefined;
  if (!a.contentType.startsWith('application/problem+json')) return `a ${a.status} of type "${a.contentType}", not a problem`;
  if (c.method === 'HEAD') return undefined;
  let problem: Json;
  try {
    problem = JSON.parse(a.text);
  } catch {
    return `a ${a.status} whose body is not JSON`;
  }
  for (const field of ['type', 'title', 'code', 'request_id']) if (typeof problem?.[field] !== 'string' || !problem[field]) return `a problem without ${field}`;
  if (problem.status !== a.status) return `a problem whose status ${problem.status} is not the HTTP ${a.status}`;
  return undefined;
}

const describeCase = (i: number, c: Case) =>
  `#${i} [${c.strategy}] ${c.method} ${c.path.slice(0, 300)}${c.path.length > 300 ? '…' : ''} headers ${JSON.stringify(c.headers.map((h) => (h.length > 100 ? `${h.slice(0, 100)}…(${h.length})` : h)))}` +
  (c.wire ? ` wire ${JSON.stringify(c.wire.toString('latin1').slice(0, 400))}` : c.body !== undefined ? ` body ${JSON.stringify(c.body.toString().slice(0, 300))}${c.body.length > 300 ? `…(${c.body.length} bytes)` : ''}` : '');

let db: TestDatabase;
let server: Served;

before(async () => {
  db = await createTestDatabase();
  server = await serve(db);
});
after(async () => {
  server?.inspector.close();
  await server?.stop();
  await db?.drop();
});

test('20,000 generated requests, valid and hostile, to every route of the OpenAPI document', async (t) => {
  t.diagnostic(`seed ${seed} (FUZZ_SEED=${seed} replays this run)`);
  const started = Date.now();
  const docAnswer = await fetch(`${server.url}/openapi.json`);
  assert.equal(docAnswer.status, 200);
  const doc = (await docAnswer.json()) as ApiDocument;
  const routes = routesOf(doc);
  assert.ok(routes.length >= 20, `the document lists ${routes.length} routes`);
  for (const r of routes) if (r.body) assert.ok(resolve(doc, r.body).type, `${r.operationId}: its body schema resolves`);

  const fuzzer = new Fuzzer(doc, routes, server.key);
  const pool = new Pool(server.url, { connections: concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const statuses = new Map<number, number>();
  const validSent = new Map<string, number>();
  const validOk = new Map<string, number>();
  const faults: string[] = [];
  const clientErrors: string[] = [];
  let next = 0;
  let slowest = { ms: 0, what: '' };

  const runUntil = async (end: number) => {
    const worker = async () => {
      while (next < end) {
        const i = next++;
        const c = fuzzer.make(i);
        let answer: Answer;
        const sentAt = Date.now();
        try {
          answer = await send(pool, server.url, c);
          const ms = Date.now() - sentAt;
          if (ms > slowest.ms) slowest = { ms, what: describeCase(i, c).slice(0, 300) };
        } catch (error) {
          // The server may close a connection on a body it will not read; anything else is a request it dropped.
          const tolerated = c.wire !== undefined || (c.body !== undefined && c.body.length > 1_048_576);
          if (!tolerated) clientErrors.push(`${describeCase(i, c)}: ${(error as Error).message}`);
          continue;
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const why = fault(c, answer);
        if (why && faults.length < 200) faults.push(`${describeCase(i, c)}\n    answered ${why}: ${answer.text.slice(0, 400)}`);
        if (c.strategy === 'valid') {
          validSent.set(c.route.operationId, (validSent.get(c.route.operationId) ?? 0) + 1);
          if (answer.status < 300) validOk.set(c.route.operationId, (validOk.get(c.route.operationId) ?? 0) + 1);
        }
        if (answer.status < 300 && c.method !== 'HEAD' && answer.contentType.startsWith('application/json')) fuzzer.harvest.collect(JSON.parse(answer.text));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };

  for (const answer of await walkLabelPaths(server.url, server.key)) fuzzer.harvest.collect(answer);
  const weigh = async () => ({ heap: await server.inspector.heapAfterGcMb(), rss: await rssMb(server.child.pid!) });
  await runUntil(warmUp);
  const warm = await weigh();
  await runUntil(warmUp + (total - warmUp) / 2);
  const half = await weigh();
  await runUntil(total);
  const end = await weigh();
  await pool.close();
  const seconds = (Date.now() - started) / 1000;

  const mix = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
  const validTotal = [...validSent.values()].reduce((a, b) => a + b, 0);
  const validOkTotal = [...validOk.values()].reduce((a, b) => a + b, 0);
  t.diagnostic(`${next} requests in ${seconds.toFixed(0)} s over ${routes.length} routes; statuses ${mix}`);
  t.diagnostic(`valid requests: ${validOkTotal} of ${validTotal} succeeded; routes never succeeding: ${routes.filter((r) => !validOk.has(r.operationId)).map((r) => r.operationId).join(', ') || 'none'}`);
  const mb = (n: number) => n.toFixed(n < 100 ? 1 : 0);
  t.diagnostic(`heap after a full collection: after warm-up ${mb(warm.heap)} MB, half-way ${mb(half.heap)} MB, end ${mb(end.heap)} MB`);
  t.diagnostic(`RSS after warm-up ${mb(warm.rss)} MB, half-way ${mb(half.rss)} MB, end ${mb(end.rss)} MB`);
  t.diagnostic(`slowest answer ${slowest.ms} ms: ${slowest.what}`);

  const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
  assert.equal(next, total);
  assert.deepEqual(faults.slice(0, 10), [], `answers broke the rules (seed ${seed}); ${faults.length} found`);
  assert.deepEqual(clientErrors.slice(0, 10), [], `requests went unanswered (seed ${seed})`);
  assert.ok(answered >= total * 0.97, `only ${answered} of ${total} requests were answered`);
  assert.deepEqual(server.errors.slice(0, 5), [], 'the server logged errors');
  for (const r of routes) assert.ok((validSent.get(r.operationId) ?? 0) > 0, `${r.operationId} was sent no valid request`);
  assert.ok(validOkTotal >= validTotal * 0.3, `only ${validOkTotal} of ${validTotal} valid requests succeeded: the fuzzer is bouncing off validation`);
  // Some routes succeed only at the end of a chain (an order, its rates, a label, then a void or a return) that
  // random requests seldom complete; most must.
  const succeeding = routes.filter((r) => validOk.has(r.operationId)).length;
  assert.ok(succeeding >= routes.length * 0.6, `only ${succeeding} of ${routes.length} routes ever succeeded`);
  assert.equal(server.child.exitCode, null, 'the server is still running');
  assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  assert.ok(end.heap - half.heap < maxHeapGrowthMb, `the live heap grew ${mb(end.heap - half.heap)} MB over the second half (${mb(half.heap)} → ${mb(end.heap)} MB)`);
  assert.ok(end.rss - half.rss < maxRssGrowthMb, `RSS grew ${mb(end.rss - half.rss)} MB over the second half (${mb(half.rss)} → ${mb(end.rss)} MB)`);
});

/**
 * POST /carrier-events/{carrier} is the carriers' to call and is left out of the OpenAPI document, so the test above
 * never reaches it: here it gets generated posts of its own, forged and garbled (wrong or missing credentials and
 * signatures, bodies of every shape, the right UPS credential over bodies that are not Track Alert messages). None
 * may be taken (a 2xx), none may fail the server (a 5xx or an error logged).
 */
test('1,000 generated posts to the carrier push endpoints: refused as the carriers authenticate, never a 5xx', async () => {
  const rng = new Rng(seed ^ 0x5eed);
  const junk = () => Array.from({ length: rng.int(0, 40) }, () => String.fromCharCode(rng.int(32, 126))).join('');
  const bodies: (() => string)[] = [
    () => '{}',
    () => junk(),
    () => JSON.stringify({ trackingNumber: `1Z${junk()}`, activityStatus: { type: junk(), descriptionCode: junk() }, gmtActivityDate: junk() }),
    () => JSON.stringify({ subscriptionId: junk(), subscriptionType: junk(), timestamp: new Date().toISOString(), payload: rng.chance(0.5) ? junk() : JSON.stringify({ trackingNumber: junk(), trackingEvents: [{ eventTimestamp: junk() }] }) }),
    () => JSON.stringify({ output: { completeTrackResults: [{ trackingNumber: junk(), trackResults: [{ scanEvents: [{ date: junk(), eventType: junk() }] }] }] } }),
    () => JSON.stringify([junk(), rng.int(0, 1e9), null]),
    () => `{"trackingNumber": ${'['.repeat(rng.int(1, 2000))}`,
  ];
  const statuses = new Map<number, number>();
  const faults: string[] = [];
  let i = 0;
  const worker = async () => {
    while (i < 1000) {
      i++;
      const carrier = rng.pick(['ups', 'usps', 'fedex', 'dhl', 'UPS', '']);
      const headers: Record<string, string> = { 'content-type': rng.pick(['application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded']) };
      if (rng.chance(0.5)) headers.credential = rng.chance(0.3) ? fuzzUpsCredential : junk();
      if (rng.chance(0.3)) headers['x-hmac'] = Buffer.from(junk()).toString('base64');
      if (rng.chance(0.3)) headers['fdx-signature'] = Buffer.from(junk()).toString('base64');
      const body = rng.pick(bodies)();
      const res = await fetch(`${server.url}${apiPath}/carrier-events/${carrier}`, { method: 'POST', headers, body });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const allowed = [400, 401, 404, 413, 415].includes(res.status);
      if (!allowed && faults.length < 20) faults.push(`${carrier} ${JSON.stringify(headers)} ${body.slice(0, 200)} → ${res.status} ${text.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  assert.deepEqual(faults, []);
  assert.ok((statuses.get(401) ?? 0) > 150, `401s: ${JSON.stringify([...statuses])}`);
  assert.deepEqual(server.errors.slice(0, 5), [], 'the server logged errors');
});
