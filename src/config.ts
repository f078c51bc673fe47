import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { makePrivateDir } from './kernel/private-files.ts';
import { mailerIdProblem, type MailerIdKind } from './carriers/usps/mailer-ids.ts';

export const carrierIds = ['ups', 'usps', 'fedex'] as const;
export type CarrierId = (typeof carrierIds)[number];
export const featureNames = ['batches', 'manifests', 'pickups'] as const;
export type Feature = (typeof featureNames)[number];
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface CarrierCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
  accountNumber: string | undefined;
  baseUrl: string;
  /** USPS only (USPS_CRID, USPS_MID, USPS_MANIFEST_MID): the mailer its payment authorization names. */
  crid?: string;
  mid?: string;
  manifestMid?: string;
}

/** At most `calls` calls in any `perMs` milliseconds. */
export interface RateWindow {
  calls: number;
  perMs: number;
}

export interface Config {
  port: number;
  host: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  dataDir: string;
  publicUrl: string;
  secret: string;
  features: ReadonlySet<Feature>;
  webhooksAllowInsecure: boolean;
  /** The ports webhook URLs may use (SHIPD_WEBHOOKS_PORTS); any port while insecure URLs are allowed. */
  webhookPorts: ReadonlySet<number>;
  logLevel: (typeof logLevels)[number];
  rateLimit: { perSecond: number; burst: number };
  /** Requests not made with a valid API key (401s, label files, the dashboard, /metrics), per client address. */
  addressRateLimit: { perSecond: number; burst: number };
  /** Dashboard sign-in attempts per client address: this many at once, and as many again each minute. */
  signInAttemptsPerMinute: number;
  /**
   * The proxies whose X-Forwarded-For names the client (addresses, CIDR ranges, or loopback, linklocal,
   * uniquelocal); empty: the socket's peer is the client.
   */
  trustedProxies: string[];
  /** Opens GET /metrics to a request bearing it; without it, only requests made straight from this machine. */
  metricsToken: string | undefined;
  /** Active (unrevoked) API keys one account may hold, both modes together. */
  maxKeysPerAccount: number;
  /** Where rate-limit buckets are shared by every process of one deployment; without it each process keeps its own. */
  redis: { url: string; prefix: string } | undefined;
  /** Whether `serve` also runs the job worker in its process. */
  worker: boolean;
  /** How long one carrier call may take before it counts as failed. */
  carrierTimeoutMs: number;
  /** How much faster than real time test-mode tracking moves: carrier seconds per real second. */
  simTrackingSpeed: number;
  /**
   * Test mode's model of an account's negotiated discount off UPS's and FedEx's published transport prices, as a
   * fraction, where the operator set one; otherwise the price table's default (a quarter) applies.
   */
  simAccountDiscounts: Partial<Record<'ups' | 'fedex', number>>;
  /** How long after purchase test mode's first scan comes at the soonest: the time a person has to void a label. */
  simFirstScanAfterMs: number;
  simLabelMs: number;
  /** How long a job stays claimed without word from its worker before another worker takes it over. */
  jobLeaseMs: number;
  /** Label purchases under way at once for one batch. */
  batchConcurrency: number;
  /**
   * How many tracking calls the trackers worker makes to each carrier, per set of credentials: every window must have
   * room for a call (SHIPD_UPS_TRACKING_RATE and the like, "calls/seconds" windows joined by commas).
   */
  trackingRateLimits: Record<CarrierId, readonly RateWindow[]>;
  /** A carrier that throttled or failed a tracking call is left alone this long, doubling per failure in a row up to maxMs. */
  trackingBackoff: { baseMs: number; maxMs: number };
  /** Threads that draw label files beside the event loop; 0 draws them on it. */
  renderThreads: number;
  /** How long one PostgreSQL query may go unanswered before its connection is given up as lost. */
  dbQueryTimeoutMs: number;
  carriers: Record<CarrierId, CarrierCredentials>;
  /** Stripe, which live platform postage is charged through; without it live platform postage is refused. */
  stripe: StripeSettings | undefined;
  /** What each carrier's tracking notifications are checked against; a carrier without it gets no subscriptions and its posts are refused. */
  carrierPush: CarrierPushSettings;
}

