import type { Logger } from 'pino';
import { serviceContext, type Services } from '../services.ts';
import { IdempotencyStore } from '../domain/core/idempotency.ts';
import { JobRunner, type RunnerOptions } from './runner.ts';
import { reconcilePending } from '../domain/shipments/purchase.ts';
import { pollTracking, trackingBatch } from '../domain/tracking/tracking.ts';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../events/delivery-worker.ts';
import { batchJob } from '../domain/ops/batches.ts';
import { runBatchRound } from '../domain/ops/batch-run.ts';

/** How long a batch round starts purchases before handing over to the next round, so other jobs get their turn. */
const batchRoundMs = 10_000;

/** Every job shipd runs, the recurring ones, and the webhook delivery worker beside them. */
export function createJobRunner(
  services: Services,
  log: Logger,
  options?: RunnerOptions & { delivery?: Omit<DeliveryWorkerOptions, 'allowInsecure' | 'ports' | 'secret'> },
): JobRunner {
  const idempotency = new IdempotencyStore(services.database.db, services.clock);
  const delivery = new DeliveryWorker(services.database, services.clock, log.child({ component: 'webhooks' }), {
    ...options?.delivery,
    allowInsecure: services.config.webhooksAllowInsecure,
    ports: services.config.webhookPorts,
    secret: services.config.secret,
  });
  return new JobRunner(
    services.database,
    {
      'idempotency.cleanup': async () => {
        const removed = await idempotency.deleteExpired();
        if (removed > 0) log.info({ removed }, 'forgot expired idempotency keys');
      },
      'purchases.reconcile': async () => {
        await reconcilePending(serviceContext(services, 'job:purchases.reconcile'), log);
      },
      'tracking.poll': async () => {
        // Keep going while a pass finds a full batch: a backlog is worked off now, not one batch a second.
        while ((await pollTracking(serviceContext(services, 'job:tracking.poll'), log)) === trackingBatch);
      },
      [batchJob]: async (payload) => {
        const { batch_id, round } = payload as { batch_id: string; round: number };
        await runBatchRound(serviceContext(services, `job:${batchJob}`), batch_id, round, { concurrency: services.config.batchConcurrency, roundMs: batchRoundMs }, log);
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
      // Labels say when they next change (simulated ones exactly), so a second's poll finds each change within a second.
      { name: 'tracking.poll', everyMs: 1_000 },
    ],
    services.clock,
    log,
    { leaseMs: services.config.jobLeaseMs, ...options },
    [delivery],
  );
}
