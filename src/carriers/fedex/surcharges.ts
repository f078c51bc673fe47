import type { SurchargeType } from '../../schemas/surcharge.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import type { Surcharge } from '../surcharges.ts';

/**
 * FedEx's surcharge types (Surcharge.type, RateQuotes-Resource.json in ShipStream/fedex-rest-php-sdk, commit bc94dcd,
 * read 2026-11-27: its examples answer FUEL and DELIVERY_AREA, and ShipmentLegRateDetail lists PEAK,
 * PEAK_ADDTIONAL_HANDLING, PEAK_OVERSIZE and PEAK_RESIDENTIAL_DELIVERY, spelled so) for the surcharges shipd names.
 */
const byType: Readonly<Record<string, SurchargeType>> = {
  FUEL: 'fuel',
  RESIDENTIAL_DELIVERY: 'residential',
  DELIVERY_AREA: 'delivery_area',
  ADDITIONAL_HANDLING: 'additional_handling',
  OVERSIZE: 'oversize',
  PEAK: 'peak',
  PEAK_ADDTIONAL_HANDLING: 'peak',
  PEAK_ADDITIONAL_HANDLING: 'peak',
  PEAK_OVERSIZE: 'peak',
  PEAK_RESIDENTIAL_DELIVERY: 'peak',
};

/** FedEx types every delivery area charge DELIVERY_AREA; its description tells the extended and remote ones ("DAS Extended Comm"). */
function typeOf(surcharge: unknown): SurchargeType {
  const type = byType[asString(at(surcharge, 'type'))?.toUpperCase() ?? ''] ?? 'other';
  if (type !== 'delivery_area') return type;
  const description = asString(at(surcharge, 'description')) ?? '';
  return /remote/i.test(description) ? 'remote_area' : /extended/i.test(description) ? 'extended_delivery_area' : type;
}

/**
 * The surcharges of the rated detail the quote's price is (ShipmentRateDetail.surCharges: type, description, amount
 * in the detail's currency); where it itemizes none, its packages' (ratedPackages[].packageRateDetail.surcharges),
 * which repeat the shipment's when both are given.
 */
export function fedexSurcharges(detail: unknown): Surcharge[] {
  const shipment = asArray(at(detail, 'shipmentRateDetail', 'surCharges'));
  const items = shipment.length > 0 ? shipment : asArray(at(detail, 'ratedPackages')).flatMap((p) => asArray(at(p, 'packageRateDetail', 'surcharges')));
  return items.flatMap((s) => {
    const cents = asCents(at(s, 'amount'));
    return cents === undefined ? [] : [{ type: typeOf(s), amountCents: cents }];
  });
}