/**
 * The secrets of the carriers' tracking pushes to /carrier-events/{carrier}: UPS Track Alert sends back the opaque
 * `credential` given in each subscription; USPS signs each notification with the subscription's 32-character
 * secret (X-HMAC); FedEx signs with the security token set on the webhook project in its developer portal.
 */
export interface CarrierPushSettings {
  ups?: { credential: string };
  usps?: { secret: string; adminEmail: string };
  fedex?: { securityToken: string };
}

export interface StripeSettings {
  secretKey: string;
  /** Verifies the events Stripe posts to /stripe/webhooks; without it the endpoint refuses them all. */
  webhookSecret: string | undefined;
  baseUrl: string;
}

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
  ) {
    super(`invalid setting ${setting}: ${problem}`);
  }
}

type Raw = Record<string, string | undefined>;

/** Every setting shipd reads. The settings table in docs/operating.md mirrors this list. */
export const settingNames = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'SHIPD_DATA_DIR',
  'SHIPD_PUBLIC_URL',
  'SHIPD_SECRET',
  'SHIPD_FEATURES',
  'SHIPD_WEBHOOKS_ALLOW_INSECURE',
  'SHIPD_WEBHOOKS_PORTS',
  'SHIPD_LOG_LEVEL',
  'SHIPD_RATE_LIMIT_PER_SECOND',
  'SHIPD_RATE_LIMIT_BURST',
  'SHIPD_ADDRESS_RATE_LIMIT_PER_SECOND',
  'SHIPD_ADDRESS_RATE_LIMIT_BURST',
  'SHIPD_SIGNIN_ATTEMPTS_PER_MINUTE',
  'SHIPD_TRUSTED_PROXIES',
  'SHIPD_METRICS_TOKEN',
  'SHIPD_MAX_KEYS_PER_ACCOUNT',
  'REDIS_URL',
  'SHIPD_REDIS_PREFIX',
  'SHIPD_WORKER',
  'SHIPD_CARRIER_TIMEOUT_MS',
  'SHIPD_SIM_TRACKING_SPEED',
  'SHIPD_SIM_FIRST_SCAN_MINUTES',
  'SHIPD_SIM_LABEL_MS',
  'SHIPD_SIM_UPS_DISCOUNT',
  'SHIPD_SIM_FEDEX_DISCOUNT',
  'SHIPD_JOB_LEASE_MS',
  'SHIPD_BATCH_CONCURRENCY',
  'SHIPD_UPS_TRACKING_RATE',
  'SHIPD_USPS_TRACKING_RATE',
  'SHIPD_FEDEX_TRACKING_RATE',
  'SHIPD_TRACKING_BACKOFF_BASE_MS',
  'SHIPD_TRACKING_BACKOFF_MAX_MS',
  'SHIPD_RENDER_THREADS',
  'SHIPD_DB_QUERY_TIMEOUT_MS',
  ...carrierIds.flatMap((c) => {
    const p = c.toUpperCase();
    return [`${p}_CLIENT_ID`, `${p}_CLIENT_SECRET`, `${p}_ACCOUNT_NUMBER`, `${p}_BASE_URL`];
  }),
  'USPS_CRID',
  'USPS_MID',
  'USPS_MANIFEST_MID',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_BASE_URL',
  'UPS_TRACK_ALERT_CREDENTIAL',
  'USPS_TRACKING_SECRET',
  'USPS_TRACKING_ADMIN_EMAIL',
  'FEDEX_WEBHOOK_SECURITY_TOKEN',
] as const;

/** SHIPD_ variables that are not settings of the server but are read by one command. */
const nonSettingVariables = new Set(['SHIPD_API_KEY', 'SHIPD_CONFIG', 'SHIPD_CARRIER_CLIENT_SECRET', 'SHIPD_USER_PASSWORD']);

const defaultCarrierBaseUrls: Record<CarrierId, string> = {
  ups: 'https://onlinetools.ups.com',
  usps: 'https://apis.usps.com',
  fedex: 'https://apis.fedex.com',
};

/** https and the common alternative: a receiver on any other port of a public host is more likely a service never meant for webhooks. */
const defaultWebhookPorts = [443, 8443];

function integer(raw: Raw, name: string, fallback: number, min: number, max: number): number {
  const value = raw[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value.trim())) throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${value}")`);
  const n = Number(value.trim());
  if (n < min || n > max) throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${value}")`);
  return n;
}

