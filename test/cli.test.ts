import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, runCli, type TestDatabase } from './harness.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { createServices } from '../src/services.ts';

let db: TestDatabase;
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { ...db.env, ...env });

before(async () => {
  db = await createTestDatabase();
});
after(() => db.drop());

/** Starts `shipd serve` as a user would, and returns what it printed once it is listening. */
function serveUntilListening(env: Record<string, string>): Promise<{ stdout: string; url: string; stop: () => Promise<number> }> {
  return startUntil([], env, /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/);
}

function startUntil(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ stdout: string; url: string; stop: () => Promise<number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'bin', 'shipd.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ready line in 20 s: ${stdout} ${stderr}`));
    }, 20_000);
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.stdout.on('data', (c: Buffer) => {
      stdout += c;
      const match = ready.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({
          stdout,
          url: match[1] ?? '',
          stop: () =>
            new Promise((done) => {
              child.on('close', (code) => done(code ?? -1));
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.on('close', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

describe('first start', () => {
  test('on an empty database it creates the default account and prints a working test key once', async () => {
    const first = await serveUntilListening(db.env);
    const key = /^\s+(svc_test_[0-9A-Za-z]{32})$/m.exec(first.stdout)?.[1];
    assert.ok(key, `a key was printed: ${first.stdout}`);
    const res = await fetch(`${first.url}/api/integrations/v1/carriers`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200);
    const logLines = first.stdout.split('\n').filter((l) => l.startsWith('{'));
    assert.ok(logLines.length > 0 && logLines.every((l) => !l.includes(key)), 'the key is printed, not logged');
    assert.equal(await first.stop(), 0, 'SIGTERM shuts down cleanly');

    const second = await serveUntilListening(db.env);
    assert.doesNotMatch(second.stdout, /svc_test_/, 'the key is shown only once');
    await second.stop();

    const accounts = await cli(['accounts', 'list']);
    assert.match(accounts.stdout, /acct_\w+\s+default\s+api/);
  });
});

describe('the worker', () => {
  test('shipd worker runs the job schedules alone and stops cleanly; serve can leave them to it', async () => {
    const worker = await startUntil(['worker'], db.env, /"msg":"shipd worker is running"/);
    const database = openDatabase(loadConfig(db.env));
    try {
      // Once run, the schedule's job is due again an hour later.
      const inFiftyMinutes = () => new Date(Date.now() + 50 * 60_000).toISOString();
      let schedule;
      for (let i = 0; i < 50 && !(schedule && schedule.run_at > inFiftyMinutes()); i++) {
        await new Promise((r) => setTimeout(r, 100));
        schedule = await database.db.selectFrom('jobs').selectAll().where('unique_key', '=', 'schedule:idempotency.cleanup').executeTakeFirst();
      }
      assert.ok(schedule, 'the worker installed the cleanup schedule');
      assert.equal(schedule.status, 'pending');
      assert.ok(schedule.run_at > inFiftyMinutes(), 'it ran once and is due again in an hour');
    } finally {
      await database.close();
    }
    assert.equal(await worker.stop(), 0);
    const apiOnly = await startUntil([], { ...db.env, SHIPD_WORKER: 'false' }, /"worker":false,"msg":"shipd is serving"/);
    assert.equal(await apiOnly.stop(), 0);
  });
});

describe('accounts and keys', () => {
  test('accounts create prints the id; a duplicate name is refused', async () => {
    const out = await cli(['accounts', 'create', '--name', 'acme']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^acct_[0-9a-z]{26}\n$/);
    const again = await cli(['accounts', 'create', '--name', 'acme']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^shipd: an account named "acme" exists already/);
  });

  test('keys create prints the key alone on stdout, by account name or id, and keys list shows it masked', async () => {
    const created = await cli(['keys', 'create', '--account', 'acme', '--mode', 'live', '--name', 'warehouse']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^svc_live_[0-9A-Za-z]{32}\n$/);
    const secret = created.stdout.trim();
    const list = await cli(['keys', 'list', '--account', 'acme']);
    assert.match(list.stdout, new RegExp(`key_\\w+\\s+live\\s+${secret.slice(0, 13)}…${secret.slice(-4)}\\s+warehouse`));
    assert.ok(!list.stdout.includes(secret), 'the secret is never shown again');
  });

  test('bad arguments are one clear line and exit 1', async () => {
    for (const [args, message] of [
      [['keys', 'create', '--account', 'acme', '--mode', 'prod'], /--mode must be test or live/],
      [['keys', 'create', '--account', 'nobody', '--mode', 'test'], /no account "nobody"/],
      [['keys', 'create', '--mode', 'test'], /--account is required/],
      [['keys', 'roll', 'key_nope'], /no key key_nope/],
      [['keys', 'fly'], /usage: shipd keys/],
      [['launch'], /unknown command "launch"/],
      [['accounts', 'create', '--name', 'x', '--plan', 'gold'], /plan must be one of api, basic/],
    ] as const) {
      const out = await cli([...args]);
      assert.equal(out.code, 1, `${args.join(' ')}: ${out.stdout}`);
      assert.match(out.stderr, message);
      assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
    }
  });
});

describe('billing and locations', () => {
  test('billing set takes the test payment methods in test mode and refuses others; clear removes it', async () => {
    assert.equal((await cli(['billing', 'set', '--account', 'acme', '--mode', 'test', '--payment-method', 'pm_test_declined'])).code, 0);
    const bad = await cli(['billing', 'set', '--account', 'acme', '--mode', 'test', '--payment-method', 'pm_card_4242']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /test mode takes only pm_test_visa or pm_test_declined/);
    const liveTest = await cli(['billing', 'set', '--account', 'acme', '--mode', 'live', '--payment-method', 'pm_test_visa']);
    assert.equal(liveTest.code, 1);
    const cleared = await cli(['billing', 'clear', '--account', 'acme', '--mode', 'test']);
    assert.match(cleared.stdout, /test: cleared/);
    const twice = await cli(['billing', 'clear', '--account', 'acme', '--mode', 'test']);
    assert.match(twice.stdout, /had no payment method/);
  });

  test('locations add validates the address and prints the id', async () => {
    const ok = await cli(['locations', 'add', '--account', 'acme', '--name', 'Warehouse', '--street1', '415 Mission St', '--city', 'San Francisco', '--state', 'ca', '--zip', '94105']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^loc_[0-9a-z]{26}\n$/);
    const badState = await cli(['locations', 'add', '--account', 'acme', '--name', 'X', '--street1', '1 Main', '--city', 'Y', '--state', 'ZZ', '--zip', '94105']);
    assert.equal(badState.code, 1);
    assert.match(badState.stderr, /state "ZZ" is not a US state code/);
    const badZip = await cli(['locations', 'add', '--account', 'acme', '--name', 'X', '--street1', '1 Main', '--city', 'Y', '--state', 'CA', '--zip', '9410']);
    assert.equal(badZip.code, 1);
    assert.match(badZip.stderr, /address\.zip must be a ZIP or ZIP\+4 \(got "9410"\)/);
    assert.doesNotMatch(badZip.stderr, /\^\[0-9\]/);
    const listed = await cli(['locations', 'list', '--account', 'acme']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${ok.stdout.trim()}\\s+Warehouse\\s+415 Mission St, San Francisco CA 94105\\s+default`));
  });

  test('packages add and list: the account\'s own boxes with their size, weight limit and default', async () => {
    assert.match((await cli(['packages', 'list', '--account', 'acme'])).stdout, /no packages of its own/);
    const added = await cli(['packages', 'add', '--account', 'acme', '--name', 'Mailer', '--length', '12', '--width', '9', '--height', '3', '--max-weight', '10', '--default']);
    assert.equal(added.code, 0, added.stderr);
    const listed = await cli(['packages', 'list', '--account', 'acme']);
    assert.match(listed.stdout, new RegExp(`${added.stdout.trim()}\\s+Mailer\\s+12 × 9 × 3 in\\s+up to 10 lb\\s+default`));
  });
});

describe('settings', () => {
  test('a bad setting stops start-up with one line naming it', async () => {
    for (const [env, message] of [
      [{ PORT: 'eighty' }, /^shipd: invalid setting PORT: must be a whole number from 0 to 65535 \(got "eighty"\)$/],
      [{ DATABASE_URL: 'mysql://x' }, /^shipd: invalid setting DATABASE_URL: must start with postgres:\/\/, postgresql:\/\/ or sqlite:$/],
      [{ SHIPD_FEATURES: 'batches,teleport' }, /^shipd: invalid setting SHIPD_FEATURES: unknown feature "teleport"/],
      [{ SHIPD_LOG_LEVEL: 'loud' }, /^shipd: invalid setting SHIPD_LOG_LEVEL/],
      [{ SHIPD_SECRET: 'short' }, /^shipd: invalid setting SHIPD_SECRET: must be at least 32 characters long$/],
      [{ UPS_BASE_URL: 'ftp://ups' }, /^shipd: invalid setting UPS_BASE_URL/],
    ] as const) {
      const out = await cli(['migrate'], env);
      assert.equal(out.code, 1, JSON.stringify(env));
      assert.match(out.stderr.trim(), message);
      assert.equal(out.stderr.trim().split('\n').length, 1);
    }
  });

  test("an unknown SHIPD_ variable in the environment, such as the README's SHIPD_KEY, is one warning naming the nearest setting, never a refusal", async () => {
    const out = await cli(['migrate'], { SHIPD_KEY: 'svc_test_x', SHIPD_FEATURE: 'batches' });
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(out.stderr.trim().split('\n'), [
      'shipd: warning: SHIPD_FEATURE is not a shipd setting and is ignored (did you mean SHIPD_FEATURES?)',
      'shipd: warning: SHIPD_KEY is not a shipd setting and is ignored (did you mean SHIPD_API_KEY?)',
    ]);
  });

  test('migrate is idempotent', async () => {
    const out = await cli(['migrate']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /up to date/);
  });
});

describe('data files', () => {
  const parent = mkdtempSync(join(tmpdir(), 'shipd-modes-'));
  const dataDir = join(parent, 'data');
  after(() => rmSync(parent, { recursive: true, force: true }));
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
  const files = ['secret', 'shipd.db', 'shipd.db-wal', 'shipd.db-shm', 'labels/shp_modes.pdf'];
  const modes = () => Object.fromEntries([[dataDir, mode(dataDir)], ['labels', mode(join(dataDir, 'labels'))], ...files.map((f) => [f, mode(join(dataDir, f))])]);
  const private_ = { [dataDir]: '700', labels: '700', ...Object.fromEntries(files.map((f) => [f, '600'])) };

  test('only the user shipd runs as can read what it writes (data dir 0700, files 0600), under the usual umask', async () => {
    const umask = process.umask(0o022);
    try {
      const services = await createServices(loadConfig({ SHIPD_DATA_DIR: dataDir }));
      await services.labels.put(services.database.db, 'shp_modes', 'pdf', Buffer.from('%PDF-'), new Date().toISOString());
      assert.deepEqual(modes(), private_);
      await services.close();
    } finally {
      process.umask(umask);
    }
  });

  test('shipd worker makes private, and says so, what an older shipd left readable by others', async () => {
    // Closing the database removed its -wal and -shm files; the worker makes them again, with the database's mode.
    const left = files.filter((f) => !f.startsWith('shipd.db-'));
    for (const dir of [dataDir, join(dataDir, 'labels')]) chmodSync(dir, 0o755);
    for (const file of left) chmodSync(join(dataDir, file), 0o644);
    const worker = await startUntil(['worker'], { SHIPD_DATA_DIR: dataDir }, /"msg":"shipd worker is running"/);
    try {
      assert.deepEqual(modes(), private_);
    } finally {
      assert.equal(await worker.stop(), 0);
    }
    const line = worker.stdout.split('\n').find((l) => l.includes('made them private'));
    assert.ok(line, worker.stdout);
    assert.equal(JSON.parse(line).narrowed, 2 + left.length);
  });
});
