import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { createTestDatabase, databaseUnderTest, runCli, type TestDatabase } from '../harness.ts';
import { orderBody } from '../fixtures.ts';
import { startReceiver, verify, type Receiver } from '../webhook-receiver.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import type { DB } from '../../src/db/schema.ts';
import { boxShares, storedBoxes } from '../../src/domain/shipments/shipments.ts';
import { subscribableEventTypes } from '../../src/schemas/webhook.ts';

export { inParallel } from '../harness.ts';

// Several real shipd processes (`shipd serve` and `shipd worker`) on one database, as an operator would run them,
// and a client that spreads its requests over the API processes the way a load balancer would.

/** Why these tests cannot run here, or false when they can: only PostgreSQL is shared by processes on several hosts. */
export const postgresOnly =
  databaseUnderTest === 'postgres' ? false : 'several shipd processes sharing one database is a PostgreSQL set-up: set TEST_DATABASE_URL to run this';

const v1 = '/api/integrations/v1';
const bin = join(import.meta.dirname, '..', '..', 'bin', 'shipd.js');
const ready = { serve: /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/, worker: /"msg":"shipd worker is running"/ };
/** What a process printed last, for the failure message when it dies or never starts. */
const outputKept = 32 * 1024;

export type Role = keyof typeof ready;

