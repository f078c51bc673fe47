import type { Config } from './config.ts';
import type { Context } from './domain/core/context.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { watchKeyChanges, type KeyChangeWatcher } from './db/key-changes.ts';
import { KeyStore } from './domain/accounts/key-store.ts';
import { systemClock, type Clock } from './kernel/clock.ts';
import { RateStore } from './domain/rating/rate-store.ts';
import { labelStoreFor, type LabelStore } from './domain/label-files/label-store.ts';
import { labelRenderer, type LabelRenderer } from './labels/render-pool.ts';
import { sealPlaintextStoredAnswers, sealPlaintextWebhookSecrets } from './events/webhook-secrets.ts';

/** A domain context without a caller: what jobs work with, and what a request adds its principal to. */
export function serviceContext(services: Services, requestId: string): Omit<Context, 'principal'> {
  return {
    db: services.database.db,
    dbKind: services.database.kind,
    clock: services.clock,
    config: services.config,
    requestId,
    rateStore: services.rateStore,
    labels: services.labels,
    renderer: services.renderer,
  };
}

/** Everything long-lived that the HTTP layer, the worker and the CLI share in one process. */
export interface Services {
  config: Config;
  database: Database;
  clock: Clock;
  keys: KeyStore;
  rateStore: RateStore;
  labels: LabelStore;
  renderer: LabelRenderer;
  /** True once migrations have run in this process. */
  ready: boolean;
  close(): Promise<void>;
}

export async function createServices(config: Config, clock: Clock = systemClock): Promise<Services> {
  const database = openDatabase(config, { checkpointThread: true });
  let watcher: KeyChangeWatcher | undefined;
  try {
    await migrate(database);
    await sealPlaintextWebhookSecrets(database.db, config.secret);
    await sealPlaintextStoredAnswers(database.db, config.secret);
    watcher = watchKeyChanges(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  const w = watcher;
  const renderer = labelRenderer(config.renderThreads);
  return {
    config,
    database,
    clock,
    keys: new KeyStore(database.db, w, clock),
    rateStore: new RateStore(database.db, database.kind),
    labels: labelStoreFor(database, config.dataDir, renderer),
    renderer,
    ready: true,
    close: async () => {
      await w.close();
      await database.close();
    },
  };
}
