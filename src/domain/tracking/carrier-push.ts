import { carrierIds, type CarrierId } from '../../config.ts';
import type { CarrierResult, TrackingResult } from '../../carriers/carrier.ts';
import { parseUpsPush, upsPushAuthentic } from '../../carriers/ups/track-push.ts';
import { parseUspsPush, uspsPushAuthentic } from '../../carriers/usps/track-push.ts';
import { fedexPushAuthentic, parseFedexPush } from '../../carriers/fedex/track-push.ts';
import { ApiError } from '../../kernel/errors.ts';
import { inTransaction } from '../core/transaction.ts';
import { recordCheck } from './trackers.ts';
import type { TrackingContext } from './tracking.ts';

type Headers = Record<string, string | string[] | undefined>;

/** A pushed number and what its carrier told of it. */
interface Told {
  trackingNumber: string;
  result: TrackingResult;
}

/** Whatever is refused is refused alike: the reason is for the log, never a secret, and the answer tells a prober nothing. */
const refuse = (carrier: string, reason: string) => new ApiError('carrier_event_unverified', `The ${carrier.toUpperCase()} event was not accepted: ${reason}`);

function json(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

const told = (carrier: string, parsed: CarrierResult<Told | Told[]>): Told[] => {
  if (!parsed.ok) throw refuse(carrier, `not a notification of the form the carrier publishes (${parsed.error.detail})`);
  return [parsed.value].flat();
};

/**
 * A notification checked as its carrier authenticates it (see carriers/<carrier>/track-push.ts for each scheme and
 * its source) and read: UPS's credential header first, then the body; USPS's HMAC over the body's timestamp and
 * payload; FedEx's HMAC over the raw body. Throws carrier_event_unverified for anything unauthenticated or
 * malformed, and for a carrier whose secret is not configured (nothing could be verified).
 */
export function verifiedPush(config: TrackingContext['config'], carrier: string, raw: Buffer, headers: Headers): Told[] {
  if (!(carrierIds as readonly string[]).includes(carrier)) throw new ApiError('route_not_found', `No carrier ${carrier}: carrier events are posted to ups, usps or fedex`);
  const push = config.carrierPush;
  if (carrier === 'ups') {
    if (!push.ups) throw refuse(carrier, 'UPS_TRACK_ALERT_CREDENTIAL is not set');
    if (!upsPushAuthentic(headers.credential, push.ups.credential)) throw refuse(carrier, 'the credential header is missing or wrong');
    return told(carrier, parseUpsPush(json(raw)));
  }
  if (carrier === 'usps') {
    if (!push.usps) throw refuse(carrier, 'USPS_TRACKING_SECRET is not set');
    const body = json(raw);
    if (!uspsPushAuthentic(body, headers, push.usps.secret)) throw refuse(carrier, 'X-HMAC is missing or does not verify over timestamp and payload');
    return told(carrier, parseUspsPush(body));
  }
  if (!push.fedex) throw refuse(carrier, 'FEDEX_WEBHOOK_SECURITY_TOKEN is not set');
  if (!fedexPushAuthentic(raw, headers['fdx-signature'], push.fedex.securityToken)) throw refuse(carrier, 'fdx-signature is missing or does not verify over the body');
  return told(carrier, parseFedexPush(json(raw)));
}

/**
 * A pushed journey applied to every live tracker following the number with that carrier, each key's on its own:
 * an external tracker records it as a check (merged by scan identity, so the poll that later tells the same scans
 * adds nothing, and neither does the push told again); a label's tracker is written with its label by the
 * shipments' tracking worker, so the label is made due now instead, and that worker asks the carrier at once.
 * Stopped trackers, and test-mode ones (a carrier knows only real parcels), are not touched. Returns how many
 * trackers it reached.
 */
export async function applyPush(ctx: TrackingContext, carrier: CarrierId, { trackingNumber, result }: Told): Promise<number> {
  const at = ctx.clock.now().toISOString();
  const rows = await ctx.db
    .selectFrom('trackers')
    .selectAll()
    .where('carrier', '=', carrier)
    .where('tracking_number', '=', trackingNumber)
    .where('mode', '=', 'live')
    .where('deleted_at', 'is', null)
    .execute();
  let reached = 0;
  for (const row of rows) {
    if (row.origin === 'label') {
      if (row.shipment_id === null) continue;
      // Only a label still tracked: an ended or voided one has no next check and stays so.
      const due = await ctx.db.updateTable('shipments').set({ tracking_next_check_at: at }).where('id', '=', row.shipment_id).where('tracking_next_check_at', 'is not', null).executeTakeFirst();
      if (Number(due.numUpdatedRows) === 1) reached++;
      continue;
    }
    // A poll or another push may write the tracker between the read and the write; the write's guard then refuses
    // it, and the journey is merged again with what that writer recorded.
    let current: typeof row | undefined = row;
    for (let attempt = 0; current && attempt < 5; attempt++) {
      const written = await inTransaction(ctx.db, (trx) => recordCheck(ctx, trx, current!, result, false));
      if (written) {
        reached++;
        break;
      }
      current = await ctx.db.selectFrom('trackers').selectAll().where('id', '=', row.id).where('deleted_at', 'is', null).executeTakeFirst();
    }
  }
  return reached;
}

/** POST /carrier-events/{carrier}: verifies and applies one notification; answers how many trackers it reached. */
export async function receiveCarrierEvent(ctx: TrackingContext, carrier: string, raw: Buffer, headers: Headers): Promise<{ numbers: number; trackers: number }> {
  const pushed = verifiedPush(ctx.config, carrier, raw, headers);
  let trackers = 0;
  for (const p of pushed) trackers += await applyPush(ctx, carrier as CarrierId, p);
  return { numbers: pushed.length, trackers };
}
