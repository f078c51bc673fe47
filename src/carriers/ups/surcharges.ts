import type { SurchargeType } from '../../schemas/surcharge.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import type { Surcharge } from '../surcharges.ts';

/**
 * UPS's accessorial codes (ItemizedCharges.Code, three digits) for the surcharges shipd names. Rating.yaml
 * (UPS-API/api-documentation, commit e6f36df, read 2026-11-27) gives the field without its list of values, and no
 * stored UPS document lists them: 375 "Fuel Surcharge" is as a recorded UPS rate answer names it; 100, 270 and 376 are
 * the codes UPS answers are known to use, not checked against a UPS list. A charge whose code is not here, or is
 * another than believed, is still read by its Description below.
 */
const byCode: Readonly<Record<string, SurchargeType>> = {
  '100': 'additional_handling',
  '270': 'residential',
  '375': 'fuel',
  '376': 'delivery_area',
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
