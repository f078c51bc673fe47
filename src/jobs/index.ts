import type { Logger } from 'pino';
import type { Services } from '../services.ts';
import { IdempotencyStore } from '../domain/idempotency.ts';
import { JobRunner, type RunnerOptions } from './runner.ts';
import { reconcilePending } from '../domain/purchase.ts';

/** Every job shipd runs, and the recurring ones. */
export function createJobRunner(services: Services, log: Logger, options?: RunnerOptions): JobRunner {
  const idempotency = new IdempotencyStore(services.database.db, services.clock);
  return new JobRunner(
    services.database,
    {
      'idempotency.cleanup': async () => {
        const removed = await idempotency.deleteExpired();
        if (removed > 0) log.info({ removed }, 'forgot expired idempotency keys');
      },
      'purchases.reconcile': async () => {
        const ctx = {
          db: services.database.db,
          dbKind: services.database.kind,
          clock: services.clock,
          config: services.config,
          requestId: 'job:purchases.reconcile',
          rateStore: services.rateStore,
          labels: services.labels,
        };
        await reconcilePending(ctx, log);
      },
      'rates.cleanup': async () => {
        const removed = await services.rateStore.deleteExpired(services.clock.now());
        if (removed > 0) log.info({ removed }, 'forgot expired rate shops');
      },
    },
    [
      { name: 'idempotency.cleanup', everyMs: 3_600_000 },
      { name: 'rates.cleanup', everyMs: 3_600_000 },
      // Often enough that a purchase cut off by a crash is finished within seconds of becoming stale.
      { name: 'purchases.reconcile', everyMs: 5_000 },
    ],
    services.clock,
    log,
    options,
  );
}
