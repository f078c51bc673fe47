import type { TrackingStatus } from '../carrier.ts';

/**
 * `eventCode` of a tracking event → our status. The first block is the codes carriers.md 3.5 saw in a real answer;
 * the second is further Pub 199 Appendix G-4 codes as commonly cited, unverified like the rest of that list
 * (carriers.md 9). Anything else is `unknown`.
 */
export const eventStatuses: Readonly<Record<string, TrackingStatus>> = {
  GX: 'pre_transit',
  '03': 'in_transit',
  SF: 'in_transit',
  '10': 'in_transit',
  T1: 'in_transit',
  TL: 'in_transit',
  A1: 'in_transit',
  '07': 'in_transit',
  OF: 'out_for_delivery',
  '01': 'delivered',

  MA: 'pre_transit',
  '80': 'in_transit',
  '02': 'available_for_pickup',
  '16': 'available_for_pickup',
  '04': 'return_to_sender',
  '09': 'return_to_sender',
  '05': 'failure',
};

/**
 * `statusCategory` of the whole shipment → our status. "Delivered" and "Pre-Shipment" are seen in real answers;
 * the others are the unverified rest of the category list (carriers.md 3.5). Anything else is `unknown`.
 */
export const categoryStatuses: Readonly<Record<string, TrackingStatus>> = {
  'pre-shipment': 'pre_transit',
  accepted: 'in_transit',
  'in transit': 'in_transit',
  'out for delivery': 'out_for_delivery',
  delivered: 'delivered',
  'available for pickup': 'available_for_pickup',
  // A delivery attempt leaves a notice and the item waits at the Post Office for the recipient.
  'delivery attempt': 'available_for_pickup',
  'return to sender': 'return_to_sender',
  alert: 'failure',
};

export function eventStatus(code: string | undefined): TrackingStatus {
  return (code !== undefined && Object.hasOwn(eventStatuses, code) ? eventStatuses[code] : undefined) ?? 'unknown';
}

export function categoryStatus(category: string | undefined): TrackingStatus {
  const key = category?.trim().toLowerCase();
  return (key !== undefined && Object.hasOwn(categoryStatuses, key) ? categoryStatuses[key] : undefined) ?? 'unknown';
}