/**
 * Each carrier's tracking calls, per set of credentials, as the carrier publishes its limits:
 * - FedEx: 1,400 transactions in any 10 seconds per project, and a default quota of 100,000 Track requests a day per
 *   project ("Quotas & rate limits guide", developer.fedex.com/api/en-us/guides/ratelimits.html, read 2026-11-27).
 * - USPS: its tracking specs (tracking v3, v3r2) define a 429 with Retry-After but publish no number. Developers report a
 *   default quota of 60 calls an hour for the v3 APIs; that is the default here, the conservative choice.
 * - UPS: Tracking.yaml defines a 429 ("Rate Limit Exceeded") and no number, and no published limit was found; 5 calls a
 *   second is a conservative default.
 * Each is a setting: an operator whose carrier granted more sets it.
 */
const defaultTrackingRates: Record<CarrierId, readonly RateWindow[]> = {
  fedex: [
    { calls: 1_400, perMs: 10_000 },
    { calls: 100_000, perMs: 86_400_000 },
  ],
  usps: [{ calls: 60, perMs: 3_600_000 }],
  ups: [{ calls: 5, perMs: 1_000 }],
};

function trackingRateLimits(raw: Raw): Config['trackingRateLimits'] {
  const limits = { ...defaultTrackingRates };
  for (const carrier of carrierIds) {
    const name = `SHIPD_${carrier.toUpperCase()}_TRACKING_RATE`;
    const value = raw[name]?.trim();
    if (!value) continue;
    limits[carrier] = value.split(',').map((w) => {
      const m = /^(\d+)\/(\d+)$/.exec(w.trim());
      if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new ConfigError(name, `must be "calls/seconds" windows joined by commas, e.g. "1400/10,100000/86400" (got "${value}")`);
      return { calls: Number(m[1]), perMs: Number(m[2]) * 1000 };
    });
  }
  return limits;
}

/** SHIPD_SIM_UPS_DISCOUNT and SHIPD_SIM_FEDEX_DISCOUNT: whole percents off published transport, 0 to 90. */
function simAccountDiscounts(raw: Raw): Config['simAccountDiscounts'] {
  const discounts: Config['simAccountDiscounts'] = {};
  for (const carrier of ['ups', 'fedex'] as const) {
    const name = `SHIPD_SIM_${carrier.toUpperCase()}_DISCOUNT`;
    if (raw[name] !== undefined && raw[name] !== '') discounts[carrier] = integer(raw, name, 0, 0, 90) / 100;
  }
  return discounts;
}

/** A comma-separated list of TCP ports. */
function ports(raw: Raw, name: string, fallback: readonly number[]): ReadonlySet<number> {
  const value = raw[name]?.trim();
  if (value === undefined || value === '') return new Set(fallback);
  const list = value.split(',').map((p) => p.trim());
  if (!list.every((p) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65_535)) {
    throw new ConfigError(name, `must be ports from 1 to 65535, separated by commas (got "${raw[name]}")`);
  }
  return new Set(list.map(Number));
}

/** Names proxy-addr (Fastify's trustProxy) knows for whole ranges. */
const proxyRangeNames = ['loopback', 'linklocal', 'uniquelocal'];

/** SHIPD_TRUSTED_PROXIES: addresses and CIDR ranges separated by commas, checked here so that a typo stops start-up. */
function trustedProxies(raw: Raw): string[] {
  const list = (raw.SHIPD_TRUSTED_PROXIES ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  for (const entry of list) {
    if (proxyRangeNames.includes(entry)) continue;
    const [address, bits, ...rest] = entry.split('/');
    const version = isIP(address ?? '');
    const maxBits = version === 6 ? 128 : 32;
    const badBits = bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (version === 0 || badBits || rest.length > 0) {
      throw new ConfigError('SHIPD_TRUSTED_PROXIES', `must be IP addresses or CIDR ranges (or ${proxyRangeNames.join(', ')}) separated by commas (got "${entry}")`);
    }
  }
  return list;
}

function metricsToken(raw: Raw): string | undefined {
  const value = raw.SHIPD_METRICS_TOKEN;
  if (value === undefined || value === '') return undefined;
  // It travels in an Authorization header: printable, and long enough not to be guessed.
  if (!/^[\x21-\x7e]{32,200}$/.test(value)) throw new ConfigError('SHIPD_METRICS_TOKEN', 'must be 32 to 200 printable characters without spaces');
  return value;
}

function boolean(raw: Raw, name: string, fallback = false): boolean {
  const value = raw[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, `must be true or false (got "${raw[name]}")`);
}

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an http(s) URL (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, `must be an http(s) URL (got "${value}")`);
  return value.replace(/\/+$/, '');
}

