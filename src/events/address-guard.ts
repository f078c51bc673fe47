import { promises as dns } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import { undici } from '../kernel/undici.ts';

// SSRF guard for webhook URLs (DESIGN §6): https only, public addresses only, judged at
// registration and again on every connect, against the very addresses the socket uses.

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = async (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export interface GuardOptions {
  allowInsecure: boolean;
  /** The ports a URL may use unless insecure URLs are allowed; 443 and 8443 when not given. */
  ports?: ReadonlySet<number>;
  resolve?: Resolve;
}

const defaultPorts: ReadonlySet<number> = new Set([443, 8443]);

/** Why the URL's port is not allowed, or null when it is. */
function portRefusal(url: URL, ports: ReadonlySet<number> = defaultPorts): string | null {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (ports.has(port)) return null;
  const allowed = [...ports].sort((a, b) => a - b);
  return `webhook URLs must use port ${allowed.slice(0, -1).join(', ')}${allowed.length > 1 ? ' or ' : ''}${allowed.at(-1)} (SHIPD_WEBHOOKS_PORTS), not ${port}`;
}

const notAnIp = 'not an IP address';

interface Rule {
  network: number[];
  bits: number;
  /** Why the range is refused, or the byte offset of an IPv4 address it embeds, which is judged instead. */
  verdict: string | number;
}

function rule(cidr: string, verdict: string | number): Rule {
  const [address, bits] = cidr.split('/') as [string, string];
  return { network: isIP(address) === 4 ? ipv4Bytes(address) : ipv6Bytes(address), bits: Number(bits), verdict };
}

// First match wins, so narrower ranges precede the ranges that contain them.
const ipv4Rules = [
  rule('0.0.0.0/8', 'unspecified'),
  rule('10.0.0.0/8', 'private'),
  rule('100.64.0.0/10', 'carrier-grade NAT'),
  rule('127.0.0.0/8', 'loopback'),
  rule('169.254.0.0/16', 'link-local'),
  rule('172.16.0.0/12', 'private'),
  rule('192.0.0.0/24', 'reserved'),
  rule('192.0.2.0/24', 'documentation'),
  rule('192.88.99.0/24', 'reserved'),
  rule('192.168.0.0/16', 'private'),
  rule('198.18.0.0/15', 'benchmarking'),
  rule('198.51.100.0/24', 'documentation'),
  rule('203.0.113.0/24', 'documentation'),
  rule('224.0.0.0/4', 'multicast'),
  rule('255.255.255.255/32', 'broadcast'),
  rule('240.0.0.0/4', 'reserved'),
];

const ipv6Rules = [
  rule('::/128', 'unspecified'),
  rule('::1/128', 'loopback'),
  rule('::ffff:0:0/96', 12),
  rule('::/96', 'reserved'), // IPv4-compatible, deprecated; stacks differ on where it goes
  rule('64:ff9b::/96', 12),
  rule('64:ff9b:1::/48', 'private'),
  rule('100::/64', 'reserved'),
  rule('2001::/23', 'reserved'), // includes Teredo, 2001::/32, which tunnels to an address we cannot see
  rule('2001:db8::/32', 'documentation'),
  rule('2002::/16', 2),
  rule('3fff::/20', 'documentation'),
  rule('fc00::/7', 'private'),
  rule('fe80::/10', 'link-local'),
  rule('fec0::/10', 'site-local'),
  rule('ff00::/8', 'multicast'),
];

// Everything outside 2000::/3 not listed above is unassigned or special-use, never a public host.
const globalUnicast = rule('2000::/3', 'reserved');

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** Expects what isIPv6 accepts without a zone id; handles `::` and a trailing dotted quad. */
function ipv6Bytes(address: string): number[] {
  const bytes = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (group.includes('.')) return ipv4Bytes(group);
          const n = parseInt(group, 16);
          return [n >> 8, n & 0xff];
        });
  const gap = address.indexOf('::');
  if (gap === -1) return bytes(address);
  const head = bytes(address.slice(0, gap));
  const tail = bytes(address.slice(gap + 2));
  return [...head, ...new Array<number>(16 - head.length - tail.length).fill(0), ...tail];
}

function matches(bytes: number[], { network, bits }: Rule): boolean {
  for (let i = 0; i < bits; i += 8) {
    const mask = (0xff << (8 - Math.min(8, bits - i))) & 0xff;
    if (((bytes[i / 8]! ^ network[i / 8]!) & mask) !== 0) return false;
  }
  return true;
}

function judge(bytes: number[], rules: Rule[]): string | null {
  const hit = rules.find((r) => matches(bytes, r));
  if (typeof hit?.verdict === 'number') return judge(bytes.slice(hit.verdict, hit.verdict + 4), ipv4Rules);
  if (hit) return hit.verdict;
  return bytes.length === 16 && !matches(bytes, globalUnicast) ? 'reserved' : null;
}

/**
 * Null for a public unicast address; otherwise why it is refused. Takes an IPv4 or IPv6 literal,
 * the latter optionally in brackets or with a zone id. IPv4 addresses embedded in IPv6 (mapped,
 * NAT64, 6to4) are judged as IPv4, since that is where a connection to them ends up.
 */
export function blockedReason(ip: string): string | null {
  const bracketed = ip.startsWith('[') && ip.endsWith(']');
  const bare = bracketed ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 0 || (bracketed && family !== 6)) return notAnIp;
  return family === 4 ? judge(ipv4Bytes(bare), ipv4Rules) : judge(ipv6Bytes(bare.split('%')[0]!), ipv6Rules);
}

