import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import { KeyStore } from '../src/domain/accounts/key-store.ts';
import { watchKeyChanges, type KeyChangeWatcher } from '../src/db/key-changes.ts';
import { createApiKey, revokeApiKey, rollApiKey } from '../src/domain/accounts/api-keys.ts';
import { generateKeySecret } from '../src/domain/accounts/api-key-format.ts';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer;
let watcher: KeyChangeWatcher;
let store: KeyStore;
let lookups = 0;

/** Counts the queries the key store sends. */
const counter: KyselyPlugin = {
  transformQuery(args) {
    lookups++;
    return args.node;
  },
  transformResult: async (args) => args.result,
};

before(async () => {
  server = await startServer();
  watcher = watchKeyChanges(server.services.database);
  store = new KeyStore(server.services.database.db.withPlugin(counter), watcher, server.clock);
  // The PostgreSQL watcher vouches for the cache once its LISTEN is up.
  for (let i = 0; i < 100 && watcher.version() === null; i++) await new Promise((r) => setTimeout(r, 20));
});
after(async () => {
  await watcher.close();
  await server.close();
});

const admin = () => ({ db: server.services.database.db, kind: server.services.database.kind, clock: server.clock });

/** Waits until the watcher has seen the change (at once on SQLite; a notification's hop on PostgreSQL). */
async function settle(before: number | null): Promise<void> {
  for (let i = 0; i < 100 && watcher.version() === before; i++) await new Promise((r) => setTimeout(r, 5));
}

test('a busy key costs one lookup, not one per request', async () => {
  const version = watcher.version();
  const { secret } = await createApiKey(admin(), await server.account(), 'test', server.config.maxKeysPerAccount);
  await settle(version);
  lookups = 0;
  for (let i = 0; i < 500; i++) assert.equal((await store.authenticate(secret)).ok, true);
  assert.equal(lookups, 1);
});

test('unknown and mistyped keys are answered without a lookup per try', async () => {
  const unknown = generateKeySecret('test').secret;
  lookups = 0;
  for (let i = 0; i < 100; i++) assert.deepEqual(await store.authenticate(unknown), { ok: false, code: 'unknown_api_key' });
  assert.equal(lookups, 1);
  const typo = unknown.slice(0, -1) + (unknown.endsWith('a') ? 'b' : 'a');
  for (let i = 0; i < 100; i++) assert.equal((await store.authenticate(typo)).ok, false);
  assert.equal(lookups, 1, 'a checksum failure never reaches the database');
});

test('a revocation empties the cache at once', async () => {
  const created = await createApiKey(admin(), await server.account(), 'test', server.config.maxKeysPerAccount);
  assert.equal((await store.authenticate(created.secret)).ok, true);
  const version = watcher.version();
  await revokeApiKey(admin(), created.key.id);
  await settle(version);
  assert.deepEqual(await store.authenticate(created.secret), { ok: false, code: 'revoked_api_key' });
});

test('a key created after a cached miss works at once', async () => {
  const account = await server.account();
  const first = await createApiKey(admin(), account, 'test', server.config.maxKeysPerAccount);
  const version = watcher.version();
  const rolled = await rollApiKey(admin(), first.key.id, 0);
  await settle(version);
  assert.deepEqual(await store.authenticate(first.secret), { ok: false, code: 'expired_api_key' });
  assert.equal((await store.authenticate(rolled.secret)).ok, true);
});