function mailerId(raw: Raw, name: string, kind: MailerIdKind): string | undefined {
  const value = raw[name]?.trim();
  if (!value) return undefined;
  const problem = mailerIdProblem(kind, value);
  if (problem) throw new ConfigError(name, problem);
  return value;
}

/** USPS_CRID, USPS_MID and USPS_MANIFEST_MID, each only when set. */
function uspsMailer(raw: Raw): Pick<CarrierCredentials, 'crid' | 'mid' | 'manifestMid'> {
  const crid = mailerId(raw, 'USPS_CRID', 'crid');
  const mid = mailerId(raw, 'USPS_MID', 'mid');
  const manifestMid = mailerId(raw, 'USPS_MANIFEST_MID', 'mid');
  return { ...(crid && { crid }), ...(mid && { mid }), ...(manifestMid && { manifestMid }) };
}

function database(raw: Raw, dataDir: string): Config['database'] {
  const value = raw.DATABASE_URL?.trim();
  if (!value) return { kind: 'sqlite', file: join(dataDir, 'shipd.db') };
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: value };
  }
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new ConfigError('DATABASE_URL', 'sqlite: needs a file path, as in sqlite:./data/shipd.db');
    return { kind: 'sqlite', file: resolve(file) };
  }
  throw new ConfigError('DATABASE_URL', 'must start with postgres://, postgresql:// or sqlite:');
}

