import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, unknownSettingWarnings } from './config.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'shipd-config-'));

test('defaults: SQLite under the data dir, port 8080, a generated secret kept across starts', () => {
  const dataDir = dir();
  const config = loadConfig({ SHIPD_DATA_DIR: dataDir });
  assert.equal(config.port, 8080);
  assert.deepEqual(config.database, { kind: 'sqlite', file: join(dataDir, 'shipd.db') });
  assert.equal(config.publicUrl, 'http://localhost:8080');
  assert.equal(config.secret, readFileSync(join(dataDir, 'secret'), 'utf8').trim());
  assert.equal(loadConfig({ SHIPD_DATA_DIR: dataDir }).secret, config.secret);
  assert.equal(config.carriers.ups.baseUrl, 'https://onlinetools.ups.com');
});

test('postgres URLs, features and carrier settings are read', () => {
  const config = loadConfig({
    SHIPD_DATA_DIR: dir(),
    DATABASE_URL: 'postgres://u@127.0.0.1:5432/shipd',
    SHIPD_FEATURES: 'batches, pickups',
    UPS_CLIENT_ID: 'id',
    UPS_BASE_URL: 'http://127.0.0.1:9000/',
    SHIPD_WEBHOOKS_ALLOW_INSECURE: 'true',
  });
  assert.equal(config.database.kind, 'postgres');
  assert.deepEqual([...config.features], ['batches', 'pickups']);
  assert.equal(config.carriers.ups.clientId, 'id');
  assert.equal(config.carriers.ups.baseUrl, 'http://127.0.0.1:9000');
  assert.equal(config.webhooksAllowInsecure, true);
});

test('SHIPD_WEBHOOKS_PORTS lists the ports webhook URLs may use: 443 and 8443 unless set', () => {
  assert.deepEqual([...loadConfig({ SHIPD_DATA_DIR: dir() }).webhookPorts], [443, 8443]);
  assert.deepEqual([...loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_WEBHOOKS_PORTS: '443, 9443' }).webhookPorts], [443, 9443]);
  for (const bad of ['0', '443,x', '70000', ',']) assert.throws(() => loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_WEBHOOKS_PORTS: bad }), /SHIPD_WEBHOOKS_PORTS/);
});

test('USPS_CRID, USPS_MID and USPS_MANIFEST_MID are read for USPS only, in the formats USPS publishes', () => {
  const config = loadConfig({ SHIPD_DATA_DIR: dir(), USPS_CRID: ' 56781234 ', USPS_MID: '927000001', USPS_MANIFEST_MID: '123456' });
  assert.deepEqual([config.carriers.usps.crid, config.carriers.usps.mid, config.carriers.usps.manifestMid], ['56781234', '927000001', '123456']);
  assert.equal(config.carriers.ups.crid, undefined);
  const unset = loadConfig({ SHIPD_DATA_DIR: dir() }).carriers.usps;
  assert.deepEqual([unset.crid, unset.mid, unset.manifestMid], [undefined, undefined, undefined]);
  assert.throws(() => loadConfig({ SHIPD_DATA_DIR: dir(), USPS_MID: '12345' }), /invalid setting USPS_MID: must be a USPS Mailer ID \(MID\) of 6 or 9 digits \(got "12345"\)/);
});

test('a config file sets the same names, and the environment overrides it', () => {
  const d = dir();
  const file = join(d, 'shipd.json');
  writeFileSync(file, JSON.stringify({ PORT: 9000, SHIPD_LOG_LEVEL: 'warn', SHIPD_DATA_DIR: d }));
  const config = loadConfig({ PORT: '9100' }, file);
  assert.equal(config.port, 9100);
  assert.equal(config.logLevel, 'warn');
  writeFileSync(file, JSON.stringify({ PROT: 9000 }));
  assert.throws(() => loadConfig({}, file), (e: ConfigError) => e.setting === 'PROT');
  writeFileSync(file, '{nope');
  assert.throws(() => loadConfig({}, file), (e: ConfigError) => e.setting === '--config');
});

test('each bad value names its setting', () => {
  const cases: Record<string, string>[] = [
    { PORT: '-1' },
    { PORT: '70000' },
    { SHIPD_RATE_LIMIT_BURST: '0' },
    { SHIPD_WEBHOOKS_ALLOW_INSECURE: 'maybe' },
    { SHIPD_PUBLIC_URL: 'not a url' },
    { DATABASE_URL: 'sqlite:' },
    { USPS_CRID: '1' },
    { USPS_CRID: 'CRID-5678' },
    { USPS_CRID: '1234567890123456789' },
    { USPS_MID: '12345' },
    { USPS_MID: '1234567' },
    { USPS_MANIFEST_MID: '12345678' },
  ];
  for (const env of cases) {
    const [name] = Object.keys(env);
    assert.throws(() => loadConfig({ SHIPD_DATA_DIR: dir(), ...env }), (e: ConfigError) => e.setting === name && e.message.startsWith(`invalid setting ${name}:`));
  }
});

