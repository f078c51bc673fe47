import type { SurchargeType } from '../../schemas/surcharge.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import type { Surcharge } from '../surcharges.ts';

/**
 * UPS's accessorial codes (ItemizedCharges.Code, three digits) for the surcharges shipd names: Rating.yaml
 * (UPS-API/api-documentation, commit e6f36df) gives the field without its values; they are listed in UPS's Shipping
 * API reference, Appendix 1, "Accessorial / Surcharge Codes" (developer.ups.com/api/reference/shipping/appendix1,
 * read 2026-11-28 in a copy of that page kept in the code search corpus), "returned in the response when requested
 * with the Subversion element". 120 is the package's Delivery Confirmation, its SubType saying which signature; 121
 * the shipment's, used abroad. A charge whose code is not here is still read by its Description below.
 */
const byCode: Readonly<Record<string, SurchargeType>> = {
  '100': 'additional_handling',
  '120': 'signature',
  '121': 'signature',
  '199': 'hazmat',
  '200': 'dry_ice',
  '205': 'alcohol',
  '220': 'hold_for_pickup',
  '270': 'residential',
  '300': 'saturday_delivery',
  '375': 'fuel',
  '376': 'delivery_area',
  '377': 'oversize',
  '400': 'insurance',
  '401': 'additional_handling',
  '430': 'peak',
  '431': 'peak',
  '432': 'peak',
  '440': 'oversize',
  '441': 'carbon_neutral',
};

/**
 * A code not in the table is read by its Description (optional in Rating.yaml; UPS writes it in capitals, such as
 * "DELIVERY AREA SURCHARGE - EXTENDED"), the more specific words first.
 */
const byDescription: readonly [RegExp, SurchargeType][] = [
  [/FUEL/i, 'fuel'],
  [/REMOTE/i, 'remote_area'],
  [/EXTENDED/i, 'extended_delivery_area'],
  [/DELIVERY AREA/i, 'delivery_area'],
  [/RESIDENTIAL/i, 'residential'],
  [/LARGE PACKAGE|OVER ?SIZE/i, 'oversize'],
  [/ADDITIONAL HANDLING/i, 'additional_handling'],
  [/PEAK|DEMAND/i, 'peak'],
  [/DECLARED VALUE|INSURANCE/i, 'insurance'],
  [/SIGNATURE|DELIVERY CONFIRMATION/i, 'signature'],
  [/SATURDAY DELIVERY/i, 'saturday_delivery'],
  [/DRY ICE/i, 'dry_ice'],
  [/ALCOHOL/i, 'alcohol'],
  [/CARBON NEUTRAL/i, 'carbon_neutral'],
];

function typeOf(charge: unknown): SurchargeType {
  const code = asString(at(charge, 'Code'));
  const known = code === undefined ? undefined : byCode[code];
  if (known) return known;
  const description = asString(at(charge, 'Description')) ?? '';
  return byDescription.find(([words]) => words.test(description))?.[1] ?? 'other';
}

/** Itemized charges in the quote's currency (an entry in another one is not part of it). */
function itemized(charges: unknown, currency: string): Surcharge[] {
  return asArray(charges).flatMap((charge) => {
    const cents = asCents(at(charge, 'MonetaryValue'));
    const stated = asString(at(charge, 'CurrencyCode'));
    if (cents === undefined || (stated !== undefined && stated.toUpperCase() !== currency)) return [];
    return [{ type: typeOf(charge), amountCents: cents }];
  });
}

/**
 * The surcharges a RatedShipment itemizes at the shipment and for its packages (Rating.yaml RatedShipment.ItemizedCharges
 * and RatedPackage[].ItemizedCharges): the account's (NegotiatedRateCharges.ItemizedCharges and
 * RatedPackage[].NegotiatedCharges.ItemizedCharges) when the quote is the negotiated price, else the published ones.
 */
export function upsSurcharges(rated: unknown, negotiated: boolean, currency: string): Surcharge[] {
  const packages = asArray(at(rated, 'RatedPackage'));
  if (negotiated) {
    return [at(rated, 'NegotiatedRateCharges', 'ItemizedCharges'), ...packages.map((p) => at(p, 'NegotiatedCharges', 'ItemizedCharges'))].flatMap((c) => itemized(c, currency));
  }
  return [at(rated, 'ItemizedCharges'), ...packages.map((p) => at(p, 'ItemizedCharges'))].flatMap((c) => itemized(c, currency));
}
