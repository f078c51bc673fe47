import type { Kysely } from 'kysely';
import type { DB, TrackersTable } from '../../db/schema.ts';
import type { ProofOfDelivery } from '../../carriers/carrier.ts';
import type { Tracker } from '../../schemas/tracker.ts';
import { ApiError } from '../../kernel/errors.ts';
import { hasPrefix } from '../../kernel/ids.ts';
import type { Context } from '../core/context.ts';
import { callCarrier } from '../carrier-accounts/carrier-call.ts';
import type { CarrierAccess } from '../carrier-accounts/carrier-access.ts';
import type { ProofFormat } from '../label-files/label-store.ts';
import { checkLabelToken } from '../label-files/label-tokens.ts';
import { carrierPace } from './carrier-pace.ts';
import { proofKey, type StoredProof } from './tracker-rows.ts';
import { trackerCarrier } from './trackers.ts';
import type { TrackingContext } from './tracking.ts';

/** Trackers one pass of the proofs worker takes; a full batch means more may be due. */
export const proofBatch = 50;
/** A tracker whose proofs are being asked for is not taken by another worker for this long. */
const claimLeaseMs = 60_000;
/** A carrier that fails is asked again after 2, 4, 8… minutes; after this many failures the tracker goes without. */
const maxAttempts = 6;