test('test-mode tracking runs a simulated day per real minute unless SHIPD_SIM_TRACKING_SPEED says otherwise', () => {
  assert.deepEqual(loadConfig({ SHIPD_DATA_DIR: dir() }).simAccountDiscounts, {});
  assert.deepEqual(loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_SIM_UPS_DISCOUNT: '40', SHIPD_SIM_FEDEX_DISCOUNT: '0' }).simAccountDiscounts, { ups: 0.4, fedex: 0 });
  assert.throws(() => loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_SIM_UPS_DISCOUNT: '95' }), /SHIPD_SIM_UPS_DISCOUNT: must be a whole number from 0 to 90/);
  assert.throws(() => loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_SIM_FEDEX_DISCOUNT: '12.5' }), /SHIPD_SIM_FEDEX_DISCOUNT/);
  assert.equal(loadConfig({ SHIPD_DATA_DIR: dir() }).simFirstScanAfterMs, 15 * 60_000);
  assert.equal(loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_SIM_FIRST_SCAN_MINUTES: '0' }).simFirstScanAfterMs, 0);
  assert.throws(() => loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_SIM_FIRST_SCAN_MINUTES: '1441' }), /SHIPD_SIM_FIRST_SCAN_MINUTES/);
  assert.equal(loadConfig({ SHIPD_DATA_DIR: dir() }).simTrackingSpeed, 1440);
  assert.equal(loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_SIM_TRACKING_SPEED: '1' }).simTrackingSpeed, 1);
  assert.equal(loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_SIM_TRACKING_SPEED: '1000000' }).simTrackingSpeed, 1_000_000);
  for (const bad of ['0', '1000001', '1.5', 'fast']) {
    assert.throws(() => loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_SIM_TRACKING_SPEED: bad }), (e: ConfigError) => e.setting === 'SHIPD_SIM_TRACKING_SPEED');
  }
});

test('REDIS_URL shares rate limits; a bad one is refused without echoing its password', () => {
  assert.equal(loadConfig({ SHIPD_DATA_DIR: dir() }).redis, undefined);
  assert.deepEqual(loadConfig({ SHIPD_DATA_DIR: dir(), REDIS_URL: 'rediss://:pw@cache:6380/2' }).redis, { url: 'rediss://:pw@cache:6380/2', prefix: 'shipd:' });
  assert.equal(loadConfig({ SHIPD_DATA_DIR: dir(), REDIS_URL: 'redis://cache', SHIPD_REDIS_PREFIX: 'eu:' }).redis?.prefix, 'eu:');
  for (const env of [{ REDIS_URL: 'http://:secretpw@cache' }, { REDIS_URL: 'redis://cache', SHIPD_REDIS_PREFIX: 'a b' }]) {
    assert.throws(
      () => loadConfig({ SHIPD_DATA_DIR: dir(), ...env }),
      (e: ConfigError) => e.setting === Object.keys(env).at(-1) && !e.message.includes('secretpw'),
    );
  }
});

test('unknown SHIPD_ variables of the environment are warnings naming the nearest setting; loading still succeeds', () => {
  const env = { SHIPD_DATA_DIR: dir(), SHIPD_KEY: 'svc_test_x', SHIPD_LOGLEVEL: 'debug', SHIPD_API_KEY: 'k', UNRELATED: '1' };
  assert.deepEqual(unknownSettingWarnings(env), [
    'warning: SHIPD_KEY is not a shipd setting and is ignored (did you mean SHIPD_API_KEY?)',
    'warning: SHIPD_LOGLEVEL is not a shipd setting and is ignored (did you mean SHIPD_LOG_LEVEL?)',
  ]);
  assert.equal(loadConfig(env).logLevel, 'info');
});

test('tracking rate windows default to what each carrier publishes, and can be set as calls/seconds windows', () => {
  const defaults = loadConfig({ SHIPD_DATA_DIR: dir() }).trackingRateLimits;
  assert.deepEqual(defaults.fedex, [{ calls: 1400, perMs: 10_000 }, { calls: 100_000, perMs: 86_400_000 }]);
  const set = loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_UPS_TRACKING_RATE: '10/1, 1000/3600' }).trackingRateLimits;
  assert.deepEqual(set.ups, [{ calls: 10, perMs: 1_000 }, { calls: 1_000, perMs: 3_600_000 }]);
  assert.deepEqual(set.usps, defaults.usps);
  assert.throws(() => loadConfig({ SHIPD_DATA_DIR: dir(), SHIPD_USPS_TRACKING_RATE: '60 per hour' }), /SHIPD_USPS_TRACKING_RATE/);
});

test('the trackers worker settings are known settings, not warned about', () => {
  const env = { SHIPD_FEDEX_TRACKING_RATE: '1400/10', SHIPD_TRACKING_BACKOFF_BASE_MS: '5000', SHIPD_TRACKING_BACKOFF_MAX_MS: '60000' };
  assert.deepEqual(unknownSettingWarnings(env), []);
  assert.deepEqual(loadConfig({ SHIPD_DATA_DIR: dir(), ...env }).trackingBackoff, { baseMs: 5_000, maxMs: 60_000 });
});
