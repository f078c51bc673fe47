import type { Kysely } from 'kysely';
import { carrierIds, type CarrierId, type Config } from '../../config.ts';
import type { CarrierSubscriptionsTable, DB } from '../../db/schema.ts';
import type { Carrier, TrackingListener } from '../../carriers/carrier.ts';
import { carriersFor } from '../../carriers/registry.ts';
import type { Clock } from '../../kernel/clock.ts';
import { apiBase } from '../../kernel/paths.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';

/** Where a carrier posts its tracking notifications: set in each subscription (UPS, USPS) or FedEx's project. */
export const carrierEventsPath = (carrier: CarrierId): string => `${apiBase}/carrier-events/${carrier}`;

/** Subscriptions one pass of the worker takes; a full batch means more may be due. */
export const subscriptionBatch = 200;
/** A subscription being made is not taken by another worker for this long. */
const claimLeaseMs = 60_000;
/** A failed attempt is tried again after a minute, doubling up to six hours, so a carrier that is down is not hammered. */
const retryMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3_600_000);
/** A subscription that lapses (UPS's after 14 days) is made again this long before, while a live tracker follows the number. */
const renewBeforeMs = 86_400_000;

interface Deps {
  db: Kysely<DB>;
  config: Config;
  clock: Clock;
}

/** What a carrier's subscriptions carry back to shipd, or why there are none. */
function listenerOf(config: Config, carrier: CarrierId): TrackingListener | string {
  const url = config.publicUrl + carrierEventsPath(carrier);
  const push = config.carrierPush;
  if (carrier === 'ups') return push.ups ? { url, secret: push.ups.credential } : 'UPS_TRACK_ALERT_CREDENTIAL is not set';
  if (carrier === 'usps') return push.usps ? { url, secret: push.usps.secret, adminEmail: push.usps.adminEmail } : 'USPS_TRACKING_SECRET is not set';
  return push.fedex
    ? 'FedEx publishes no API to subscribe a number; its pushes cover the numbers of the webhook project set up in its portal'
    : 'FedEx publishes no API to subscribe a number, and FEDEX_WEBHOOK_SECURITY_TOKEN is not set';
}

/**
 * The hook called after a live tracker is written (an external one, or a label's): asks the worker to subscribe the
 * number with its carrier, off the request's path. Idempotent: a number already subscribed, or waiting to be, stays
 * as it is; one left idle when nobody followed it any more, or whose subscription lapsed, is taken up again.
 */
export async function subscribeLater(db: Kysely<DB>, carrier: string, trackingNumber: string, at: string): Promise<void> {
  if (!(carrierIds as readonly string[]).includes(carrier)) return;
  await db
    .insertInto('carrier_subscriptions')
    .values({ carrier, tracking_number: trackingNumber, state: 'pending', subscription_id: null, attempts: 0, next_attempt_at: at, subscribed_at: null, expires_at: null, last_error: null, created_at: at, updated_at: at })
    .onConflict((oc) =>
      oc
        .columns(['carrier', 'tracking_number'])
        .doUpdateSet({ state: 'pending', attempts: 0, next_attempt_at: at, updated_at: at })
        .where('carrier_subscriptions.next_attempt_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('carrier_subscriptions.state', 'in', ['pending', 'unsubscribed']),
            eb.and([eb('carrier_subscriptions.expires_at', 'is not', null), eb('carrier_subscriptions.expires_at', '<', at)]),
          ]),
        ),
    )
    .execute();
}

