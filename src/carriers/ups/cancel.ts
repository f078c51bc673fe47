import { failure, ok, type CarrierResult, type VoidOutcome } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { apiVersion, type UpsCall } from './wire.ts';

/** Void by the shipment's 1Z id; no body (carriers.md 2.5). */
export function buildVoidRequest(shipmentId: string): UpsCall {
  return { path: `/api/shipments/${apiVersion}/void/cancel/${encodeURIComponent(shipmentId.toUpperCase())}` };
}

/**
 * Status "1" means voided (UPS says the same for one already voided); a package-level "0" means UPS kept it,
 * which in practice is a parcel already in its network. UPS refunds a void in full on the next invoice.
 */
export function parseVoidResponse(json: unknown): CarrierResult<VoidOutcome> {
  const response = at(json, 'VoidShipmentResponse');
  if (response === undefined) return failure('carrier_error', 'UPS void answer has no VoidShipmentResponse');
  const summary = asString(at(response, 'SummaryResult', 'Status', 'Code'));
  const kept = asArray(at(response, 'PackageLevelResults')).filter((p) => asString(at(p, 'Status', 'Code')) === '0');
  if (kept.length > 0) {
    const numbers = kept.map((p) => asString(at(p, 'TrackingNumber')) ?? '?').join(', ');
    return failure('label_in_transit', `UPS did not void ${numbers}; the package is already in its network`);
  }
  if (summary === '1') return ok('refunded');
  const said = asString(at(response, 'SummaryResult', 'Status', 'Description')) ?? `status ${summary ?? '(none)'}`;
  return failure('carrier_error', `UPS void answer: ${said}`);
}
