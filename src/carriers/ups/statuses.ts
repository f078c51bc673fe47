import type { TrackingStatus } from '../carrier.ts';

/**
 * What a UPS tracking status means in our vocabulary. The activity type (carriers.md 2.6, "Package Activity
 * Types") is coarse: `I` covers both on the way and out for delivery. The 3-digit statusCode tells those apart,
 * and a few descriptions carry states no code separates (returns, pick-up points). Precedence: description,
 * then statusCode, then type; `unknown` when none matches.
 */
export const upsStatusByType: Readonly<Record<string, TrackingStatus>> = {
  M: 'pre_transit',
  MV: 'cancelled',
  P: 'in_transit',
  I: 'in_transit',
  D: 'delivered',
  X: 'failure',
  RS: 'return_to_sender',
  NA: 'unknown',
  U: 'unknown',
  // Freight: delivered to the origin or destination terminal, and warehousing; still on the way to the consignee.
  DO: 'in_transit',
  DD: 'in_transit',
  W: 'in_transit',
};

export const upsStatusByCode: Readonly<Record<string, TrackingStatus>> = {
  '003': 'pre_transit',
  '005': 'in_transit',
  '010': 'in_transit',
  '038': 'in_transit',
  '006': 'out_for_delivery',
  '021': 'out_for_delivery',
  '011': 'delivered',
  '013': 'failure',
  '007': 'cancelled',
};

export const upsStatusByDescription: readonly (readonly [RegExp, TrackingStatus])[] = [
  [/return(ed|ing)? to (the )?(sender|shipper)/i, 'return_to_sender'],
  [/access point|ready for (customer )?pick ?up|available for pick ?up/i, 'available_for_pickup'],
];

export function upsTrackingStatus(s: { type?: string; code?: string; description?: string }): TrackingStatus {
  const byDescription = s.description ? upsStatusByDescription.find(([re]) => re.test(s.description!)) : undefined;
  if (byDescription) return byDescription[1];
  if (s.code && Object.hasOwn(upsStatusByCode, s.code)) return upsStatusByCode[s.code]!;
  if (s.type && Object.hasOwn(upsStatusByType, s.type)) return upsStatusByType[s.type]!;
  return 'unknown';
}
