import type { Logger } from 'pino';
import { serviceContext, type Services } from '../services.ts';
import { IdempotencyStore } from '../domain/core/idempotency.ts';
import { JobRunner, type RunnerOptions } from './runner.ts';
import { pendingStaleMs, reconcilePending } from '../domain/shipments/purchase.ts';
import { settleCardCharges } from '../domain/billing/card-charges.ts';
import { pollTracking, trackingBatch } from '../domain/tracking/tracking.ts';
import { pollTrackers, trackerPollBatch } from '../domain/tracking/trackers.ts';
import { subscribeDue, subscriptionBatch } from '../domain/tracking/carrier-subscriptions.ts';
import { fetchProofs, proofBatch } from '../domain/tracking/proofs.ts';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../events/delivery-worker.ts';
import { batchJob } from '../domain/ops/batches.ts';
import { reconcilePendingPickups } from '../domain/ops/pickups.ts';
import { reconcileManifests } from '../domain/ops/manifests.ts';
import { runBatchRound } from '../domain/ops/batch-run.ts';
import { deleteEndedLoginFailures } from '../domain/dashboard/sign-in.ts';

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
      'pickups.reconcile': async () => {
        await reconcilePendingPickups(serviceContext(services, 'job:pickups.reconcile'), log);
      },
      'manifests.reconcile': async () => {
        await reconcileManifests(serviceContext(services, 'job:manifests.reconcile'), log);
      },
      'billing.settle': async () => {
        // Only what a request left unsettled for longer than a purchase can take, so it never races the request.
        await settleCardCharges({ db: services.database.db, clock: services.clock, config: services.config }, pendingStaleMs(services), log);
      },
      'tracking.poll': async () => {
        // Keep going while a pass finds a full batch: a backlog is worked off now, not one batch a second.
        while ((await pollTracking(serviceContext(services, 'job:tracking.poll'), log)) === trackingBatch);
      },
      'trackers.poll': async () => {
        while ((await pollTrackers(serviceContext(services, 'job:trackers.poll'), log)) === trackerPollBatch);
      },
      'trackers.subscribe': async () => {
        const deps = { db: services.database.db, config: services.config, clock: services.clock };
        while ((await subscribeDue(deps, log)) === subscriptionBatch);
      },
      'trackers.proofs': async () => {
        while ((await fetchProofs(serviceContext(services, 'job:trackers.proofs'), log)) === proofBatch);
      },
      [batchJob]: async (payload) => {
        const { batch_id, round } = payload as { batch_id: string; round: number };
        await runBatchRound(serviceContext(services, `job:${batchJob}`), batch_id, round, { concurrency: services.config.batchConcurrency, roundMs: batchRoundMs }, log);
      },
      'rates.cleanup': async () => {
        const removed = await services.rateStore.deleteExpired(services.clock.now());
        if (removed > 0) log.info({ removed }, 'forgot expired rate shops');
      },
      'login-failures.cleanup': async () => {
        const removed = await deleteEndedLoginFailures(services.database.db, services.clock.now());
        if (removed > 0) log.info({ removed }, 'forgot ended runs of failed dashboard sign-ins');
      },
    },
    [
      { name: 'idempotency.cleanup', everyMs: 3_600_000 },
      { name: 'rates.cleanup', everyMs: 3_600_000 },
      // Every email guessed at from every address leaves a row; a run ends 15 minutes after its last failure, so a
      // flood's rows are gone within half an hour of it.
      { name: 'login-failures.cleanup', everyMs: 900_000 },
      // Often enough that a purchase cut off by a crash is finished within seconds of becoming stale.
      { name: 'purchases.reconcile', everyMs: 5_000 },
      // As often: a manifest cut off while its carrier made its forms is finished soon after its hold ends.
      { name: 'manifests.reconcile', everyMs: 5_000 },
      // As often: a hold on a card for a label that was never bought is let go of within seconds of the purchase's end.
      { name: 'billing.settle', everyMs: 5_000 },
      // A pickup cut off by a crash is found at its carrier (or booked) within seconds of becoming stale, as a purchase is.
      { name: 'pickups.reconcile', everyMs: 5_000 },
      // Labels say when they next change (simulated ones exactly), so a second's poll finds each change within a second.
      { name: 'tracking.poll', everyMs: 1_000 },
      // Numbers bought elsewhere say when they next change as labels do; a stopped or ended one is not in the queue.
      { name: 'trackers.poll', everyMs: 1_000 },
      // Live numbers are subscribed with their carriers within seconds of being followed, off the request's path.
      { name: 'trackers.subscribe', everyMs: 5_000 },
      // A delivered parcel's proofs are asked for within seconds of its delivery being recorded.
      { name: 'trackers.proofs', everyMs: 5_000 },
    ],
    services.clock,
    log,
    { leaseMs: services.config.jobLeaseMs, ...options },
    [delivery],
  );
}