function redis(raw: Raw): Config['redis'] {
  const value = raw.REDIS_URL?.trim();
  if (!value) return undefined;
  // The URL may hold a password, so the messages do not repeat it.
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('REDIS_URL', 'is not a valid redis:// or rediss:// URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  const prefix = raw.SHIPD_REDIS_PREFIX?.trim() || 'shipd:';
  if (!/^[\x21-\x7e]{1,100}$/.test(prefix)) throw new ConfigError('SHIPD_REDIS_PREFIX', 'must be 1 to 100 printable characters without spaces');
  return { url: value, prefix };
}

function secret(raw: Raw, dataDir: string): string {
  const value = raw.SHIPD_SECRET;
  if (value !== undefined && value !== '') {
    if (value.length < 32) throw new ConfigError('SHIPD_SECRET', 'must be at least 32 characters long');
    return value;
  }
  // A generated secret lives in the data dir so that label URLs stay valid across restarts.
  const file = join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  // Several processes may start at once on a fresh data dir, and all must end up with one secret, never
  // a half-written one: each writes a whole file of its own and links it into place, which only the
  // first can do; the others then read the winner's.
  makePrivateDir(dataDir);
  const own = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(own, randomBytes(32).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
  try {
    linkSync(own, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(own);
  }
  return readFileSync(file, 'utf8').trim();
}

/** The edit distance between two names: how many letters to add, drop or change to turn one into the other. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * A line for each SHIPD_ variable of the environment that shipd does not know, naming the nearest name it does.
 * The environment is shared with the user's shell and other tools (a README's `export SHIPD_KEY=…`), so an unknown
 * name is warned of, never refused; a config file, which is shipd's alone, stays strict.
 */
export function unknownSettingWarnings(env: Raw): string[] {
  const known = [...settingNames.filter((n) => n.startsWith('SHIPD_')), ...nonSettingVariables];
  return Object.keys(env)
    .filter((name) => name.startsWith('SHIPD_') && !(known as string[]).includes(name))
    .sort()
    .map((name) => {
      // Of equally near names, one ending in the same word (SHIPD_KEY, SHIPD_API_KEY) is the likelier meaning.
      const lastWord = (n: string) => n.slice(n.lastIndexOf('_'));
      const score = (k: string) => distance(name, k) - (lastWord(k) === lastWord(name) ? 0.5 : 0);
      const nearest = known.reduce((best, k) => (score(k) < score(best) ? k : best));
      return `warning: ${name} is not a shipd setting and is ignored (did you mean ${nearest}?)`;
    });
}

/** Reads a --config file: a JSON object whose keys are setting names. */
export function readConfigFile(path: string): Raw {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError('--config', `cannot read ${path} as JSON (${(err as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('--config', `${path} must hold a JSON object of settings`);
  }
  const out: Raw = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!(settingNames as readonly string[]).includes(key)) throw new ConfigError(key, `is not a known setting (in ${path})`);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new ConfigError(key, `must be a string, number or boolean (in ${path})`);
    }
    out[key] = String(value);
  }
  return out;
}

/**
 * Builds the validated configuration. Settings come from the file first, then the environment,
 * so an operator can override one value of a shared file with a variable.
 */
export function loadConfig(env: Raw = process.env, file?: string): Config {
  const raw: Raw = { ...(file ? readConfigFile(file) : {}) };
  for (const name of settingNames) if (env[name] !== undefined) raw[name] = env[name];

  const port = integer(raw, 'PORT', 8080, 0, 65535);
  const host = raw.HOST?.trim() || '0.0.0.0';
  const dataDir = resolve(raw.SHIPD_DATA_DIR?.trim() || './data');
  const features = new Set<Feature>();
  for (const part of (raw.SHIPD_FEATURES ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!(featureNames as readonly string[]).includes(part)) {
      throw new ConfigError('SHIPD_FEATURES', `unknown feature "${part}" (known: ${featureNames.join(', ')})`);
    }
    features.add(part as Feature);
  }
  const logLevel = (raw.SHIPD_LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!logLevels.includes(logLevel)) throw new ConfigError('SHIPD_LOG_LEVEL', `must be one of ${logLevels.join(', ')}`);

  const carriers = {} as Record<CarrierId, CarrierCredentials>;
  for (const id of carrierIds) {
    const p = id.toUpperCase();
    carriers[id] = {
      clientId: raw[`${p}_CLIENT_ID`] || undefined,
      clientSecret: raw[`${p}_CLIENT_SECRET`] || undefined,
      accountNumber: raw[`${p}_ACCOUNT_NUMBER`] || undefined,
      baseUrl: raw[`${p}_BASE_URL`] ? httpUrl(`${p}_BASE_URL`, raw[`${p}_BASE_URL`]!) : defaultCarrierBaseUrls[id],
    };
  }
  carriers.usps = { ...carriers.usps, ...uspsMailer(raw) };

  return {
    port,
    host,
    database: database(raw, dataDir),
    dataDir,
    publicUrl: raw.SHIPD_PUBLIC_URL ? httpUrl('SHIPD_PUBLIC_URL', raw.SHIPD_PUBLIC_URL) : `http://localhost:${port}`,
    secret: secret(raw, dataDir),
    features,
    webhooksAllowInsecure: boolean(raw, 'SHIPD_WEBHOOKS_ALLOW_INSECURE'),
    webhookPorts: ports(raw, 'SHIPD_WEBHOOKS_PORTS', defaultWebhookPorts),
    logLevel,
    rateLimit: {
      perSecond: integer(raw, 'SHIPD_RATE_LIMIT_PER_SECOND', 100, 1, 1_000_000),
      burst: integer(raw, 'SHIPD_RATE_LIMIT_BURST', 200, 1, 1_000_000),
    },
    addressRateLimit: {
      perSecond: integer(raw, 'SHIPD_ADDRESS_RATE_LIMIT_PER_SECOND', 20, 1, 1_000_000),
      burst: integer(raw, 'SHIPD_ADDRESS_RATE_LIMIT_BURST', 100, 1, 1_000_000),
    },
    signInAttemptsPerMinute: integer(raw, 'SHIPD_SIGNIN_ATTEMPTS_PER_MINUTE', 10, 1, 10_000),
    trustedProxies: trustedProxies(raw),
    metricsToken: metricsToken(raw),
    maxKeysPerAccount: integer(raw, 'SHIPD_MAX_KEYS_PER_ACCOUNT', 50, 1, 100_000),
    redis: redis(raw),
    worker: boolean(raw, 'SHIPD_WORKER', true),
    carrierTimeoutMs: integer(raw, 'SHIPD_CARRIER_TIMEOUT_MS', 10_000, 100, 120_000),
    // One simulated day per real minute: a developer sees a label delivered within minutes of buying it.
    simTrackingSpeed: integer(raw, 'SHIPD_SIM_TRACKING_SPEED', 1440, 1, 1_000_000),
    simAccountDiscounts: simAccountDiscounts(raw),
    // Enough for someone following the README at reading speed to void a label before the carrier scans it.
    simFirstScanAfterMs: integer(raw, 'SHIPD_SIM_FIRST_SCAN_MINUTES', 15, 0, 1440) * 60_000,
    simLabelMs: integer(raw, 'SHIPD_SIM_LABEL_MS', 0, 0, 60_000),
    jobLeaseMs: integer(raw, 'SHIPD_JOB_LEASE_MS', 30_000, 1_000, 3_600_000),
    batchConcurrency: integer(raw, 'SHIPD_BATCH_CONCURRENCY', 4, 1, 64),
    trackingRateLimits: trackingRateLimits(raw),
    trackingBackoff: {
      baseMs: integer(raw, 'SHIPD_TRACKING_BACKOFF_BASE_MS', 30_000, 1_000, 3_600_000),
      maxMs: integer(raw, 'SHIPD_TRACKING_BACKOFF_MAX_MS', 1_800_000, 1_000, 86_400_000),
    },
    // One core is left to the event loop, which has the HTTP and the database to do.
    renderThreads: integer(raw, 'SHIPD_RENDER_THREADS', Math.min(4, Math.max(1, availableParallelism() - 1)), 0, 32),
    dbQueryTimeoutMs: integer(raw, 'SHIPD_DB_QUERY_TIMEOUT_MS', 30_000, 100, 3_600_000),
    carriers,
    stripe: stripe(raw),
    carrierPush: carrierPush(raw),
  };
}

/** A secret long enough not to be guessed, in printable ASCII so it travels in a header unchanged. */
function pushSecret(raw: Raw, name: string, min: number, max: number): string | undefined {
  const value = raw[name]?.trim();
  if (!value) return undefined;
  if (value.length < min || value.length > max || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConfigError(name, min === max ? `must be exactly ${min} printable characters` : `must be ${min} to ${max} printable characters, no spaces`);
  }
  return value;
}

function carrierPush(raw: Raw): CarrierPushSettings {
  const upsCredential = pushSecret(raw, 'UPS_TRACK_ALERT_CREDENTIAL', 24, 512);
  // USPS's Subscription schema: secret minLength and maxLength 32; adminNotification needs one e-mail at least.
  const uspsSecret = pushSecret(raw, 'USPS_TRACKING_SECRET', 32, 32);
  const uspsEmail = raw.USPS_TRACKING_ADMIN_EMAIL?.trim() || undefined;
  if (uspsSecret && !uspsEmail) throw new ConfigError('USPS_TRACKING_ADMIN_EMAIL', 'must be set with USPS_TRACKING_SECRET: USPS requires an e-mail address to warn of a suspended subscription');
  if (uspsEmail && (uspsEmail.length > 50 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(uspsEmail))) throw new ConfigError('USPS_TRACKING_ADMIN_EMAIL', 'must be an e-mail address of at most 50 characters');
  const fedexToken = pushSecret(raw, 'FEDEX_WEBHOOK_SECURITY_TOKEN', 16, 512);
  return {
    ...(upsCredential && { ups: { credential: upsCredential } }),
    ...(uspsSecret && uspsEmail && { usps: { secret: uspsSecret, adminEmail: uspsEmail } }),
    ...(fedexToken && { fedex: { securityToken: fedexToken } }),
  };
}

function stripe(raw: Raw): StripeSettings | undefined {
  const key = raw.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = raw.STRIPE_WEBHOOK_SECRET?.trim() || undefined;
  if (!key) {
    if (webhookSecret) throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'is set without STRIPE_SECRET_KEY; set both, or neither');
    return undefined;
  }
  // A publishable key (pk_) cannot charge, and pasting one is the usual slip.
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(key)) throw new ConfigError('STRIPE_SECRET_KEY', 'must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)');
  if (webhookSecret !== undefined && !/^whsec_[A-Za-z0-9_+/=]+$/.test(webhookSecret)) throw new ConfigError('STRIPE_WEBHOOK_SECRET', "must be the endpoint's signing secret (whsec_…)");
  return { secretKey: key, webhookSecret, baseUrl: raw.STRIPE_BASE_URL ? httpUrl('STRIPE_BASE_URL', raw.STRIPE_BASE_URL) : 'https://api.stripe.com' };
}
