import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startServer, type TestServer } from '../harness.ts';
import { passwordWorkDone } from '../../src/domain/dashboard/passwords.ts';
import { clientWaitMs, emailFailuresBeforeSpacing, emailSpacingMs, failureWindowMs, freeFailures } from '../../src/domain/dashboard/sign-in.ts';
import { createJobRunner } from '../../src/jobs/index.ts';
import { createLogger } from '../../src/http/logger.ts';
import { accountWithUser, DashboardClient, password } from './client.ts';

// Behind a trusted proxy (the test itself, on 127.0.0.1), X-Forwarded-For says which address each try comes from.
let server: TestServer;
before(async () => {
  server = await startServer({ env: { SHIPD_TRUSTED_PROXIES: '127.0.0.1' } });
});
after(() => server.close());

let nextAddress = 1;
/** A client address of its own for each caller: 198.18.0.0/15 is for tests (RFC 2544). */
function newAddress(): Record<string, string> {
  const n = nextAddress++;
  return { 'x-forwarded-for': `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}` };
}

function signIn(email: string, pass: string, from: Record<string, string>) {
  return new DashboardClient(server).signIn(email, pass, from);
}

describe('what never reaches Argon2', () => {
  test('an email without a user costs a decoy as long as a verify, never a verify', async () => {
    const before = passwordWorkDone();
    for (let i = 0; i < 20; i++) {
      const res = await signIn(`nobody-${i}-${Date.now()}@example.com`, password, newAddress());
      assert.equal(res.status, 401);
      assert.match(res.text, /The email or the password is wrong/);
    }
    const after = passwordWorkDone();
    assert.equal(after.verifies, before.verifies, 'an unknown email was verified with Argon2');
    assert.equal(after.decoys - before.decoys, 20);

    const { email } = await accountWithUser(server);
    assert.equal((await signIn(email, 'a wrong password, surely', newAddress())).status, 401);
    assert.equal(passwordWorkDone().verifies, after.verifies + 1, "a user's email is verified");
  });

  test('an over-long email or password is refused before any hash or decoy', async () => {
    const { email } = await accountWithUser(server);
    const before = passwordWorkDone();
    const longEmail = await signIn(`${'a'.repeat(250)}@example.com`, password, newAddress());
    const longPassword = await signIn(email, 'p'.repeat(1025), newAddress());
    for (const res of [longEmail, longPassword]) {
      assert.equal(res.status, 400);
      assert.match(res.text, /longer than any can be/);
    }
    assert.deepEqual(passwordWorkDone(), before);
  });

  test('a client waiting out its failures is refused without a verify', async () => {
    const { email } = await accountWithUser(server);
    const attacker = newAddress();
    for (let i = 0; i < freeFailures; i++) assert.equal((await signIn(email, `guess number ${i}!`, attacker)).status, 401);
    const before = passwordWorkDone();
    for (let i = 0; i < 5; i++) assert.equal((await signIn(email, password, attacker)).status, 429);
    assert.deepEqual(passwordWorkDone(), before);
  });
});

describe('failures slow the client that makes them, and never lock the owner out', () => {
  test("the owner signs in from another address at once after an attacker's many wrong tries; the attacker waits longer each time", async () => {
    const { email } = await accountWithUser(server);
    const attacker = newAddress();
    for (let i = 1; i <= freeFailures; i++) assert.equal((await signIn(email, `guess number ${i}!`, attacker)).status, 401, `try ${i}`);
    for (let i = 0; i < 10; i++) {
      const refused = await signIn(email, `guess number ${freeFailures + 1}!`, attacker);
      assert.equal(refused.status, 429);
      assert.match(refused.text, /Too many failed sign-ins for this email from your network\. Try again in 1 second\./);
    }

    assert.equal((await signIn(email, password, newAddress())).status, 303, "the owner is locked out by another address's failures");

    server.clock.advance(clientWaitMs(freeFailures));
    assert.equal((await signIn(email, 'one more wrong guess', attacker)).status, 401, 'a wait over lets the client try again');
    const longer = await signIn(email, password, attacker);
    assert.equal(longer.status, 429, 'even the right password waits its turn');
    assert.match(longer.text, /Try again in 2 seconds/);
    server.clock.advance(clientWaitMs(freeFailures + 1));
    assert.equal((await signIn(email, password, attacker)).status, 303, 'a delay, not a lock: the right password works once the wait is over');
  });

  test("failures from many addresses together space the email's tries by seconds, for everyone", async () => {
    const { email } = await accountWithUser(server);
    const addresses = Math.ceil(emailFailuresBeforeSpacing / freeFailures);
    for (let a = 0; a < addresses; a++) {
      const from = newAddress();
      for (let i = 0; i < freeFailures; i++) assert.equal((await signIn(email, `guess ${a}.${i}`, from)).status, 401);
    }
    const owner = newAddress();
    const spaced = await signIn(email, password, owner);
    assert.equal(spaced.status, 429);
    server.clock.advance(emailSpacingMs);
    assert.equal((await signIn(email, password, owner)).status, 303);
  });

  test('a run of failures ends after a quiet window; the cleanup job then forgets it', async () => {
    const db = server.services.database.db;
    const { email } = await accountWithUser(server);
    const from = newAddress();
    for (let i = 0; i < freeFailures; i++) await signIn(email, `guess number ${i}!`, from);
    const fresh = `fresh-${Date.now()}@example.com`;
    server.clock.advance(failureWindowMs);
    await signIn(fresh, password, from);
    const rows = () => db.selectFrom('dashboard_login_failures').select('email').where('email', 'in', [email, fresh]).execute();
    assert.equal((await rows()).length, 2);
    assert.equal((await signIn(email, password, from)).status, 303, 'a run that ended still costs a wait');

    await signIn(email, 'wrong again, after all', from);
    server.clock.advance(failureWindowMs);
    const runner = createJobRunner(server.services, createLogger('silent'));
    await runner.installSchedules();
    await runner.tick();
    await runner.drain();
    assert.deepEqual(
      (await rows()).map((r) => r.email),
      [],
      'ended runs are still stored',
    );
  });
});