/** One shipd child process, which can be killed without warning and started again on the same port. */
export class ShipdProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private port = 0;
  private output = '';
  /** How many times it was killed. */
  kills = 0;

  constructor(
    readonly name: string,
    readonly role: Role,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The end of what it printed. */
  tail(): string {
    return this.output.slice(-4096);
  }

  /** Starts it and waits until it says it is ready; the first start picks a free port, later ones reuse it. */
  start(): Promise<void> {
    const child = spawn(process.execPath, [bin, this.role], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SHIPD_SIM_FIRST_SCAN_MINUTES: '1', ...this.env, HOST: '127.0.0.1', PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        if (this.child === child) this.child = undefined;
        resolve();
      }),
    );
    return new Promise((resolve, reject) => {
      let up = false;
      // This start's own output: the ready line of an earlier start must not count.
      let fresh = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${this.name} was not ready within 60 s: ${this.tail()}`));
      }, 60_000);
      const read = (chunk: Buffer) => {
        this.output = (this.output + chunk.toString()).slice(-outputKept);
        if (up) return;
        fresh += chunk.toString();
        const match = ready[this.role].exec(fresh);
        if (!match) return;
        up = true;
        clearTimeout(timer);
        if (match[1]) this.port = Number(match[1]);
        resolve();
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (!up) reject(new Error(`${this.name} exited (${code ?? signal}) before it was ready: ${this.tail()}`));
      });
    });
  }

  /** SIGKILL: no shutdown, no flush, exactly as a crash or an OOM kill. */
  async kill(): Promise<void> {
    if (!this.child) return;
    this.kills++;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM, and SIGKILL if it has not finished shutting down in 10 s. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface ClusterOptions {
  apis: number;
  workers: number;
  /** Accounts to make with the shipd CLI, each with the test card on file and a test key (in `keys`). */
  accounts?: string[];
  /** Settings for every process, over the cluster's own. */
  env?: Record<string, string>;
  /** Another database than a fresh one on TEST_DATABASE_URL; the cluster drops it when it stops. */
  database?: TestDatabase;
}

export class Cluster {
  private turn = 0;
  private database: Database | undefined;
  /** Each account's test key, by account name. */
  readonly keys = new Map<string, string>();

  constructor(
    readonly env: Record<string, string>,
    readonly apis: ShipdProcess[],
    readonly workers: ShipdProcess[],
    private readonly testDb: TestDatabase,
  ) {}

  /** The API processes in turn, as a round-robin load balancer hands out requests. */
  nextApi(): ShipdProcess {
    return this.apis[this.turn++ % this.apis.length]!;
  }

  /** What each process printed last, for the report of a failure. */
  tails(): string {
    return [...this.apis, ...this.workers].map((p) => `--- ${p.name}\n${p.tail()}`).join('\n');
  }

  /** A connection of the test's own, for the invariants the API does not show (the postage ledger). */
  db(): Kysely<DB> {
    this.database ??= openDatabase(loadConfig(this.env));
    return this.database.db;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.apis, ...this.workers].map((p) => p.stop()));
    await this.database?.close();
    await this.testDb.drop();
  }
}

/**
 * Starts the processes together on one database. Every process gets the same SHIPD_SECRET, as docs/production.md asks
 * of instances that share a database, so a label URL signed by one is honoured by all.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const testDb = options.database ?? (await createTestDatabase());
  const env = {
    ...testDb.env,
    SHIPD_SECRET: randomBytes(32).toString('base64url'),
    SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true',
    // The listening line, which tells the port, is logged at info.
    SHIPD_LOG_LEVEL: 'info',
    // The load is one client's: the per-key rate limit is not what these tests are about.
    SHIPD_RATE_LIMIT_PER_SECOND: '1000000',
    SHIPD_RATE_LIMIT_BURST: '1000000',
    // Every flow downloads its label from 127.0.0.1 without a key, as fast as the cluster sells them.
    SHIPD_ADDRESS_RATE_LIMIT_PER_SECOND: '1000000',
    SHIPD_ADDRESS_RATE_LIMIT_BURST: '1000000',
    // Tracking in real time: within a test a label's one scan is "label created", so a flow's events are known exactly.
    SHIPD_SIM_TRACKING_SPEED: '1',
    ...options.env,
  };
  const apis = Array.from({ length: options.apis }, (_, i) => new ShipdProcess(`api-${i}`, 'serve', env));
  const workers = Array.from({ length: options.workers }, (_, i) => new ShipdProcess(`worker-${i}`, 'worker', env));
  const cluster = new Cluster(env, apis, workers, testDb);
  const cli = async (args: string[]) => {
    const r = await runCli(args, env);
    if (r.code !== 0) throw new Error(`shipd ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const account = async (name: string) => {
    await cli(['accounts', 'create', '--name', name]);
    await cli(['billing', 'set', '--account', name, '--mode', 'test', '--payment-method', 'pm_test_visa']);
    cluster.keys.set(name, await cli(['keys', 'create', '--account', name, '--mode', 'test']));
  };
  try {
    // All at once, as a deployment would: the migrations' lock lets one of them migrate while the others wait.
    await Promise.all([...[...apis, ...workers].map((p) => p.start()), ...(options.accounts ?? []).map(account)]);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back
export type Json = Record<string, any>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: Json;
  ms: number;
}

/** A request as the client saw it, answered or not. */
export interface Exchange {
  method: string;
  path: string;
  /** Date.now() when it was sent. */
  startedAt: number;
  ms: number;
  status: number | 'no answer';
  contentType: string | null;
  code: string | undefined;
}

export interface CallOptions {
  body?: unknown;
  idempotencyKey?: string;
  /** A given process instead of the next in turn. */
  to?: ShipdProcess;
}

/** Paths from the root; every other path is below the API base. */
const rootPath = /^\/(api\/|healthz|readyz)/;

/** Whether an answer means "not now": worth the same request again shortly. */
const comeBackLater = (a: Answer) => a.status === 503 || a.status === 504 || (a.status === 409 && a.body.code === 'idempotency_key_in_use');

/** One API key's client of the cluster. */
export class Client {
  /** Requests sent again after a lost connection or a come-back-later answer. */
  retries = 0;
  /** When set, every request sent is written down here. */
  exchanges: Exchange[] | undefined;

  /** @param patienceMs how long `call` keeps retrying one request; 0 never retries. */
  constructor(
    private readonly cluster: Cluster,
    readonly key: string,
    private readonly patienceMs = 0,
  ) {}

  /** One request, to the next API process in turn. Throws when the connection fails. */
  async send(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const target = options.to ?? this.cluster.nextApi();
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const startedAt = Date.now();
    const started = performance.now();
    const note = (status: Exchange['status'], contentType: string | null = null, code?: string) =>
      this.exchanges?.push({ method, path, startedAt, ms: performance.now() - started, status, contentType, code });
    let res: Response;
    let text: string;
    try {
      res = await fetch(target.url + (rootPath.test(path) ? path : v1 + path), {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        // Nothing in these tests may hang: a request that would is a failure, not a wait.
        signal: AbortSignal.timeout(30_000),
      });
      text = await res.text();
    } catch (err) {
      note('no answer');
      throw err;
    }
    let body: Json = {};
    if (res.headers.get('content-type')?.includes('json')) body = JSON.parse(text) as Json;
    note(res.status, res.headers.get('content-type'), body.code as string | undefined);
    return { status: res.status, headers: res.headers, text, body, ms: performance.now() - started };
  }

  /**
   * A request as a careful client makes it: after a lost connection or a come-back-later answer it sends the very
   * same request again (same Idempotency-Key) to the next process, for up to the client's patience.
   */
  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const deadline = Date.now() + this.patienceMs;
    for (let attempt = 1; ; attempt++) {
      let answer: Answer | undefined;
      let failure: unknown;
      try {
        answer = await this.send(method, path, options);
      } catch (err) {
        failure = err;
      }
      if (answer && !comeBackLater(answer)) return answer;
      if (Date.now() >= deadline) {
        if (answer) return answer;
        throw new Error(`${method} ${path} failed after ${attempt} attempts`, { cause: failure });
      }
      this.retries++;
      await new Promise((r) => setTimeout(r, Math.min(1_000, 100 * attempt)));
    }
  }

  /** The answer, if it has the wanted status; else an error naming the request and what came back. */
  async expect(status: number, method: string, path: string, options: CallOptions = {}): Promise<Json> {
    const a = await this.call(method, path, options);
    if (a.status !== status) throw new Error(`${method} ${path} answered ${a.status}, not ${status}: ${a.text}`);
    return a.body;
  }

  /** Every item of a list, page by page. */
  async all(path: string): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = await this.expect(200, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      items.push(...(page.data as Json[]));
      cursor = page.next_cursor as string | null;
    } while (cursor);
    return items;
  }
}

