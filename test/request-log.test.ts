import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapKey, freePort, processDatabase, startShipd, stopWhenDone, type Shipd } from './shipd-process.ts';

// The request log as `shipd serve` writes it to standard output: one JSON line an answer, in the shape pino gives
// every other line, written in batches off the event loop (src/http/logger.ts, src/http/request-log.ts).

const database = processDatabase();
let shipd: Shipd | undefined;
stopWhenDone(() => shipd);

type Line = Record<string, unknown>;

function lines(text: string): Line[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
}

const requestLines = (text: string) => lines(text).filter((l) => l.msg === 'request');

async function until<T>(what: string, seconds: number, check: () => T | undefined): Promise<T> {
  const deadline = Date.now() + seconds * 1_000;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const env = () => ({
  ...database.env(),
  SHIPD_LOG_LEVEL: 'info',
  SHIPD_ADDRESS_RATE_LIMIT_PER_SECOND: '1000000',
  SHIPD_ADDRESS_RATE_LIMIT_BURST: '1000000',
});

describe('the request log on standard output', () => {
  let key: string;
  before(async () => {
    shipd = await startShipd(await freePort(), env());
    key = bootstrapKey(shipd)!;
    assert.ok(key, 'the first start printed a test key');
  });
  after(async () => {
    shipd?.child.kill('SIGTERM');
    await shipd?.closed;
  });

  test('has one line for each answer, in pino’s shape, within about a second', async () => {
    const api = `${shipd!.url}/api/integrations/v1`;
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await fetch(`${api}/carriers?page=${i}`, { headers: { authorization: `Bearer ${key}` } });
      ids.push(answer.headers.get('x-request-id')!);
    }
    const missing = await fetch(`${shipd!.url}/nowhere/at/all?token=secret-looking`, { headers: { 'x-request-id': 'client"id"\\1' } });
    assert.equal(missing.status, 404);
    ids.push('client"id"\\1');

    const logged = await until('every answer was logged', 3, () => {
      const found = requestLines(shipd!.stdout()).filter((l) => ids.includes(l.request_id as string));
      return found.length === ids.length ? found : undefined;
    });
    const keyed = logged.find((l) => l.request_id === ids[0])!;
    assert.deepEqual(Object.keys(keyed), ['level', 'time', 'service', 'request_id', 'method', 'path', 'route', 'status', 'ms', 'key_id', 'msg']);
    assert.equal(keyed.level, 30);
    assert.match(keyed.time as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(keyed.service, 'shipd');
    assert.equal(keyed.method, 'GET');
    assert.equal(keyed.path, '/api/integrations/v1/carriers', 'the query string is left out');
    assert.equal(keyed.route, '/api/integrations/v1/carriers');
    assert.ok(keyed.status === 200 || keyed.status === 400, `status ${String(keyed.status)}`);
    assert.equal(typeof keyed.ms, 'number');
    assert.match(keyed.key_id as string, /^key_/);

    const unmatched = logged.find((l) => l.request_id === 'client"id"\\1')!;
    assert.deepEqual(Object.keys(unmatched), ['level', 'time', 'service', 'request_id', 'method', 'path', 'status', 'ms', 'msg'], 'no route, no key');
    assert.equal(unmatched.path, '/nowhere/at/all');
    assert.equal(unmatched.status, 404);
    assert.ok(!shipd!.stdout().includes('secret-looking'), 'no query string reached the log');
  });

  test('lines still waiting to be written are written when the process stops', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${shipd!.url}/api/integrations/v1/carriers`, { headers: { authorization: `Bearer ${key}` } });
      ids.push(answer.headers.get('x-request-id')!);
    }
    shipd!.child.kill('SIGTERM');
    await shipd!.closed;
    const logged = requestLines(shipd!.stdout()).map((l) => l.request_id);
    assert.deepEqual(
      ids.filter((id) => !logged.includes(id)),
      [],
      'every answer given before the stop was logged',
    );
  });
});

describe('a standard output that takes nothing', () => {
  test('costs log lines, counted on standard error, not answers or memory', async () => {
    shipd = await startShipd(await freePort(), env());
    const stalled = shipd;
    stalled.child.stdout!.pause();
    // Long paths make long lines: 3,500 of them are over the 4 MB the process holds for a stalled output, and two or
    // three fill a batch, so a dropped batch must be counted as the lines it held.
    const path = `/${'x'.repeat(1_500)}`;
    const sent = 3_500;
    for (let i = 0; i < sent; i += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${stalled.url}${path}`)));
      for (const answer of answers) {
        assert.equal(answer.status, 404);
        await answer.arrayBuffer();
      }
    }
    const health = await fetch(`${stalled.url}/healthz`);
    assert.equal(health.status, 200, 'the process answers while its output is stalled');

    stalled.child.stdout!.resume();
    // Standard error and standard output are two pipes: the count of dropped lines may come before the lines written.
    const tally = () => {
      const out = lines(stalled.stdout());
      const dropped = out.filter((l) => l.msg === 'log lines dropped: standard output did not take them fast enough').reduce((n, w) => n + (w.dropped as number), 0);
      return { dropped, written: out.filter((l) => l.msg === 'request' && l.path === path).length };
    };
    const { written, dropped } = await until('every line was written or counted as dropped', 10, () => {
      const now = tally();
      return now.written + now.dropped >= sent ? now : undefined;
    }).catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(tally())} of ${sent}`));
    assert.ok(dropped > 0 && written > 0, `written ${written}, dropped ${dropped}`);
    assert.ok(written + dropped <= sent + 5, `no line is counted twice: written ${written}, dropped ${dropped} of ${sent}`);
    stalled.child.kill('SIGTERM');
    await stalled.closed;
  });
});
