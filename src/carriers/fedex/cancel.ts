import { failure, ok, type CarrierResult, type LabelRef, type VoidOutcome } from '../carrier.ts';
import { asString, at } from '../live/lenient.ts';
import { fedexErrors, fedexFailure, isFedexError } from './errors.ts';

export const cancelPath = '/ship/v1/shipments/cancel';

/**
 * Cancel Shipment takes one deletionControl, DELETE_ALL_PACKAGES, and "will cancel all packages within the shipment"
 * (Ship API 1.0.0, Full_Schema_Cancel_Shipment; test/contracts/fedex/ship.ts names the copy): the legacy SOAP services'
 * DELETE_ONE_PACKAGE has no REST counterpart, so FedEx boxes are voided together, live and in test mode alike.
 */
export const fedexWholeShipmentVoids = "FedEx's Ship API cancels a shipment with all its packages (its one deletionControl is DELETE_ALL_PACKAGES)";

/** What FedEx files the shipment under: the master tracking number of several boxes, else the one box's number. */
const shipmentNumber = (label: LabelRef) => label.carrierShipmentId || label.trackingNumber;

/**
 * The whole shipment is cancelled, every package of it (carriers.md 4.5): the cancel document's one deletionControl,
 * DELETE_ALL_PACKAGES, "will cancel all tracking numbers associated to the shipment", so the boxes of a
 * multiple-piece shipment go with its master tracking number.
 */
export function buildCancelRequest(label: LabelRef, accountNumber: string) {
  return {
    accountNumber: { value: accountNumber },
    trackingNumber: shipmentNumber(label),
    deletionControl: 'DELETE_ALL_PACKAGES',
    senderCountryCode: 'US',
    emailShipment: false,
  };
}

const alreadyCancelled = /already\W*(been\W*)?(cancel|delet)|cancel+ed already/i;
/** FedEx cancels only what it has not been handed yet ("not already been tendered to FedEx"). */
const handedOver = /tender|in.transit|picked.up|cannot be (cancel|delet)|not.*cancel+able/i;

/**
 * output.cancelledShipment says whether it worked. A refusal, in the output message or in the error envelope, is
 * told apart by its words: an earlier cancel gives already_voided, a parcel FedEx already holds label_in_transit.
 * FedEx bills only shipments it carries, so a cancelled one costs nothing: `refunded`.
 */
export function parseCancelResponse(status: number, json: unknown, label: LabelRef): CarrierResult<VoidOutcome> {
  const shipment = label.boxes ? `shipment ${shipmentNumber(label)} (${label.boxes.length} boxes)` : label.trackingNumber;
  const errors = fedexErrors(json);
  const said = [asString(at(json, 'output', 'message')), asString(at(json, 'output', 'successMessage')), ...errors.flatMap((e) => [e.code, e.message])]
    .filter(Boolean)
    .join('; ');
  const cancelled = at(json, 'output', 'cancelledShipment');
  if (cancelled === true || cancelled === 'true') return ok('refunded');
  if (alreadyCancelled.test(said)) return failure('already_voided', `FedEx has already cancelled ${shipment}`);
  if (handedOver.test(said)) return failure('label_in_transit', `FedEx has ${shipment} in hand and cannot cancel it (${said})`);
  if (isFedexError(status, json)) return { ok: false, error: fedexFailure(status, json) };
  if (cancelled === false || cancelled === 'false') return failure('carrier_error', `FedEx did not cancel ${shipment}${said ? ` (${said})` : ''}`);
  return failure('carrier_error', 'FedEx answered the cancel request without output.cancelledShipment');
}