/** A key of its own account, with a webhook for every event type on a receiver of its own. */
export interface Tenant {
  name: string;
  client: Client;
  receiver: Receiver;
  secret: string;
}

/** Registers the webhook of an account the cluster made. */
async function tenant(cluster: Cluster, name: string, patienceMs: number): Promise<Tenant> {
  const key = cluster.keys.get(name);
  if (!key) throw new Error(`the cluster made no account ${name}`);
  const client = new Client(cluster, key, patienceMs);
  const receiver = await startReceiver(`/hooks/${name}`);
  try {
    const hook = await client.expect(201, 'POST', '/webhooks', { body: { url: receiver.url, events: subscribableEventTypes(new Set()) /* the cluster enables no ops helpers */ }, idempotencyKey: `${name}-webhook` });
    return { name, client, receiver, secret: hook.secret as string };
  } catch (err) {
    await receiver.close();
    throw err;
  }
}

/**
 * Starts a cluster, registers a webhook for each of its accounts, and runs `body`; whatever happens, then closes the
 * receivers and stops the cluster, having printed what the processes printed last if `body` failed.
 */
export async function withCluster(
  options: ClusterOptions & { /** How long the tenants' clients retry a request. */ patienceMs?: number },
  body: (cluster: Cluster, tenants: Tenant[]) => Promise<void>,
): Promise<void> {
  const cluster = await startCluster(options);
  const tenants: Tenant[] = [];
  try {
    for (const name of options.accounts ?? []) tenants.push(await tenant(cluster, name, options.patienceMs ?? 0));
    await body(cluster, tenants);
  } catch (err) {
    console.error(cluster.tails());
    throw err;
  } finally {
    await Promise.all(tenants.map((tn) => tn.receiver.close()));
    await cluster.stop();
  }
}

export interface Flow {
  orderId: string;
  /** The purchase as the client was answered. */
  shipment: Json;
}

/** Carriers in turn, so all three adapters and label renderers take part. */
const carriers = ['ups', 'usps', 'fedex'];

/**
 * The order push flow: create the order, shop its rates, buy one with an Idempotency-Key, then fetch its label_url
 * from every API process (a label bought through one must print through any).
 */
export async function orderPush(cluster: Cluster, client: Client, run: string, n: number): Promise<Flow> {
  const order = await client.expect(201, 'POST', '/orders', { body: orderBody({ order_number: `${run}-${n}` }), idempotencyKey: `${run}-order-${n}` });
  const shop = await client.expect(200, 'POST', '/rates', { body: { order_id: order.id } });
  const rates = shop.rates as Json[];
  const rate = rates.find((r) => r.carrier === carriers[n % carriers.length]) ?? rates[0];
  if (!rate) throw new Error(`no rate for ${order.id}: ${JSON.stringify(shop)}`);
  const shipment = await client.expect(201, 'POST', '/shipments', { body: { order_id: order.id, rate_id: rate.id }, idempotencyKey: `${run}-label-${n}` });
  const label = new URL(shipment.label_url as string);
  for (const api of cluster.apis) {
    const a = await client.call('GET', label.pathname + label.search, { to: api });
    if (a.status !== 200 || !a.text.startsWith('%PDF-')) throw new Error(`${api.name} served ${shipment.id}'s label with ${a.status}: ${a.text.slice(0, 200)}`);
  }
  return { orderId: order.id as string, shipment };
}

/** Reads until the value is as wanted, for up to `timeoutMs`; returns the last read either way. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
}

/**
 * Waits until the key's event log holds `expected` events (workers add some after the flows end: each label's first
 * tracking.updated) and every one of them reached the key's receiver; returns the log.
 */
