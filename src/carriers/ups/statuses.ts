import type { TrackingStatus } from '../carrier.ts';

/**
 * What UPS's tracking statuses mean in our vocabulary, from UPS's published Tracking API appendix tables "Package
 * Activity Types" and "Status/Description Codes" (developer.ups.com, Tracking API, API codes; read in the copies
 * karrioapi/karrio vendors as modules/connectors/ups/vendors/Tracking-package-activity-types.html and
 * Tracking-status-description-codes.html at commit 597cf2abe05ef0fca5d5dbaa4428031bc50c6329).
 *
 * Only outcomes are final (delivered, returned, cancelled, lost or destroyed): an exception such as a weather delay
 * or a missed delivery is a parcel still on its way, so it reads `in_transit` and tracking goes on.
 */

/** Activity type → status. The type is coarse: `I` is both on the way and out for delivery, `X` any exception. */
export const upsStatusByType: Readonly<Record<string, TrackingStatus>> = {
  D: 'delivered', // Delivered
  I: 'in_transit', // In Transit, Out for Delivery
  M: 'pre_transit', // Billing Information Received
  MV: 'cancelled', // Billing Information Voided
  X: 'in_transit', // Exception: a delay or a failed attempt, not an outcome
  DO: 'in_transit', // Delivered Origin CFS (Freight Only)
  DD: 'in_transit', // Delivered Destination CFS (Freight Only)
  W: 'in_transit', // Warehousing (Freight Only)
  NA: 'unknown', // Not Available
  U: 'unknown', // Updates (Track Alert API Only)
};

/**
 * Status/description code (the table lists them unpadded; the API sends statusCode zero-padded, "003") → status.
 * null where the text says nothing of where the parcel is (a claim, a photo, a test): the activity type decides.
 */
