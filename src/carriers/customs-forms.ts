import type { CarrierId } from '../config.ts';
import type { CustomsDocumentType } from '../labels/customs-data.ts';
import type { Customs } from '../schemas/customs.ts';
import { customsCurrency, declaredAmount } from './abroad.ts';
import type { ParcelSpec } from './carrier.ts';
import { boxDeclarations } from './abroad.ts';

// The customs documents a label needs, by carrier and service. USPS prints its customs declaration as a postal form
// (Publication 141/IMM 123): the CN 22 (PS Form 2976) where an item is light and worth little — First-Class Package
// International Service up to $400, and mail to APO/FPO/DPO addresses and the territories with customs of their own
// under 4 lb and $400 (DMM 608.2.4, 703.2.3) — and the CN 23/CP 72 (PS Form 2976-A) otherwise, which Priority Mail
// International and Priority Mail Express International always take. UPS and FedEx clear goods on a commercial
// invoice; a shipment of documents only needs none.

const uspsCn22LimitUsd = 400;
const uspsCn22DomesticLimitLb = 4;

/** The documents a label of this service needs for its declaration; none without one. */
export function customsFormsFor(carrier: CarrierId, service: string, customs: Customs | null, parcel: ParcelSpec): CustomsDocumentType[] {
  if (!customs) return [];
  if (carrier !== 'usps') return customs.contents_type === 'documents' ? [] : ['commercial_invoice'];
  if (service === 'PRIORITY_MAIL_INTERNATIONAL' || service === 'PRIORITY_MAIL_EXPRESS_INTERNATIONAL') return ['cn23'];
  // A value in another currency is not converted: the CP 72 holds any value.
  const small = customsCurrency(customs) === 'USD' && declaredAmount(customs) <= uspsCn22LimitUsd;
  if (service === 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE') return [small ? 'cn22' : 'cn23'];
  return [small && parcel.weightLb < uspsCn22DomesticLimitLb ? 'cn22' : 'cn23'];
}

/**
 * Where a carrier prints a customs form on each box's label (USPS, which sells several boxes as a label each), the
 * form of each box, drawn from the lines that name it: a CN 22 or a CN 23 by that box's own weight and value, as a
 * label of that box alone would take. Null where the shipment's documents cover all its boxes (one box; UPS's and
 * FedEx's one invoice), or for a declaration that cannot be split by box, which USPS refuses before this is asked.
 */
export function boxCustomsFormsFor(carrier: CarrierId, service: string, customs: Customs | null, parcels: readonly ParcelSpec[]): { type: CustomsDocumentType; customs: Customs }[] | null {
  if (!customs || carrier !== 'usps' || parcels.length < 2) return null;
  const split = boxDeclarations(customs, parcels.length, 'USPS');
  if (!split.ok) return null;
  return split.value.map((own, i) => ({ type: customsFormsFor(carrier, service, own, parcels[i]!)[0]!, customs: own }));
}