export async function settledEvents(t: Tenant, expected: number, timeoutMs: number): Promise<Json[]> {
  const events = await until(() => t.client.all('/events'), (list) => list.length >= expected, timeoutMs);
  const ids = events.map((e) => e.id as string);
  await t.receiver.waitFor((received) => {
    const got = new Set(received.map((r) => String(r.headers['webhook-id'])));
    return ids.every((id) => got.has(id));
  }, timeoutMs);
  return events;
}

/** The types of the events about each order, sorted: a flow leaves exactly one of each. */
export function eventTypesByOrder(events: Json[]): Map<string, string[]> {
  const byOrder = new Map<string, string[]>();
  for (const e of events) {
    const orderId = (e.type as string).startsWith('order.') ? e.data.id : e.data.order_id;
    byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), e.type as string].sort());
  }
  return byOrder;
}

/** What one order push flow leaves in the event log: the order, its label, the order shipped, the label's first scan. */
export const flowEventTypes = ['order.created', 'order.updated', 'shipment.created', 'tracking.updated'];

/**
 * Waits until the key's log holds its flows' events and every one reached the key's receiver, then checks that each
 * flow's events were written once and that the receiver got nothing but the key's own events (every signature
 * checked with the key's secret), `lateMs` later for anything sent twice to show up. Returns how often each arrived.
 */
export async function checkFlowEvents(t: Tenant, flows: Flow[], timeoutMs: number, lateMs = 0): Promise<Map<string, number>> {
  const events = await settledEvents(t, flows.length * flowEventTypes.length, timeoutMs);
  const byOrder = eventTypesByOrder(events);
  assert.equal(byOrder.size, flows.length, `${t.name}'s events are about its own orders`);
  for (const f of flows) assert.deepEqual(byOrder.get(f.orderId), flowEventTypes, `${f.orderId}: each of its events written once`);
  await new Promise((r) => setTimeout(r, lateMs));
  const own = new Set(events.map((e) => e.id as string));
  const counts = new Map<string, number>();
  for (const r of t.receiver.received) {
    verify(t.secret, r);
    const id = String(r.headers['webhook-id']);
    assert.ok(own.has(id), `${t.name}'s receiver got ${id}, not an event of ${t.name}'s`);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Orders with more than one label bought or being bought: must be none. */
export async function ordersWithTwoLabels(db: Kysely<DB>): Promise<string[]> {
  const rows = await db
    .selectFrom('shipments')
    .select('order_id')
    .where('is_return', '=', 0)
    .where('status', 'in', ['pending', 'purchased', 'void_pending'])
    .groupBy('order_id')
    .having(sql`count(*)`, '>', 1)
    .execute();
  return rows.map((r) => r.order_id);
}

/**
 * Where the postage ledger and the labels disagree: each purchased platform label charged exactly its postage,
 * once, less a refund of its share for each box voided on its own, and nothing charged for a label not bought. Empty
 * when every account's ledger balances.
 */
export async function ledgerMismatches(db: Kysely<DB>): Promise<string[]> {
  const labels = await db.selectFrom('shipments').select(['id', 'account_id', 'status', 'payment', 'postage_cents', 'quoted_cents', 'packages', 'tracking_number', 'carrier_shipment_id', 'tracking_status']).execute();
  const ledger = await db.selectFrom('postage_ledger').select(['shipment_id', 'account_id', 'kind', 'amount_cents']).execute();
  const charged = new Map<string, { account: string; cents: number; count: number }>();
  for (const l of ledger) {
    const c = charged.get(l.shipment_id) ?? { account: l.account_id, cents: 0, count: 0 };
    c.cents += l.amount_cents;
    c.count++;
    charged.set(l.shipment_id, c);
  }
  const problems: string[] = [];
  for (const s of labels) {
    const boxes = s.tracking_number === null ? [] : storedBoxes(s);
    const shares = boxes.length === 0 ? [] : boxShares(s, boxes);
    const voidedAlone = boxes.flatMap((b, i) => (b.status === undefined ? [] : [shares[i]!]));
    const owed = s.status === 'purchased' && s.payment === 'platform' ? (s.postage_cents ?? 0) - voidedAlone.reduce((sum, c) => sum + c, 0) : 0;
    const c = charged.get(s.id);
    charged.delete(s.id);
    if ((c?.cents ?? 0) !== owed) problems.push(`${s.id} (${s.status}) owes ${owed} cents, the ledger holds ${c?.cents ?? 0}`);
    else if (c && (c.account !== s.account_id || c.count !== 1 + voidedAlone.length)) problems.push(`${s.id} has ${c.count} ledger entries, charged to ${c.account}`);
  }
  for (const [id] of charged) problems.push(`the ledger charges ${id}, which is no label`);
  return problems;
}