/** Whether a live tracker still follows the number: a stopped one, or one whose journey ended, needs no pushes. */
async function followed(db: Kysely<DB>, carrier: string, trackingNumber: string): Promise<boolean> {
  const row = await db
    .selectFrom('trackers')
    .select('id')
    .where('carrier', '=', carrier)
    .where('tracking_number', '=', trackingNumber)
    .where('mode', '=', 'live')
    .where('deleted_at', 'is', null)
    .where('next_check_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

type Change = Partial<Omit<CarrierSubscriptionsTable, 'carrier' | 'tracking_number' | 'created_at'>>;

/**
 * Ends the subscription of a number nobody follows any more, with the carrier's published call where it has one
 * (USPS); one that fails is tried again later. Where the carrier has none (UPS Track Alert ends only a whole
 * account's subscriptions), the subscription is left to lapse and is not made again, and last_error says why.
 */
async function unsubscribe(
  deps: Deps,
  log: { warn(o: object, m: string): void },
  carrier: Carrier,
  row: CarrierSubscriptionsTable,
  write: (row: CarrierSubscriptionsTable, change: Change) => Promise<unknown>,
  now: Date,
): Promise<void> {
  if (!carrier.unsubscribeTracking || row.subscription_id === null) {
    const lapses = row.expires_at ? ` at ${row.expires_at}` : '';
    await write(row, { next_attempt_at: null, last_error: `nobody follows the number; ${carrier.name} publishes no call to end one number's subscription, so it lapses${lapses}` });
    return;
  }
  const id = row.subscription_id;
  const answer = await callCarrier(carrier, deps.config.carrierTimeoutMs, (signal) => carrier.unsubscribeTracking!(id, signal));
  if (answer.ok) {
    await write(row, { state: 'unsubscribed', subscription_id: null, attempts: 0, next_attempt_at: null, expires_at: null, last_error: null });
    return;
  }
  const attempts = row.attempts + 1;
  log.warn({ carrier: carrier.id, tracking_number: row.tracking_number, code: answer.error.code, detail: answer.error.detail }, 'could not end a tracking subscription');
  await write(row, { attempts, next_attempt_at: new Date(now.getTime() + retryMs(attempts)).toISOString(), last_error: `${answer.error.code}: ${answer.error.detail}` });
}

/**
 * Makes the subscription of a number due now, when the tracker just stopped was the last live one following it, so
 * the worker ends it (unsubscribe) off the request's path.
 */
export async function unsubscribeLater(db: Kysely<DB>, carrier: string, trackingNumber: string, at: string): Promise<void> {
  if (await followed(db, carrier, trackingNumber)) return;
  await db.updateTable('carrier_subscriptions').set({ next_attempt_at: at, attempts: 0, updated_at: at }).where('carrier', '=', carrier).where('tracking_number', '=', trackingNumber).where('state', '=', 'subscribed').execute();
}

/**
 * The subscriptions worker's pass: takes the numbers due (holding each for a minute, so other workers skip it) and
 * subscribes them with their carriers in the batches each takes. A carrier that fails is tried again later, backing
 * off; a number it refuses, or a carrier without a published subscription API or without the setting its pushes are
 * checked with, is marked unsupported (its trackers are polled as before). Returns how many it took.
 */
export async function subscribeDue(deps: Deps, log: { warn(o: object, m: string): void }, limit = subscriptionBatch): Promise<number> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const lease = new Date(now.getTime() + claimLeaseMs).toISOString();
  const due = await deps.db.selectFrom('carrier_subscriptions').selectAll().where('next_attempt_at', '<=', at).orderBy('next_attempt_at').limit(limit).execute();
  const taken: CarrierSubscriptionsTable[] = [];
  for (const row of due) {
    const claim = await deps.db
      .updateTable('carrier_subscriptions')
      .set({ next_attempt_at: lease })
      .where('carrier', '=', row.carrier)
      .where('tracking_number', '=', row.tracking_number)
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 1) taken.push(row);
  }
  const write = (row: CarrierSubscriptionsTable, change: Change) =>
    deps.db.updateTable('carrier_subscriptions').set({ ...change, updated_at: at }).where('carrier', '=', row.carrier).where('tracking_number', '=', row.tracking_number).execute();

  const carriers = carriersFor('live', deps.config, deps.clock);
  const byCarrier = new Map<CarrierId, CarrierSubscriptionsTable[]>();
  for (const row of taken) {
    if (!(await followed(deps.db, row.carrier, row.tracking_number))) {
      // Nobody follows it now; subscribeLater takes it up again if someone does.
      if (row.state === 'subscribed') await unsubscribe(deps, log, carriers[row.carrier as CarrierId], row, write, now);
      else await write(row, { next_attempt_at: null });
      continue;
    }
    const carrier = row.carrier as CarrierId;
    byCarrier.set(carrier, [...(byCarrier.get(carrier) ?? []), row]);
  }
  for (const [id, rows] of byCarrier) {
    const carrier = carriers[id];
    const listener = listenerOf(deps.config, id);
    if (typeof listener === 'string' || !carrier.subscribeTracking || !carrier.usable) {
      const reason = typeof listener === 'string' ? listener : `${carrier.name} takes no tracking subscriptions through shipd`;
      for (const row of rows) await write(row, { state: 'unsupported', next_attempt_at: null, last_error: reason });
      continue;
    }
    const size = carrier.trackingSubscriptionBatch ?? 1;
    for (let i = 0; i < rows.length; i += size) {
      const group = rows.slice(i, i + size);
      const answer = await callCarrier(carrier, deps.config.carrierTimeoutMs, (signal) => carrier.subscribeTracking!(group.map((r) => r.tracking_number), listener, signal));
      if (!answer.ok) {
        log.warn({ carrier: id, numbers: group.length, code: answer.error.code, detail: answer.error.detail }, 'could not subscribe tracking numbers');
        for (const row of group) {
          const attempts = row.attempts + 1;
          await write(row, { attempts, next_attempt_at: new Date(now.getTime() + retryMs(attempts)).toISOString(), last_error: `${answer.error.code}: ${answer.error.detail}` });
        }
        continue;
      }
      const { subscribed, refused, expiresAt } = answer.value;
      for (const row of group) {
        const made = subscribed.find((s) => s.trackingNumber === row.tracking_number);
        if (made) {
          await write(row, {
            state: 'subscribed',
            subscription_id: made.subscriptionId,
            attempts: row.attempts + 1,
            subscribed_at: at,
            expires_at: expiresAt?.toISOString() ?? null,
            next_attempt_at: expiresAt ? new Date(expiresAt.getTime() - renewBeforeMs).toISOString() : null,
            last_error: null,
          });
        } else if (refused.includes(row.tracking_number)) {
          await write(row, { state: 'unsupported', next_attempt_at: null, last_error: `${carrier.name} refused to subscribe the number` });
        } else {
          const attempts = row.attempts + 1;
          await write(row, { attempts, next_attempt_at: new Date(now.getTime() + retryMs(attempts)).toISOString(), last_error: `${carrier.name} did not say whether it subscribed the number` });
        }
      }
    }
  }
  return taken.length;
}
