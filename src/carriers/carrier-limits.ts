import type { CarrierId } from '../config.ts';
import type { Address, AnyAddress } from '../schemas/address.ts';
import type { Customs } from '../schemas/customs.ts';
import { failure, type CarrierResult } from './carrier.ts';
import { customsTermsRefusal } from './customs-terms.ts';
import { customsCurrency, declaredAmount } from './abroad.ts';
import { splitAddressLines, upsLines } from './ups/address-lines.ts';
import { fedexStreetLines } from './fedex/party.ts';
import { uspsStreetMax, uspsStreetsAbroad } from './usps/fields.ts';

/** What one carrier's shipping API takes of a shipment abroad: its streets, and its customs lines and their descriptions. */
interface CarrierLimits {
  /** Whether the address's streets fit the carrier's street fields, as its adapter lays them out. */
  streetsFit: (a: AnyAddress) => boolean;
  /** The carrier's street fields, as its reason names them. */
  streets: string;
  customsLines: number;
  description: number;
  /** The carrier's name for a customs line and its description, as its reason names them. */
  lineField: string;
  /** The currencies its customs values may be stated in, where it limits them. */
  customsCurrencies?: readonly string[];
}

/**
 * Each carrier's limits on a shipment abroad, from the published specs the contracts in test/contracts cite:
 * - UPS, Shipping.yaml (UPS-API/api-documentation 66148b92, 2026-07-21): AddressLine "up to three occurrences" of 35;
 *   InternationalForms.Product at most 50, its Description "a maximum of 3 times", 35 each.
 * - FedEx, ship/v1 Shipment-Resource.json (ShipStream/fedex-rest-php-sdk bc94dcd2, 2025-10-17): streetLines, "more
 *   than 3 will be ignored", 35 each; commodities "Maximum upto 999", description "Maximum allowed 450 characters".
 * - USPS, international-labels.yaml 3.2.2 (Thecodergabe/shipstack d44e3ecc, 2026-04-08): streetAddress and
 *   secondaryAddress of 50 each; customsForm.contents 1 to 30, itemDescription at most 30; itemValue "in USD".
 */
const limits: Record<CarrierId, CarrierLimits> = {
  ups: {
    streetsFit: (a) => splitAddressLines(a, upsLines.shipping) !== undefined,
    streets: `${upsLines.count} address lines of ${upsLines.shipping} characters (AddressLine)`,
    customsLines: 50,
    description: 3 * 35,
    lineField: 'InternationalForms Product',
  },
  fedex: {
    streetsFit: (a) => fedexStreetLines(a) !== undefined,
    streets: '3 street lines of 35 characters (streetLines)',
    customsLines: 999,
    description: 450,
    lineField: 'commodity',
  },
  usps: {
    streetsFit: (a) => uspsStreetsAbroad(a).secondaryAddress.length <= uspsStreetMax,
    streets: `a street address and a secondary address of ${uspsStreetMax} characters each`,
    customsLines: 30,
    description: 30,
    lineField: 'customs form line',
    customsCurrencies: ['USD'],
  },
};

/**
 * Services that take a parcel abroad only up to a declared value, in US dollars. USPS First-Class Package
 * International Service: "The maximum value cannot exceed $400" (International Mail Manual 252, as archived by USPS
 * on 2020-09-08, pe.usps.com/IMM_Archive/NHTML/IMM_Archive_20200908/immc2_022.htm); above it USPS names Priority
 * Mail International or Priority Mail Express International.
 */
const valueLimitsUsd: Partial<Record<CarrierId, Readonly<Record<string, { usd: number; instead: string }>>>> = {
  usps: { 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE': { usd: 400, instead: 'Priority Mail International or Priority Mail Express International' } },
};

/** Why the carrier's service does not take this declaration's value, or null when it does (or there is none). */
export function serviceValueRefusal(carrier: { id: CarrierId; name: string }, service: string, serviceName: string, customs: Customs | undefined): string | null {
  const limit = valueLimitsUsd[carrier.id]?.[service];
  if (!limit || !customs || customsCurrency(customs) !== 'USD') return null;
  const value = declaredAmount(customs);
  if (value <= limit.usd) return null;
  return `${carrier.name} ${serviceName} takes contents worth at most $${limit.usd}; this declaration's items are worth $${value.toFixed(2)}: ship it ${limit.instead}`;
}

/**
 * The carrier's refusal of a shipment abroad that its API cannot take whole, before anything is priced or bought,
 * so a merchant learns which carrier refuses and why instead of a label with a cut-off street or description;
 * null when it fits.
 */
export function carrierLimitsRefusal(carrier: { id: CarrierId; name: string }, shipment: { from: Address; to: AnyAddress; customs?: Customs | undefined }): CarrierResult<never> | null {
  const l = limits[carrier.id];
  for (const [role, a] of [['ship-to', shipment.to], ['ship-from', shipment.from]] as const) {
    if (!l.streetsFit(a)) {
      const street = [a.street1, a.street2].filter(Boolean).join(', ');
      return failure('address_invalid', `${carrier.name} takes ${l.streets}; the ${role} street "${street}" does not fit them: shorten it or abbreviate (St, Ave, Ste)`);
    }
  }
  const currency = shipment.customs && customsCurrency(shipment.customs);
  if (currency && l.customsCurrencies && !l.customsCurrencies.includes(currency)) {
    return failure('not_serviced', `${carrier.name} takes customs values in ${l.customsCurrencies.join(' or ')} only; this declaration is in ${currency} (customs/items/0/unit_value/currency)`);
  }
  const items = shipment.customs?.items ?? [];
  if (items.length > l.customsLines) {
    return failure('not_serviced', `${carrier.name} takes at most ${l.customsLines} customs lines (${l.lineField}s); this declaration has ${items.length} (customs/items)`);
  }
  const long = items.findIndex((i) => i.description.trim().length > l.description);
  if (long >= 0) {
    return failure('not_serviced', `${carrier.name} takes a ${l.lineField} description of at most ${l.description} characters; customs/items/${long}/description has ${items[long]!.description.trim().length}`);
  }
  return null;
}

/** The carrier's refusal of a shipment abroad for its terms of sale or its limits, before anything is priced or bought. */
export const refusalAbroad = (carrier: { id: CarrierId; name: string }, shipment: { from: Address; to: AnyAddress; customs?: Customs | undefined }): CarrierResult<never> | null =>
  customsTermsRefusal(carrier, shipment.customs) ?? carrierLimitsRefusal(carrier, shipment);