export const upsStatusByCode: Readonly<Record<string, TrackingStatus | null>> = {
  '0': null, // Status Not Available
  '3': 'pre_transit', // Shipment Ready for UPS
  '5': 'in_transit', // On the Way
  '6': 'out_for_delivery', // Out for Delivery
  '7': 'cancelled', // Shipment Information Voided
  '10': 'in_transit', // On the Way
  '11': 'delivered', // Delivered
  '12': 'in_transit', // Clearance in Progress
  '13': 'in_transit', // Exception
  '14': 'in_transit', // Clearance Completed
  '16': 'in_transit', // In Warehouse
  '17': 'available_for_pickup', // Held for Customer Pickup
  '18': 'in_transit', // Delivery Change Requested: Hold for Pickup
  '19': 'in_transit', // Held for Future Delivery
  '20': 'in_transit', // Held for Future Delivery Requested
  '21': 'out_for_delivery', // Out for Delivery
  '22': 'in_transit', // First Attempt Made
  '23': 'in_transit', // Second Delivery Attempted
  '24': 'in_transit', // Final Attempt Made
  '25': 'in_transit', // On the Way
  '26': 'delivered', // Delivered by Local Post Office
  '27': 'in_transit', // Delivery Address Change Requested
  '28': 'in_transit', // Delivery Address Changed
  '29': 'in_transit', // Exception: Action Required
  '30': 'in_transit', // Local Post Office Exception
  '32': 'in_transit', // Adverse Weather May Cause Delay
  '33': 'in_transit', // Return to Sender Requested
  '34': 'return_to_sender', // Returned to Sender
  '35': 'return_to_sender', // Returning to Sender
  '36': 'return_to_sender', // Returning to Sender: In Transit
  '37': 'out_for_delivery', // Out for Delivery
  '38': 'in_transit', // Picked Up by UPS
  '39': 'in_transit', // On the Way
  '40': 'available_for_pickup', // Ready for Customer Pickup
  '41': 'in_transit', // Service Upgrade Requested
  '42': 'in_transit', // Service Upgraded
  '43': null, // Voided Pickup
  '44': 'in_transit', // On the Way to UPS
  '45': 'in_transit', // On the Way to UPS
  '46': 'in_transit', // Delay
  '47': 'in_transit', // On the Way
  '48': 'in_transit', // Delay
  '49': 'in_transit', // Delay: Action Required
  '50': 'in_transit', // Address Information Required
  '51': 'in_transit', // Delay: Emergency Situation or Severe Weather
  '52': 'in_transit', // Delay: Severe Weather
  '53': 'in_transit', // Delay: Severe Weather
  '54': 'in_transit', // Delivery Change Requested
  '55': 'in_transit', // Rescheduled Delivery
  '56': 'in_transit', // Service Upgrade Requested
  '57': 'in_transit', // On the Way to a Local UPS Access Point
  '58': 'in_transit', // Clearance Information Required
  '59': 'in_transit', // Damage Reported
  '60': 'in_transit', // Delivery Attempted
  '61': 'in_transit', // Delivery Attempted: Adult Signature Required
  '62': 'in_transit', // Delivery Attempted: Funds Required
  '63': 'in_transit', // Delivery Change Completed
  '64': 'in_transit', // Delivery Refused
  '65': 'pre_transit', // Pickup Attempted
  '66': 'in_transit', // Post Office Delivery Attempted
  '67': 'return_to_sender', // Returned to Sender by Post Office
  '68': 'failure', // Sent to Lost and Found
  '69': 'in_transit', // Unable to Deliver
  '70': 'in_transit', // Package not at UPS Access Point yet
  '71': 'in_transit', // Preparing for Delivery
  '72': 'out_for_delivery', // Loaded on Delivery Vehicle
  '73': 'in_transit', // In Transit to UPS Delivery Partner
  '74': 'in_transit', // UPS Delivery Partner has Shipment
  '75': 'in_transit', // Scheduled for Delivery
  '76': 'in_transit', // UPS Delivery Partner Exception
  '77': 'pre_transit', // Scheduled for Pickup Today
  '78': 'out_for_delivery', // Your Driver is Arriving Soon!
  '79': 'pre_transit', // Order Processed: In Transit to UPS
  '80': 'pre_transit', // Order Processed: Ready for UPS
  '81': 'return_to_sender', // Returned - Damage Reported
  '82': 'in_transit', // Delivery Instructions Received
  '83': 'in_transit', // Held
  '84': 'in_transit', // Cleared
  '85': 'in_transit', // Held for COD Payment
  '86': 'in_transit', // Delay
  '87': 'in_transit', // On the Way
  '88': null, // Test
  '89': 'out_for_delivery', // Out for Delivery
  '90': 'in_transit', // Delay
  '91': 'out_for_delivery', // Out for Delivery
  '92': 'in_transit', // Customs Clearance in Progress
  '93': 'in_transit', // Premier Recovery In Progress
  '94': 'in_transit', // Premier Recovery Completed
  '95': 'in_transit', // Additional Attempt Requested
  '96': 'in_transit', // Address Change Confirmed
  '97': 'in_transit', // Address Change Requested
  '98': 'in_transit', // Deliver to Original Address Requested
  '99': 'in_transit', // Deliver to Original Address Confirmed
  '100': 'in_transit', // Hold at UPS Access Point Confirmed
  '101': 'in_transit', // Hold at UPS Access Point Requested
  '102': 'in_transit', // Hold for Courier Requested
  '103': 'in_transit', // Hold for Courier Confirmed
  '104': 'in_transit', // Hold for Instructions Confirmed
  '105': 'in_transit', // Hold for Instructions Requested
  '106': 'in_transit', // Hold for Pickup Confirmed
  '107': 'in_transit', // Hold for Pickup Requested
  '108': 'in_transit', // Hold for Pickup Today Confirmed
  '109': 'in_transit', // Hold for Pickup Today Requested
  '110': 'in_transit', // Refrigeration Confirmed
  '111': 'in_transit', // Refrigeration Requested
  '112': 'in_transit', // Re-Ice Confirmed
  '113': 'in_transit', // Re-Ice Requested
  '114': null, // Request Canceled
  '115': 'in_transit', // Reschedule Delivery Confirmed
  '116': 'in_transit', // Reschedule Delivery Requested
  '117': 'in_transit', // Return by Saturday Confirmed
  '118': 'in_transit', // Return to Sender Confirmed
  '119': 'in_transit', // Return to Sender Requested
  '120': 'in_transit', // Saturday Delivery Confirmed
  '121': 'in_transit', // Saturday Delivery Requested
  '122': 'in_transit', // Upgrade Confirmed
  '123': 'in_transit', // Pending Release From Non-UPS Broker
  '124': 'in_transit', // Clearance Information Needed
  '125': 'in_transit', // Clearance Information Needed
  '126': 'in_transit', // Pending Government Agency Release
  '127': null, // Investigation Closed
  '128': null, // Investigation Canceled
  '129': null, // Investigation Opened
  '130': null, // Claim in Progress
  '131': 'pre_transit', // Final Pickup Attempted
  '132': 'in_transit', // Airport Security Delay
  '133': null, // Return Label Left With Customer
  '134': 'in_transit', // Cleared Import Customs
  '135': 'pre_transit', // Second Pickup Attempted
  '136': 'in_transit', // Delivery Rescheduled for Saturday
  '137': 'in_transit', // Transferred to UPS Delivery Partner
  '138': 'in_transit', // Awaiting Scheduled Departure
  '139': 'in_transit', // Security Access Required
  '140': 'failure', // Claim Paid - Claim Payment Has Been Processed: UPS has settled the parcel as lost or damaged
  '141': 'in_transit', // Incomplete Documentation Received
  '142': null, // Claim Voided
  '143': 'delivered', // Delivered to Agent
  '144': 'available_for_pickup', // Delivered to Post Office for Pickup
  '145': 'in_transit', // Delivery Attempted
  '146': 'out_for_delivery', // Out for Delivery
  '147': 'failure', // Seized by Law Enforcement, No Longer in UPS possession
  '148': null, // Package Information Unavailable
  '149': 'failure', // Prohibited Contents, Package Destroyed No Longer in UPS possession
  '153': 'in_transit', // Updated Delivery Time
  '154': 'in_transit', // Updated Delivery Date
  '155': null, // Delivery Photo
  '156': null, // Commercial Inside Release
  '157': 'pre_transit', // Shipment Ready for UPS
  '158': 'in_transit', // On the Way
  '159': 'in_transit', // On the Way
  '160': 'in_transit', // We Have Your Package
  '161': 'available_for_pickup', // Delivered to UPS Access Point
  '162': 'out_for_delivery', // Out for Delivery
  '163': null, // Package Information Unavailable
  '164': 'in_transit', // On the Way
  '165': 'in_transit', // On the Way
  '166': 'pre_transit', // Shipment Ready for Roadie
  '167': 'in_transit', // Dropped off at UPS Store by Customer
  '168': 'in_transit', // Dropped off at Retail Location by Customer
  '169': 'in_transit', // Dropped off at a UPS Access Point by Customer
};

