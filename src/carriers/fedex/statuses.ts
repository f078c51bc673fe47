import type { TrackingStatus } from '../carrier.ts';

/**
 * FedEx tracking status codes (latestStatusDetail.code / derivedCode, scanEvents[].eventType / derivedStatusCode;
 * carriers.md 4.6) in our vocabulary. Exceptions and delays stay in_transit: FedEx tries again after them, and
 * `failure` is final here, so it would stop the polling of a parcel that is still moving.
 */
export const fedexStatuses: Readonly<Record<string, TrackingStatus>> = {
  OC: 'pre_transit',
  PU: 'in_transit',
  AR: 'in_transit',
  DP: 'in_transit',
  IT: 'in_transit',
  AF: 'in_transit',
  FD: 'in_transit',
  SF: 'in_transit',
  OX: 'in_transit',
  DE: 'in_transit',
  SE: 'in_transit',
  DY: 'in_transit',
  DD: 'in_transit',
  CD: 'in_transit',
  OD: 'out_for_delivery',
  DL: 'delivered',
  HL: 'available_for_pickup',
  HP: 'available_for_pickup',
  CA: 'cancelled',
  RS: 'return_to_sender',
};

export function fedexStatus(code: string | undefined): TrackingStatus {
  if (code === undefined) return 'unknown';
  const key = code.toUpperCase();
  return Object.hasOwn(fedexStatuses, key) ? fedexStatuses[key]! : 'unknown';
}