/** The file's kind, from its bytes' signature where the carrier names none (UPS's Tracking.yaml names none). */
function formatOf(proof: ProofOfDelivery, bytes: Buffer): { format: ProofFormat; contentType: string } {
  const head = bytes.subarray(0, 8);
  if (proof.contentType === 'application/pdf' || head.subarray(0, 5).toString('latin1') === '%PDF-') return { format: 'pdf', contentType: 'application/pdf' };
  if (proof.contentType === 'image/png' || head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { format: 'png', contentType: 'image/png' };
  if (proof.contentType === 'image/gif' || head.subarray(0, 4).toString('latin1') === 'GIF8') return { format: 'gif', contentType: 'image/gif' };
  return { format: 'bin', contentType: 'application/octet-stream' };
}

/** What the proofs are asked for with: the delivery as shipd recorded it. */
function delivered(row: TrackersTable) {
  const events = JSON.parse(row.events) as Tracker['events'];
  const scan = events.findLast((e) => e.status === 'delivered') ?? null;
  return { trackingNumber: row.tracking_number, signedBy: row.signed_by, deliveredAt: scan ? new Date(scan.occurred_at) : null, place: scan?.location ?? null };
}

const settle = (db: Kysely<DB>, id: string, change: Partial<Pick<TrackersTable, 'proof_of_delivery' | 'proof_due_at' | 'proof_attempts' | 'updated_at'>>) =>
  db.updateTable('trackers').set(change).where('id', '=', id).execute();

/**
 * The proofs worker's pass: takes the delivered trackers whose proofs are due (holding each for a minute), asks each
 * one's carrier for them off the tracking path (a carrier call of their own, as they make a large answer), keeps
 * the files in the label store and lists them on the tracker. A carrier that publishes no such call, or has no
 * proof, leaves the list empty; one that fails is asked again later, backing off, and given up on after a few tries.
 * Live calls are made within the carrier's pace, as the trackers worker's are. Returns how many it took.
 */
export async function fetchProofs(ctx: TrackingContext, log: { warn(o: object, m: string): void }, limit = proofBatch): Promise<number> {
  const now = ctx.clock.now();
  let due = ctx.db.selectFrom('trackers').select('id').where('proof_due_at', '<=', now.toISOString()).orderBy('proof_due_at').limit(limit);
  if (ctx.dbKind === 'postgres') due = due.forUpdate().skipLocked();
  const rows = await ctx.db
    .updateTable('trackers')
    .set({ proof_due_at: new Date(now.getTime() + claimLeaseMs).toISOString() })
    .where('id', 'in', due)
    .returningAll()
    .execute();
  const accesses = new Map<string, Promise<CarrierAccess>>();
  const pace = carrierPace(ctx.clock, ctx.config);
  for (const row of rows) {
    const at = ctx.clock.now();
    const { carrier, lane } = await trackerCarrier(ctx, row, accesses);
    if (!carrier.proofOfDelivery) {
      await settle(ctx.db, row.id, { proof_of_delivery: '[]', proof_due_at: null });
      continue;
    }
    const paced = row.mode === 'live';
    if (paced && !pace.take(lane, carrier.id, at.getTime())) {
      await settle(ctx.db, row.id, { proof_due_at: new Date(pace.readyAt(lane, carrier.id, at.getTime())).toISOString() });
      continue;
    }
    const answer = await callCarrier(carrier, ctx.config.carrierTimeoutMs, (signal) => carrier.proofOfDelivery!(delivered(row), signal));
    if (!answer.ok) {
      if (paced) pace.failed(lane, carrier.id, ctx.clock.now().getTime(), answer.error.retryAfterMs);
      const attempts = row.proof_attempts + 1;
      const givenUp = attempts >= maxAttempts;
      log.warn({ tracker_id: row.id, carrier: carrier.id, error: answer.error, attempts, given_up: givenUp }, 'could not fetch the proofs of delivery');
      await settle(ctx.db, row.id, givenUp ? { proof_of_delivery: '[]', proof_due_at: null, proof_attempts: attempts } : { proof_attempts: attempts, proof_due_at: new Date(at.getTime() + 60_000 * 2 ** attempts).toISOString() });
      continue;
    }
    if (paced) pace.succeeded(lane);
    const stored: StoredProof[] = [];
    const written = ctx.clock.now().toISOString();
    for (const proof of answer.value) {
      if (proof.content === undefined) continue;
      const bytes = Buffer.from(proof.content, 'base64');
      if (bytes.length === 0) continue;
      const { format, contentType } = formatOf(proof, bytes);
      await ctx.labels.put(ctx.db, proofKey(row.id, stored.length + 1), format, bytes, written);
      stored.push({ type: proof.type, content_type: contentType, format });
    }
    await settle(ctx.db, row.id, { proof_of_delivery: JSON.stringify(stored), proof_due_at: null, proof_attempts: 0, ...(stored.length > 0 && { updated_at: written }) });
  }
  return rows.length;
}

const contentTypes: Record<ProofFormat, string> = { pdf: 'application/pdf', png: 'image/png', gif: 'image/gif', bin: 'application/octet-stream' };

/**
 * The file behind a proof's link: GET /labels/{trk_id}.pod{n}.{format}?token=…, signed for the tracker as a label's
 * link is for its shipment, so it needs no API key. 404 for a proof the tracker does not have.
 */
export async function proofFile(ctx: Pick<Context, 'db' | 'labels' | 'config' | 'clock'>, id: string, n: number, format: ProofFormat, token: string): Promise<{ bytes: Buffer; contentType: string }> {
  const check = hasPrefix(id, 'trk') ? checkLabelToken(ctx.config.secret, id, token, ctx.clock.now()) : 'invalid';
  if (check !== 'valid') throw new ApiError('invalid_label_token', check === 'expired' ? 'This link has expired; GET the tracker for a fresh one' : 'This link is not valid');
  const row = await ctx.db.selectFrom('trackers').select(['id', 'proof_of_delivery']).where('id', '=', id).executeTakeFirst();
  const proof = (JSON.parse(row?.proof_of_delivery ?? '[]') as StoredProof[])[n - 1];
  const bytes = proof?.format === format ? await ctx.labels.get(proofKey(id, n), format) : undefined;
  if (!bytes) throw new ApiError('not_found', `Tracker ${id} has no proof of delivery ${n} as ${format}`);
  return { bytes, contentType: contentTypes[format] };
}
