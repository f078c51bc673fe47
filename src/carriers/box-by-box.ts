import { evenShares } from '../kernel/shares.ts';
import { boxKey, type BoughtBox, type CarrierResult, type LabelRef, type ParcelSpec, type PurchasedLabel, type PurchaseRequest, type VoidOutcome } from './carrier.ts';

/** One box of a purchase sold box by box: its parcel, its own idempotency key and its share of the quote. */
export interface BoxAsk {
  parcel: ParcelSpec;
  idempotencyKey: string;
  quotedCents: number;
}

type OneLabel = Omit<PurchasedLabel, 'packages' | 'masterTrackingNumber'>;

/**
 * Several boxes bought from a carrier that sells one label per call (USPS): box after box, each under a key derived
 * from the purchase's (boxKey), so that a purchase retried after a crash between boxes gets back the boxes already
 * sold and buys only the rest. A box the carrier refuses voids the ones bought before it and fails the whole: the
 * client gets every box or none.
 */
export async function buyBoxByBox(
  request: PurchaseRequest,
  buyOne: (box: BoxAsk, index: number) => Promise<CarrierResult<OneLabel>>,
  voidOne: (label: LabelRef, signal: AbortSignal) => Promise<CarrierResult<VoidOutcome>>,
  signal: AbortSignal,
): Promise<CarrierResult<PurchasedLabel>> {
  const n = request.parcels.length;
  // The quote is for the whole shipment; each box asks for its share.
  const quoted = evenShares(request.quotedCents, n);
  const bought: OneLabel[] = [];
  for (const [index, parcel] of request.parcels.entries()) {
    const one = await buyOne({ parcel, idempotencyKey: boxKey(request.idempotencyKey, index), quotedCents: quoted[index]! }, index);
    if (one.ok) {
      bought.push(one.value);
      continue;
    }
    // A time-out leaves the box undecided: the purchase stays pending and is asked again under the same keys.
    if (one.error.code === 'carrier_timeout') return one;
    const unvoided: string[] = [];
    for (const label of bought) {
      const undone = await voidOne({ trackingNumber: label.trackingNumber, carrierShipmentId: label.carrierShipmentId, service: request.service, purchasedAt: request.shipDate }, signal);
      if (!undone.ok) unvoided.push(`${label.trackingNumber} (${undone.error.detail})`);
    }
    const undo = bought.length === 0 ? '' : unvoided.length === 0 ? `; the ${bought.length} box(es) bought before it were voided` : `; these boxes bought before it could not be voided: ${unvoided.join(', ')}`;
    return { ok: false, error: { code: one.error.code, detail: `box ${index + 1} of ${n}: ${one.error.detail}${undo}` } };
  }
  const packages: BoughtBox[] = bought.map((b) => ({ trackingNumber: b.trackingNumber, carrierShipmentId: b.carrierShipmentId, postageCents: b.postageCents, ...(b.file && { file: b.file }) }));
  const first = bought[0]!;
  return {
    ok: true,
    value: {
      trackingNumber: first.trackingNumber,
      carrierShipmentId: first.carrierShipmentId,
      packages,
      postageCents: bought.reduce((sum, b) => sum + b.postageCents, 0),
      currency: first.currency,
      ...(first.file && { file: first.file }),
    },
  };
}