describe('sign-in attempts per client address', () => {
  test('an address gets 10 tries, whatever the emails, then 429 with Retry-After; another address is not held back', async () => {
    const limited = await startServer({ env: { SHIPD_TRUSTED_PROXIES: '127.0.0.1', SHIPD_SIGNIN_ATTEMPTS_PER_MINUTE: '10' } });
    try {
      const from = { 'x-forwarded-for': '203.0.113.7' };
      const tryOnce = (headers: Record<string, string>, n: number) => new DashboardClient(limited).signIn(`sprayed-${n}@example.com`, password, headers);
      for (let i = 0; i < 10; i++) assert.equal((await tryOnce(from, i)).status, 401, `try ${i + 1}`);
      const client = new DashboardClient(limited);
      const refused = await client.signIn('sprayed-10@example.com', password, from);
      assert.equal(refused.status, 429);
      assert.match(refused.text, /Too many sign-in attempts from your network/);
      assert.equal((await tryOnce({ 'x-forwarded-for': '203.0.113.8' }, 11)).status, 401);
    } finally {
      await limited.close();
    }
  });

  test('X-Forwarded-For counts only from a trusted proxy: otherwise every try is the socket address', async () => {
    const untrusted = await startServer({ env: { SHIPD_SIGNIN_ATTEMPTS_PER_MINUTE: '10' } });
    try {
      for (let i = 0; i < 10; i++) {
        const res = await new DashboardClient(untrusted).signIn(`sprayed-${i}@example.com`, password, { 'x-forwarded-for': `203.0.113.${i + 1}` });
        assert.equal(res.status, 401);
      }
      const refused = await new DashboardClient(untrusted).signIn('sprayed@example.com', password, { 'x-forwarded-for': '203.0.113.99' });
      assert.equal(refused.status, 429);
    } finally {
      await untrusted.close();
    }
  });
});

describe('Argon2 has a lane of its own', () => {
  test('a flood of sign-ins leaves the thread pool to file reads, and what is over the queue is answered 503 at once', async () => {
    // Wrong passwords for real users, each hashed with Argon2; few enough per email that none is spaced out.
    const emails = await Promise.all(Array.from({ length: 8 }, async () => (await accountWithUser(server)).email));
    const reads: number[] = [];
    const statuses: number[] = [];
    let flooding = true;
    // 32 clients at once, each from an address of its own: more than the queue holds.
    const flood = Array.from({ length: 32 }, async (_, n) => {
      const from = newAddress();
      for (let i = 0; i < 3; i++) statuses.push((await signIn(emails[n % emails.length]!, `flood ${n}.${i}`, from)).status);
    });
    const reader = (async () => {
      while (flooding) {
        const started = performance.now();
        await readFile(new URL(import.meta.url));
        reads.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await Promise.all(flood);
    flooding = false;
    await reader;
    assert.ok(statuses.includes(503), `no sign-in was turned away: ${[...new Set(statuses)]}`);
    assert.deepEqual(new Set(statuses), new Set([401, 503]));
    reads.sort((a, b) => a - b);
    const median = reads[Math.floor(reads.length / 2)]!;
    assert.ok(median < 50, `file reads took ${median.toFixed(1)} ms (median of ${reads.length}) while Argon2 ran`);
  });
});
