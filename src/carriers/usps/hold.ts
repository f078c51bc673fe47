import type { Address } from '../../schemas/address.ts';
import { failure, type CarrierResult } from '../carrier.ts';
import { holdLocation, type ShipmentOptions } from '../options.ts';
import { toUspsAddress } from './fields.ts';
import { facilityIdMaxLength } from './locations.ts';

/*
 * Hold for Pickup at a Post Office on a domestic label: toAddress.holdForPickup with toAddress.facilityId, the
 * Post Office's facilityID from the Locations API (locations.ts). domestic-labels.yaml 3.9.13 (karrioapi/karrio
 * modules/connectors/usps/vendor/, commit e1754707ebcba368deb2be62c72eabbcd4d31723, read 2026-11-28),
 * DomesticLabelToAddress: "If the `holdForPickup` field is set to `true` then the `toAddress` object `facilityID`,
 * `email`, and `phone` fields as well as the `fromAddress` object `firstName`, `lastName`, `email`, and `phone`
 * fields are required"; Labels 3.9.4 (Thecodergabe/shipstack specs/usps/labels_update_1.yaml, d44e3ecc) says the
 * same. USPS holds only outbound labels: ReturnLabelRequest's addresses are DomesticLabelAddress, which has no
 * holdForPickup. No extra service code stands for it and the options search prices nothing for it.
 */

/** The Post Office asked for, when the options hold the parcel (the adapter has refused another carrier's location). */
export function heldAt(options: ShipmentOptions | undefined): string | undefined {
  const at = holdLocation(options);
  return at?.carrier === 'usps' ? at.id : undefined;
}

/** What of an address USPS needs for a hold and does not have as it would be sent (toUspsAddress drops what it would refuse). */
function missing(a: Address, side: 'ship_to' | 'ship_from', names: boolean): string[] {
  const u = toUspsAddress(a);
  return [
    ...(names && (!u.firstName || !u.lastName) ? [`${side}.name (a first and a last name)`] : []),
    ...(u.email ? [] : [`${side}.email${a.email ? ' (one USPS takes: at most 50 characters)' : ''}`]),
    ...(u.phone ? [] : [`${side}.phone${a.phone ? ' (one USPS takes: 6 to 15 digits)' : ''}`]),
  ];
}

/**
 * Why USPS would refuse to hold this label at the Post Office, before it is asked: a return label, an id that is
 * not a facilityId, or a field the spec then requires that the addresses lack, each named. address_invalid, as the
 * addresses are what must change; null where the label can be held, or no hold is asked.
 */
export function holdRefusal(request: { options?: ShipmentOptions | undefined; from: Address; to: Address; isReturn?: boolean | undefined }): CarrierResult<never> | null {
  const facilityId = heldAt(request.options);
  if (facilityId === undefined) return null;
  if (request.isReturn) return failure('option_not_supported', 'USPS holds no return label at a Post Office: a return label goes to the merchant\'s address (ReturnLabelRequest has no holdForPickup)');
  if (facilityId.length > facilityIdMaxLength) {
    return failure('address_invalid', `hold_location ${facilityId} is not a USPS Post Office id (a facilityId has at most ${facilityIdMaxLength} characters); take one GET /carrier-locations?carrier=usps finds`);
  }
  const lacking = [...missing(request.to, 'ship_to', false), ...missing(request.from, 'ship_from', true)];
  if (lacking.length === 0) return null;
  return failure('address_invalid', `USPS holds a parcel at a Post Office only with the recipient's email and phone and the sender's first and last name, email and phone; missing: ${lacking.join(', ')}`);
}

/** The toAddress fields of a hold, none where no hold is asked; holdRefusal has passed the request. */
export function holdToAddress(options: ShipmentOptions | undefined): Record<string, unknown> {
  const facilityId = heldAt(options);
  return facilityId === undefined ? {} : { holdForPickup: true, facilityId };
}
