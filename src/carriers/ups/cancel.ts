import { failure, ok, type CarrierResult, type VoidOutcome } from '../carrier.ts';
import { asArray, asString, at } from '../live/lenient.ts';
import { apiVersion, type UpsCall } from './wire.ts';

/**
 * Void by the shipment's 1Z id; no body (carriers.md 2.5). With `packages`, those packages of a multi-piece shipment
 * alone: Shipping.yaml's `trackingnumber` query, where "You may have up to 20 different tracking numbers listed. If
 * more than one tracking number, pass this value as: trackingnumber= ["1Z…","1Z…"] with a coma separating each
 * number", each "Alpha-numeric. Must pass 1Z rules. Must be upper case. Length 18" (UPS-API/api-documentation at
 * 66148b9223b2daf9ec87f449aa482c39b4bd3a4e, 2026-07-21). A shipment holds at most maxBoxes (20) boxes.
 */
export function buildVoidRequest(shipmentId: string, packages?: readonly string[]): UpsCall {
  const numbers = packages?.map((n) => n.toUpperCase());
  return {
    path: `/api/shipments/${apiVersion}/void/cancel/${encodeURIComponent(shipmentId.toUpperCase())}`,
    ...(numbers && { query: { trackingnumber: numbers.length === 1 ? numbers[0]! : `[${numbers.map((n) => JSON.stringify(n)).join(',')}]` } }),
  };
}

/**
 * Status "1" means voided (UPS says the same for one already voided); a package-level "0" means UPS kept it,
 * which in practice is a parcel already in its network. UPS refunds a void in full on the next invoice. The answer to
 * a one-package void is read the same way: its PackageLevelResults name that package alone.
 */
export function parseVoidResponse(json: unknown): CarrierResult<VoidOutcome> {
  const response = at(json, 'VoidShipmentResponse');
  if (response === undefined) return failure('carrier_error', 'UPS void answer has no VoidShipmentResponse');
  const summary = asString(at(response, 'SummaryResult', 'Status', 'Code'));
  const results = asArray(at(response, 'PackageLevelResults'));
  const numbersOf = (code: string) => results.filter((p) => asString(at(p, 'Status', 'Code')) === code).map((p) => asString(at(p, 'TrackingNumber')) ?? '?');
  const kept = numbersOf('0');
  if (kept.length > 0) {
    // Packages are answered one by one: those UPS did void are void there, and refunded on its invoice, however the
    // rest went, so they go back with the failure for shipd to record.
    const voided = numbersOf('1');
    const also = voided.length > 0 ? `; it did void ${voided.join(', ')}` : '';
    const detail = `UPS did not void ${kept.join(', ')}; the package is already in its network${also}`;
    return { ok: false, error: { code: 'label_in_transit', detail, ...(voided.length > 0 && { voided: voided.map((trackingNumber) => ({ trackingNumber, outcome: 'refunded' as const })) }) } };
  }
  if (summary === '1') return ok('refunded');
  const said = asString(at(response, 'SummaryResult', 'Status', 'Description')) ?? `status ${summary ?? '(none)'}`;
  return failure('carrier_error', `UPS void answer: ${said}`);
}