/** "a loopback address", "an unspecified address", "not an IP address": completes "… is ". */
function kind(reason: string): string {
  if (reason === notAnIp) return reason;
  return `${/^[aeiou]/.test(reason) ? 'an' : 'a'} ${reason} address`;
}

function describe(host: string, address: string, reason: string): string {
  return host === address ? `${address} is ${kind(reason)}` : `${host} resolves to ${address}, which is ${kind(reason)}`;
}

function firstBlocked(addresses: { address: string }[]): { address: string; reason: string } | undefined {
  for (const { address } of addresses) {
    const reason = blockedReason(address);
    if (reason) return { address, reason };
  }
  return undefined;
}

const maxUrlLength = 2048;
const localNames = /(^|\.)(localhost|local|internal)$/;

type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** Registration-time check; reasons are sentences for the client's 400. Returns the normalized URL. */
export async function checkWebhookUrl(raw: string, { allowInsecure, ports, resolve = systemResolve }: GuardOptions): Promise<UrlCheck> {
  const refuse = (reason: string): UrlCheck => ({ ok: false, reason });
  // Checked before parsing so an oversized input is never parsed, and after, on what would be stored.
  if (raw.length > maxUrlLength) return refuse(`webhook URLs must be at most ${maxUrlLength} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('webhook URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowInsecure && url.protocol === 'http:')) {
    return refuse(allowInsecure ? 'webhook URLs must use http or https' : 'webhook URLs must use https');
  }
  if (url.username || url.password) return refuse('webhook URLs must not contain a username or password');
  // An empty fragment ("…#") leaves url.hash empty but stays in href.
  if (url.href.includes('#')) return refuse('webhook URLs must not contain a fragment');
  if (url.href.length > maxUrlLength) return refuse(`webhook URLs must be at most ${maxUrlLength} characters`);
  if (allowInsecure) return { ok: true, url: url.href };
  const badPort = portRefusal(url, ports);
  if (badPort) return refuse(badPort);

  // The URL parser has already turned decimal, hex and short IPv4 forms into dotted quads.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    const reason = blockedReason(host);
    if (reason) return refuse(`webhook URLs must point to a public address: ${describe(host, host, reason)}`);
    return { ok: true, url: url.href };
  }
  if (localNames.test(host.replace(/\.$/, ''))) return refuse(`webhook URLs must not point to a local name such as ${host}`);

  let addresses: { address: string }[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return refuse(`the webhook host ${host} could not be resolved${code ? ` (${code})` : ''}`);
  }
  if (addresses.length === 0) return refuse(`the webhook host ${host} does not resolve to any address`);
  const blocked = firstBlocked(addresses);
  if (blocked) return refuse(`webhook URLs must point to public addresses: ${describe(host, blocked.address, blocked.reason)}`);
  return { ok: true, url: url.href };
}

/**
 * The delivery-time check of what the connection itself does not show: a URL stored while the settings allowed more
 * (SHIPD_WEBHOOKS_ALLOW_INSECURE since turned off, or a port since taken out of SHIPD_WEBHOOKS_PORTS) is not sent
 * to. A reason, or null when it may be sent.
 */
export function deliveryRefusal(raw: string, { allowInsecure, ports }: Pick<GuardOptions, 'allowInsecure' | 'ports'>): string | null {
  if (allowInsecure) return null;
  const url = new URL(raw);
  if (url.protocol !== 'https:') return 'webhook URLs must use https; PATCH the webhook with an https URL';
  return portRefusal(url, ports);
}

function blockedError(host: string, address: string, reason: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`webhook connection refused: ${describe(host, address, reason)}`), {
    code: 'ERR_WEBHOOK_ADDRESS_BLOCKED',
  });
}

/**
 * A `lookup` for net/tls connect that refuses the connection when any address the name resolves to
 * is blocked, so the check covers exactly the addresses the socket will use (no DNS-rebinding gap).
 */
export function guardedLookup({ allowInsecure, resolve = systemResolve }: GuardOptions): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const blocked = allowInsecure ? undefined : firstBlocked(addresses);
        if (blocked) return callback(blockedError(hostname, blocked.address, blocked.reason), '');
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
        const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
        const first = usable[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, usable);
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

export interface DispatcherOptions extends GuardOptions {
  connectTimeoutMs?: number;
}

/**
 * The undici dispatcher for webhook deliveries. undici only follows redirects through its redirect
 * interceptor, which this does not add, so a 3xx comes back as a response. Kept-alive connections
 * (undici's default) stay on the address that was checked when they were opened.
 */
export async function createWebhookDispatcher({ connectTimeoutMs, ...guard }: DispatcherOptions): Promise<Dispatcher> {
  const { Agent, buildConnector } = await undici();
  // Given `connect` as a function, undici ignores its own connectTimeout, tls and autoSelectFamily
  // options and calls only this, so the connector it would have built is built here.
  const connect = buildConnector({ lookup: guardedLookup(guard), timeout: connectTimeoutMs });
  return new Agent({
    connect: (options, callback) => {
      // net.connect skips `lookup` for IP literals, so those are judged here (undici has already
      // unbracketed IPv6 hosts and the URL parser normalized odd IPv4 spellings).
      const reason = guard.allowInsecure || !isIP(options.hostname) ? null : blockedReason(options.hostname);
      if (reason) return callback(blockedError(options.hostname, options.hostname, reason), null);
      connect(options, callback);
    },
  });
}
