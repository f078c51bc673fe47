import type { TrackingStatus } from '../carrier.ts';

/**
 * `eventCode` of a tracking event → our status. tracking.yaml 3.2.6 (TrackingEvent.eventCode) refers to USPS
 * Publication 199, Appendix G-4 "USPS Domestic Tracking Scan Events". That appendix is not among the stored
 * sources; its codes were read from what reproduces it: the USPS Customer Daily Extract event table with the
 * usps.com status category of each code (online.documentine.com copy, "Last update 8/6/2017"), the G-4 code list
 * of the Perl module USPS::WebTools::Tracking::Codes, eHub's tracking event table for the pre-shipment codes
 * (app.theneo.io/ehub), and the codes carriers.md 3.5 saw in a real answer (A1, T1, TL).
 *
 * Only delivered, return_to_sender and failure end tracking (domain/tracking/tracking.ts), so they are given to events USPS
 * treats as the end of the way out: a delivery, a return to the sender, the dead-letter office. Delivery attempts
 * and alerts keep the parcel moving. A code not here is `unknown`, which tracking keeps polling.
 */
export const eventStatuses: Readonly<Record<string, TrackingStatus>> = {
  // Electronic information only: a label exists, USPS does not have the item yet.
  GX: 'pre_transit', // Shipping Label Created, USPS Awaiting Item
  MA: 'pre_transit', // Manifest Acknowledgement (pre-shipment information sent to USPS)
  '89': 'pre_transit', // Merchant Order Receipt Notification, USPS Awaiting Item
  GC: 'pre_transit', // Return Receipt Associated

  // In USPS's (or its shipping partner's) hands, on the way.
  '03': 'in_transit', // Accept or Pickup
  OA: 'in_transit', // Origin Acceptance
  AD: 'in_transit', // Acceptance at Destination
  UA: 'in_transit', // Accepted at USPS Facility
  PA: 'in_transit', // Passive Acceptance ("Shipment Acceptance")
  TM: 'in_transit', // Shipment Received, Package Acceptance Pending
  '83': 'in_transit', // Tendered to Postal Service
  '80': 'in_transit', // Picked Up by Shipping Partner
  '81': 'in_transit', // Arrived Shipping Partner Facility
  '82': 'in_transit', // Departed Shipping Partner Facility
  '42': 'in_transit', // USPS Handoff to Shipping Partner
  '10': 'in_transit', // Processed (Arrived at USPS Regional Origin Facility)
  PC: 'in_transit', // Sorting / Processing Complete
  SF: 'in_transit', // Departed Post Office
  EF: 'in_transit', // Departed Sort Facility
  A1: 'in_transit', // Arrived at USPS Regional Facility
  T1: 'in_transit', // Departed USPS Regional Facility
  TL: 'in_transit', // In Transit to Next Facility
  '19': 'in_transit', // DC eVS Arrive
  '41': 'in_transit', // Received at Opening Unit
  '07': 'in_transit', // Arrival at Unit
  '06': 'in_transit', // Forwarded
  '08': 'in_transit', // Missent
  '15': 'in_transit', // Mis-shipped
  '71': 'in_transit', // Rescheduled to Next Delivery Day
  '30': 'in_transit', // Delivery Attempted - No Access to Delivery Location (delivered another day)
  '51': 'in_transit', // Business Closed (delivered another day)
  DX: 'in_transit', // Delivery Status Not Updated (an alert, not an end)

  OF: 'out_for_delivery', // Out for Delivery

  '01': 'delivered', // Delivered
  '17': 'delivered', // Picked Up By Agent
  '43': 'delivered', // Picked Up (at the Post Office)

  // A notice was left and the item waits at the Post Office, or the item reached a pickup point.
  '02': 'available_for_pickup', // Notice Left
  '52': 'available_for_pickup', // Notice Left
  '53': 'available_for_pickup', // Notice Left (Receptacle Blocked)
  '54': 'available_for_pickup', // Notice Left (Receptacle Full / Item Oversized)
  '55': 'available_for_pickup', // Notice Left (No Secure Location Available)
  '56': 'available_for_pickup', // Notice Left (No Authorized Recipient Available)
  '14': 'available_for_pickup', // Arrival at Pickup Point
  '16': 'available_for_pickup', // Available for Pickup

  '04': 'return_to_sender', // Refused
  '05': 'return_to_sender', // Undeliverable as Addressed
  '09': 'return_to_sender', // Return to Sender
  '21': 'return_to_sender', // No Such Number
  '22': 'return_to_sender', // Insufficient Address
  '23': 'return_to_sender', // Moved, Left No Address
  '24': 'return_to_sender', // Forward Expired
  '25': 'return_to_sender', // Addressee Unknown
  '26': 'return_to_sender', // Vacant
  '27': 'return_to_sender', // Unclaimed
  '28': 'return_to_sender', // Deceased
  '29': 'return_to_sender', // Other (returned)
  '31': 'return_to_sender', // Not Picked Up
  '44': 'return_to_sender', // Customer Recall

  '11': 'failure', // Dead Letter: neither deliverable nor returnable, sent to the Mail Recovery Center
};

/**
 * `statusCategory` of the whole shipment (the usps.com status category of the Customer Daily Extract table) →
 * our status. "Alert" is left out on purpose: it covers delays and missing scans as well as returns, so the
 * latest event's code decides. Anything else is `unknown`, and the latest event decides too.
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
  'delivery attempt: action needed': 'available_for_pickup',
  'return to sender': 'return_to_sender',
};

export function eventStatus(code: string | undefined): TrackingStatus {
  const key = code?.trim().toUpperCase();
  return (key !== undefined && Object.hasOwn(eventStatuses, key) ? eventStatuses[key] : undefined) ?? 'unknown';
}

export function categoryStatus(category: string | undefined): TrackingStatus {
  const key = category?.trim().toLowerCase();
  return (key !== undefined && Object.hasOwn(categoryStatuses, key) ? categoryStatuses[key] : undefined) ?? 'unknown';
}
