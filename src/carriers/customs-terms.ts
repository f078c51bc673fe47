import type { CarrierId } from '../config.ts';
import type { Customs } from '../schemas/customs.ts';
import { failure, type CarrierResult } from './carrier.ts';

/**
 * Who may pay a parcel's duties and taxes, by carrier. UPS bills them to the shipper on a DDP shipment (Shipping.yaml's
 * ShipmentCharge type 02, "Duties and Taxes"; UPS-API/api-documentation 66148b92) and FedEx likewise
 * (customsClearanceDetail.dutiesPayment.paymentType SENDER; Shipment-Resource.json, ShipStream/fedex-rest-php-sdk
 * bc94dcd2). USPS's international-labels API (3.2.2, Thecodergabe/shipstack d44e3ecc) has no field for it: a postal
 * item's duties are the addressee's, collected by the destination's post, so a USPS shipment is DAP only.
 */
const incoterms: Record<CarrierId, readonly string[]> = {
  ups: ['DAP', 'DDP'],
  fedex: ['DAP', 'DDP'],
  usps: ['DAP'],
};

/** The carrier's refusal of a declaration's terms, before anything is priced or bought; null when it takes them. */
export function customsTermsRefusal(carrier: { id: CarrierId; name: string }, customs: Customs | undefined): CarrierResult<never> | null {
  const incoterm = customs?.incoterm ?? 'DAP';
  if (incoterms[carrier.id].includes(incoterm)) return null;
  return failure('not_serviced', `${carrier.name} does not take ${incoterm} (customs/incoterm): the recipient pays the duties and taxes of a ${carrier.name} parcel; use DAP, or UPS or FedEx for DDP`);
}