/** For an activity without a code we know: states its description names that its type alone cannot tell. */
export const upsStatusByDescription: readonly (readonly [RegExp, TrackingStatus])[] = [
  [/return(ed|ing)? to (the )?(sender|shipper)/i, 'return_to_sender'],
  [/out for delivery|on (the )?(delivery )?vehicle for delivery/i, 'out_for_delivery'],
  [/delivered to (a |the )?ups access point|ready for (customer )?pick ?up|held for (customer )?pick ?up/i, 'available_for_pickup'],
];

/** "003" and "3" are the same code: the API pads what the table lists bare. */
const codeKey = (code: string): string => (/^\d+$/.test(code) ? String(Number(code)) : code);

/** Precedence: the status code, which is the finest; then the description; then the activity type; else `unknown`. */
export function upsTrackingStatus(s: { type?: string; code?: string; description?: string }): TrackingStatus {
  const key = s.code === undefined ? undefined : codeKey(s.code);
  const byCode = key !== undefined && Object.hasOwn(upsStatusByCode, key) ? upsStatusByCode[key] : null;
  if (byCode) return byCode;
  const byDescription = s.description ? upsStatusByDescription.find(([re]) => re.test(s.description!)) : undefined;
  if (byDescription) return byDescription[1];
  if (s.type && Object.hasOwn(upsStatusByType, s.type)) return upsStatusByType[s.type]!;
  return 'unknown';
}
