import type { TrackingStatus } from '../carrier.ts';

/**
 * FedEx's tracking status codes in our vocabulary: every code of FedEx's "Tracking Status Codes" list (its Movement
 * and Regulatory tables, as copied in karrioapi/karrio modules/connectors/fedex/vendor/Tracking-Status-Codes.html,
 * commit 0f7414f080232b0095b6d64a36085d5b669e4bd8), which scanEvents[].eventType and latestStatusDetail.code carry,
 * and the coarser derived codes FedEx answers in derivedStatusCode / derivedCode that the list leaves out (IN
 * "Initiated" / "Label created", RL "Running Late"). The list's Possession table (CA carrier, RC recipient, SH
 * shipper, CU customs, BR broker, TP transfer partner) names who holds a parcel, not its status, and is not here:
 * its CA and RC would clash with the movement codes.
 *
 * Exceptions and delays stay in_transit: FedEx tries again after them, and `failure` is final here, so it would stop
 * the polling of a parcel that is still moving.
 */
export const fedexStatuses: Readonly<Record<string, TrackingStatus>> = {
  // Before FedEx holds the parcel.
  OC: 'pre_transit', // Order Created
  IN: 'pre_transit', // derived: Initiated (label created)
  AP: 'pre_transit', // At Pickup
  EP: 'pre_transit', // Enroute to Pickup
  DS: 'pre_transit', // Vehicle Dispatched
  DR: 'pre_transit', // Vehicle furnished but not used
  PD: 'pre_transit', // Pickup Delay
  RP: 'pre_transit', // Return label link emailed to return sender
  RG: 'pre_transit', // Return label link expiring soon
  // Moving.
  PU: 'in_transit', // Picked Up
  PX: 'in_transit', // Picked up (see Details)
  AA: 'in_transit', // At Airport
  AC: 'in_transit', // At Canada Post facility
  AD: 'in_transit', // At Delivery
  AF: 'in_transit', // At local FedEx Facility
  AO: 'in_transit', // Shipment arriving On-time
  AR: 'in_transit', // Arrived at FedEx location
  AX: 'in_transit', // At USPS facility
  CH: 'in_transit', // Location Changed
  DP: 'in_transit', // Departed
  EA: 'in_transit', // Enroute to Airport; in the Regulatory table, Export Approved
  EO: 'in_transit', // Enroute to Origin Airport
  FD: 'in_transit', // At FedEx Destination
  IT: 'in_transit', // In Transit
  IX: 'in_transit', // In transit (see Details)
  LO: 'in_transit', // Left Origin
  OF: 'in_transit', // At FedEx origin facility
  OW: 'in_transit', // On the way
  OX: 'in_transit', // Shipment information sent to USPS
  PF: 'in_transit', // Plane in Flight
  PL: 'in_transit', // Plane Landed
  PM: 'in_transit', // In Progress
  SF: 'in_transit', // At Sort Facility
  SP: 'in_transit', // Split Status
  TR: 'in_transit', // Transfer
  RR: 'in_transit', // CDO (custom delivery option) requested
  RM: 'in_transit', // CDO Modified
  RC: 'in_transit', // CDO Cancelled
  CC: 'in_transit', // Cleared Customs
  CD: 'in_transit', // Clearance Delay
  CP: 'in_transit', // Clearance in Progress
  DD: 'in_transit', // Delivery Delay
  DE: 'in_transit', // Delivery Exception
  DY: 'in_transit', // Delay
  SE: 'in_transit', // Shipment Exception
  RL: 'in_transit', // derived: Running Late
  // About to arrive, or arrived.
  OD: 'out_for_delivery', // Out for Delivery
  ED: 'out_for_delivery', // Enroute to Delivery
  DL: 'delivered', // Delivered
  HL: 'available_for_pickup', // Hold at Location
  HP: 'available_for_pickup', // Ready for Recipient Pickup
  RS: 'return_to_sender', // Return to Shipper
  CA: 'cancelled', // Shipment Cancelled
  LP: 'cancelled', // Return label link cancelled by shipment originator
  RD: 'cancelled', // Return label link expired
};

function lookup(code: string | undefined): TrackingStatus | undefined {
  const key = code?.trim().toUpperCase();
  return key && Object.hasOwn(fedexStatuses, key) ? fedexStatuses[key] : undefined;
}

/**
 * Our status from FedEx's codes, the most precise first: an event's own type (or the latest status's code) says
 * more than the derived code FedEx groups it under (OD "on vehicle for delivery" is derived IT, in transit).
 */
export function fedexStatus(...codes: (string | undefined)[]): TrackingStatus {
  for (const code of codes) {
    const status = lookup(code);
    if (status) return status;
  }
  return 'unknown';
}
