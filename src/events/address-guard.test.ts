import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import {
  blockedReason,
  checkWebhookUrl,
  createWebhookDispatcher,
  guardedLookup,
  systemResolve,
  type GuardOptions,
  type Resolve,
} from './address-guard.ts';

const blockedCode = 'ERR_WEBHOOK_ADDRESS_BLOCKED';

test('blockedReason: IPv4 special-use ranges, checked at their edges', () => {
  const cases: [string, string | null][] = [
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['1.0.0.0', null],
    ['9.255.255.255', null],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['11.0.0.0', null],
    ['100.63.255.255', null],
    ['100.64.0.0', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['100.128.0.0', null],
    ['126.255.255.255', null],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['128.0.0.0', null],
    ['169.254.0.0', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['169.255.0.0', null],
    ['172.15.255.255', null],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', null],
    ['192.0.0.8', 'reserved'],
    ['192.0.1.1', null],
    ['192.0.2.1', 'documentation'],
    ['192.0.3.0', null],
    ['192.88.99.1', 'reserved'],
    ['192.167.255.255', null],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['192.169.0.0', null],
    ['198.17.255.255', null],
    ['198.18.0.0', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.20.0.0', null],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.200', 'documentation'],
    ['223.255.255.255', null],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['8.8.8.8', null],
    ['1.1.1.1', null],
  ];
  for (const [ip, reason] of cases) assert.equal(blockedReason(ip), reason, ip);
});

test('blockedReason: IPv6 special-use ranges, and IPv4 embedded in IPv6 judged as IPv4', () => {
  const cases: [string, string | null][] = [
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:0', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['[::1]', 'loopback'],
    // IPv4-mapped, every spelling
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:7F00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['0000:0000:0000:0000:0000:ffff:127.0.0.1', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:8.8.8.8', null],
    ['::ffff:808:808', null],
    // IPv4-compatible, deprecated: refused whatever it embeds
    ['::127.0.0.1', 'reserved'],
    ['::8.8.8.8', 'reserved'],
    ['::ffff', 'reserved'],
    // NAT64
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::8.8.8.8', null],
    ['64:ff9b:1::1', 'private'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'private'],
    ['100::', 'reserved'],
    ['100::ffff:ffff:ffff:ffff', 'reserved'],
    // 2001::/23, Teredo 2001::/32 included
    ['2001::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ['2001:200::1', null],
    ['2001:db8::1', 'documentation'],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ['2001:db9::1', null],
    ['3fff::1', 'documentation'],
    // 6to4 carries the IPv4 address in bits 16-47
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', null],
    ['fc00::1', 'private'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fe80::1%25eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['feff::1', 'site-local'],
    ['ff00::', 'multicast'],
    ['ff02::1', 'multicast'],
    // outside 2000::/3 nothing is public unicast
    ['4000::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['1:2:3:4:5:6:7:8', 'reserved'],
    ['2606:4700:4700::1111', null],
    ['2001:4860:4860::8888', null],
    ['[2a00:1450:4001::1]', null],
  ];
  for (const [ip, reason] of cases) assert.equal(blockedReason(ip), reason, ip);
});

test('blockedReason: anything but a plain IP literal is refused', () => {
  const inputs = ['', 'example.com', 'localhost', '2130706433', '0x7f.1', '127.1', '127.0.0.01', '256.0.0.1'];
  inputs.push('[127.0.0.1]', '::1]', '1::2::3', ' 8.8.8.8');
  for (const input of inputs) {
    assert.equal(blockedReason(input), 'not an IP address', JSON.stringify(input));
  }
});

/** A resolver that answers from a table and records what it was asked. */
function fakeResolver(table: Record<string, string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

const strict = (table: Record<string, string[]> = {}) => ({ allowInsecure: false, resolve: fakeResolver(table) });

async function refusal(raw: string, options: GuardOptions = strict()): Promise<string> {
  const result = await checkWebhookUrl(raw, options);
  assert.equal(result.ok, false, `${raw} should be refused`);
  return result.ok ? '' : result.reason;
}

test('checkWebhookUrl: scheme, credentials, fragment, length and syntax', async () => {
  const publicHost = strict({ 'hooks.example.com': ['93.184.216.34'] });
  assert.equal(await refusal('http://hooks.example.com/x', publicHost), 'webhook URLs must use https');
  assert.equal(await refusal('ftp://hooks.example.com/x'), 'webhook URLs must use https');
  assert.equal(await refusal('ftp://hooks.example.com/x', { allowInsecure: true }), 'webhook URLs must use http or https');
  assert.equal(await refusal('not a url'), 'webhook URL is not a valid absolute URL');
  assert.equal(await refusal('/relative/path'), 'webhook URL is not a valid absolute URL');
  assert.match(await refusal('https://user:pw@hooks.example.com/'), /username or password/);
  assert.match(await refusal('https://user@hooks.example.com/'), /username or password/);
  assert.match(await refusal('https://hooks.example.com/x#frag'), /fragment/);
  assert.match(await refusal('https://hooks.example.com/x#'), /fragment/);
  assert.match(await refusal(`https://hooks.example.com/${'a'.repeat(2048)}`), /at most 2048 characters/);
  // Percent-encoding can push the normalized URL past the limit even when the input is under it.
  assert.match(await refusal(`https://hooks.example.com/${' '.repeat(700)}x`), /at most 2048 characters/);
});

test('checkWebhookUrl: accepts a public host and returns the normalized URL', async () => {
  const options = strict({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
  assert.deepEqual(await checkWebhookUrl('HTTPS://Hooks.Example.com:443/in?x=1', options), {
    ok: true,
    url: 'https://hooks.example.com/in?x=1',
  });
  assert.deepEqual(options.resolve.asked, ['hooks.example.com']);
  const longest = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
  assert.deepEqual(await checkWebhookUrl(longest, options), { ok: true, url: longest });
  assert.deepEqual(await checkWebhookUrl('https://8.8.8.8/hook', strict()), { ok: true, url: 'https://8.8.8.8/hook' });
  const v6 = 'https://[2606:4700:4700::1111]/';
  assert.deepEqual(await checkWebhookUrl(v6, strict()), { ok: true, url: v6 });
});

test('checkWebhookUrl: IP literals must be public, however they are spelled', async () => {
  assert.equal(
    await refusal('https://127.0.0.1/'),
    'webhook URLs must point to a public address: 127.0.0.1 is a loopback address',
  );
  assert.match(await refusal('https://10.0.0.1/'), /10\.0\.0\.1 is a private address/);
  assert.match(await refusal('https://169.254.169.254/latest/meta-data'), /169\.254\.169\.254 is a link-local address/);
  assert.match(await refusal('https://[::1]/'), /::1 is a loopback address/);
  assert.match(await refusal('https://[::ffff:127.0.0.1]/'), /::ffff:7f00:1 is a loopback address/);
  assert.match(await refusal('https://[0:0:0:0:0:ffff:7f00:0001]:8443/'), /loopback/);
  assert.match(await refusal('https://2130706433/'), /127\.0\.0\.1 is a loopback address/);
  assert.match(await refusal('https://0x7f.1/'), /127\.0\.0\.1 is a loopback address/);
  assert.match(await refusal('https://0.0.0.0/'), /0\.0\.0\.0 is an unspecified address/);
  assert.match(await refusal('https://[fe80::1]/'), /link-local/);
  assert.match(await refusal('https://[::]/'), /unspecified/);
});

test('checkWebhookUrl: host names are refused when any address they resolve to is blocked', async () => {
  assert.equal(
    await refusal('https://evil.test/', strict({ 'evil.test': ['10.1.2.3'] })),
    'webhook URLs must point to public addresses: evil.test resolves to 10.1.2.3, which is a private address',
  );
  const mixed = strict({ 'mixed.test': ['93.184.216.34', '192.168.1.10'], 'mixed6.test': ['2606:4700:4700::1111', '::ffff:127.0.0.1'] });
  assert.match(await refusal('https://mixed.test/', mixed), /mixed\.test resolves to 192\.168\.1\.10, which is a private address/);
  assert.match(await refusal('https://mixed6.test/', mixed), /mixed6\.test resolves to ::ffff:127\.0\.0\.1, which is a loopback address/);
  assert.match(await refusal('https://empty.test/', strict({ 'empty.test': [] })), /does not resolve to any address/);
  assert.equal(await refusal('https://missing.test/', strict()), 'the webhook host missing.test could not be resolved (ENOTFOUND)');
});

test('checkWebhookUrl: local names are refused without a lookup', async () => {
  // The resolver would call them public, so only the name rule can refuse them.
  const names = ['localhost', 'api.localhost', 'printer.local', 'metadata.google.internal'];
  const options = strict(Object.fromEntries(names.map((name) => [name, ['93.184.216.34']])));
  for (const url of ['https://localhost/', 'https://LOCALHOST./', ...names.map((name) => `https://${name}/`)]) {
    assert.match(await refusal(url, options), /local name/, url);
  }
  assert.deepEqual(options.resolve.asked, []);
  // Only whole labels count.
  assert.equal((await checkWebhookUrl('https://notlocal/', strict({ notlocal: ['93.184.216.34'] }))).ok, true);
});

test('checkWebhookUrl: allowInsecure admits http, loopback and local names, without resolving', async () => {
  const resolve = fakeResolver({});
  for (const url of ['http://127.0.0.1:8080/hook', 'https://[::1]/', 'http://localhost:3000/', 'http://nowhere.test/']) {
    assert.deepEqual(await checkWebhookUrl(url, { allowInsecure: true, resolve }), { ok: true, url }, url);
  }
  assert.deepEqual(resolve.asked, []);
  assert.match(await refusal('http://u:p@127.0.0.1/', { allowInsecure: true }), /username or password/);
});

function lookupWith(options: { all?: boolean; family?: number }, guard: GuardOptions) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((done) => {
    guardedLookup(guard)('host.test', options, (err, address, family) => done({ err, address, family }));
  });
}

test('guardedLookup: answers in the form asked for, or refuses with ERR_WEBHOOK_ADDRESS_BLOCKED', async () => {
  const resolve = fakeResolver({ 'host.test': ['2606:4700:4700::1111', '93.184.216.34'] });
  const guard = { allowInsecure: false, resolve };
  assert.deepEqual(await lookupWith({}, guard), { err: null, address: '2606:4700:4700::1111', family: 6 });
  assert.deepEqual(await lookupWith({ family: 4 }, guard), { err: null, address: '93.184.216.34', family: 4 });
  assert.deepEqual((await lookupWith({ all: true }, guard)).address, [
    { address: '2606:4700:4700::1111', family: 6 },
    { address: '93.184.216.34', family: 4 },
  ]);
  assert.deepEqual((await lookupWith({ all: true, family: 6 }, guard)).address, [{ address: '2606:4700:4700::1111', family: 6 }]);

  const rebound = { allowInsecure: false, resolve: fakeResolver({ 'host.test': ['93.184.216.34', '127.0.0.1'] }) };
  for (const options of [{}, { all: true }, { family: 4 }]) {
    const { err } = await lookupWith(options, rebound);
    assert.equal(err?.code, blockedCode);
    assert.equal(err?.message, 'webhook connection refused: host.test resolves to 127.0.0.1, which is a loopback address');
  }
  assert.deepEqual(await lookupWith({}, { ...rebound, allowInsecure: true }), { err: null, address: '93.184.216.34', family: 4 });

  assert.equal((await lookupWith({}, { allowInsecure: false, resolve: fakeResolver({}) })).err?.code, 'ENOTFOUND');
  const v4Only = { allowInsecure: false, resolve: fakeResolver({ 'host.test': ['93.184.216.34'] }) };
  assert.equal((await lookupWith({ family: 6 }, v4Only)).err?.code, 'ENOTFOUND');
});

test('systemResolve answers for localhost with loopback addresses only', async () => {
  const addresses = await systemResolve('localhost');
  assert.ok(addresses.length > 0);
  for (const { address } of addresses) assert.equal(blockedReason(address), 'loopback', address);
});

function codeOf(err: unknown): unknown {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  return e.code ?? e.cause?.code;
}

async function startServer(t: { after: (fn: () => Promise<void>) => void }) {
  const seen: string[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/start') res.writeHead(302, { location: '/target' }).end();
    else res.end('ok');
  });
  server.on('connection', () => connections++);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  t.after(() => new Promise<void>((closed) => server.close(() => closed())));
  return { port: (server.address() as AddressInfo).port, seen, connections: () => connections };
}

// evil.test stands for a name whose DNS answer was changed to point inside after registration.
const rebindingResolve: Resolve = async (hostname) =>
  hostname === 'evil.test' ? [{ address: '127.0.0.1', family: 4 }] : systemResolve(hostname);

test('dispatcher: refuses to connect to blocked addresses, by literal or by name', async (t) => {
  const server = await startServer(t);
  const dispatcher = await createWebhookDispatcher({ allowInsecure: false, resolve: rebindingResolve });
  t.after(() => dispatcher.close());
  const hosts = ['127.0.0.1', 'localhost', 'evil.test', '[::ffff:127.0.0.1]', '2130706433', '0x7f.1'];
  for (const host of hosts) {
    const err = await request(`http://${host}:${server.port}/hook`, { dispatcher, method: 'POST', body: '{}' }).then(
      () => assert.fail(`${host} was reached`),
      (e: unknown) => e,
    );
    assert.equal(codeOf(err), blockedCode, `${host}: ${String(err)}`);
  }
  assert.deepEqual(server.seen, []);
  assert.equal(server.connections(), 0);
});

test('dispatcher: lets public addresses through to the connect', async (t) => {
  // This does try 8.8.8.8:9 (discard). Whether that times out, is unreachable or is answered by a
  // middlebox depends on the network; the test only needs the outcome not to be the guard's.
  const dispatcher = await createWebhookDispatcher({
    allowInsecure: false,
    resolve: async () => [{ address: '8.8.8.8', family: 4 }],
    connectTimeoutMs: 200,
  });
  t.after(() => dispatcher.close());
  for (const url of ['http://8.8.8.8:9/', 'http://public.test:9/']) {
    const outcome = await request(url, { dispatcher }).then(
      (res) => res.body.dump().then(() => null),
      (e: unknown) => codeOf(e),
    );
    assert.notEqual(outcome, blockedCode, url);
  }
});

test('dispatcher: allowInsecure reaches loopback by literal and by name', async (t) => {
  const server = await startServer(t);
  const dispatcher = await createWebhookDispatcher({ allowInsecure: true, resolve: rebindingResolve });
  t.after(() => dispatcher.close());
  for (const host of ['127.0.0.1', 'localhost', 'evil.test']) {
    const res = await request(`http://${host}:${server.port}/hook`, { dispatcher });
    assert.equal(res.statusCode, 200, host);
    assert.equal(await res.body.text(), 'ok');
  }
  assert.deepEqual(server.seen, ['/hook', '/hook', '/hook']);
});

test('dispatcher: redirects are returned, not followed', async (t) => {
  const server = await startServer(t);
  const dispatcher = await createWebhookDispatcher({ allowInsecure: true });
  t.after(() => dispatcher.close());
  const res = await request(`http://127.0.0.1:${server.port}/start`, { dispatcher, method: 'POST', body: '{}' });
  await res.body.dump();
  assert.equal(res.statusCode, 302);
  assert.equal(res.headers.location, '/target');
  assert.deepEqual(server.seen, ['/start']);
});
