import { holdLocation, type ShipmentOptions } from '../options.ts';
import { kilograms } from '../../labels/customs-figures.ts';

/*
 * Delivery options as FedEx's special services (carriers/options.ts names each code), in the shapes of the ship
 * document (ship/v1 Shipment-Resource.json) and the rate document (rates-transit-times/v1 RateQuotes-Resource.json),
 * ShipStream/fedex-rest-php-sdk resources/models/.raw/ at commit bc94dcd2, read 2026-11-27. Both put the package's
 * services in requestedPackageLineItems[].packageSpecialServices and the shipment's in shipmentSpecialServices, each
 * code in specialServiceTypes beside the detail it needs. The two documents name the battery fields differently
 * (ship BatteryDetail batteryMaterialType/batteryPackingType, rate BatteryClassificationDetail material/packing).
 */

type Api = 'rate' | 'ship';

const signatureTypes = { standard: 'DIRECT', adult: 'ADULT', indirect: 'INDIRECT' } as const;
const batteryMaterials = { lithium_ion_in_equipment: 'LITHIUM_ION', lithium_metal_in_equipment: 'LITHIUM_METAL' } as const;

/** "For Dry Ice the unit of measure is KG" (Weight_1, Weight_1_2); to 0.1 kg, at least 0.1 so a pinch is still declared. */
function dryIceKg(options: ShipmentOptions): { units: 'KG'; value: number } | undefined {
  if (!options.dry_ice) return undefined;
  const kg = kilograms(options.dry_ice.weight);
  return { units: 'KG', value: Math.max(0.1, Math.round(kg * 10) / 10) };
}

function batteryDetail(api: Api, material: string) {
  return api === 'ship'
    ? { batteryMaterialType: material, batteryPackingType: 'CONTAINED_IN_EQUIPMENT' }
    : { material, packing: 'CONTAINED_IN_EQUIPMENT' };
}

/**
 * packageSpecialServices for each package: the options are the shipment's, so every box carries them (a signature on
 * each, each box's own dry ice); nothing when no option is a package one.
 */
export function packageSpecialServices(options: ShipmentOptions | undefined, api: Api) {
  if (!options) return {};
  const types: string[] = [];
  const detail: Record<string, unknown> = {};
  if (options.signature) {
    types.push('SIGNATURE_OPTION');
    detail.signatureOptionType = signatureTypes[options.signature];
  }
  if (options.alcohol) {
    types.push('ALCOHOL');
    detail.alcoholDetail = { alcoholRecipientType: options.alcohol.recipient === 'consumer' ? 'CONSUMER' : 'LICENSEE' };
  }
  if (options.additional_handling) types.push('NON_STANDARD_CONTAINER');
  const dryIce = dryIceKg(options);
  if (dryIce) {
    types.push('DRY_ICE');
    detail.dryIceWeight = dryIce;
  }
  if (options.hazmat === 'limited_quantity') {
    types.push('DANGEROUS_GOODS');
    detail.dangerousGoodsDetail = { options: ['LIMITED_QUANTITIES_COMMODITIES'] };
  } else if (options.hazmat) {
    types.push('BATTERY');
    detail.batteryDetails = [batteryDetail(api, batteryMaterials[options.hazmat])];
  }
  return types.length > 0 ? { packageSpecialServices: { specialServiceTypes: types, ...detail } } : {};
}

/**
 * A printed return label, the same special service in both documents so the quote prices the label that will be
 * sold: the ship document's ReturnShipmentDetail ("Required to be set to PRINT_RETURN_LABEL for printed return label
 * shipments"; "RETURN_SHIPMENT is required for creating return shipments"), and the rate document's
 * International_Return_Rate_Quote. FedEx charges one only once it receives the return, and nothing for a label never
 * used (FedEx Global Returns FAQ, fedex.com, as read in 2026): the pay-on-use return a `charge: "on_use"` return is.
 */
export const printedReturn = { specialServiceTypes: ['RETURN_SHIPMENT'], returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' } };

/**
 * shipmentSpecialServices: holding at a FedEx location, Saturday delivery, and dry ice's shipment totals ("This element is required when
 * SpecialServiceType DRY_ICE is selected", ShipmentDryIceDetail_1; the rate document: "Dry ice is supported in both
 * shipment level and package level services"), beside a printed return's services when the label is a return. Each
 * of the `boxes` holds the dry ice asked, so packageCount, "the total number of packages in the shipment that contain
 * dry ice", is all of them, and the total weight is the sum of the packages' dryIceWeight as sent. A parcel held for
 * pickup is HOLD_AT_LOCATION with HoldAtLocationDetail, "Required, when HOLD_AT_LOCATION is chosen", whose locationId
 * ("For HAL Shipment, Location ID is REQUIRED") is the one Find Locations answered (locations.ts); the rate document
 * takes the same detail, so the quote prices the hold. locationType is not sent: hold_location names the location by
 * its id alone.
 */
export function shipmentSpecialServices(options: ShipmentOptions | undefined, isReturn: boolean | undefined, boxes: number) {
  const types = isReturn ? [...printedReturn.specialServiceTypes] : [];
  const detail: Record<string, unknown> = isReturn ? { returnShipmentDetail: printedReturn.returnShipmentDetail } : {};
  const held = holdLocation(options);
  if (held) {
    types.push('HOLD_AT_LOCATION');
    detail.holdAtLocationDetail = { locationId: held.id };
  }
  if (options?.saturday_delivery) types.push('SATURDAY_DELIVERY');
  const dryIce = options && dryIceKg(options);
  if (dryIce) {
    types.push('DRY_ICE');
    detail.shipmentDryIceDetail = { totalWeight: { units: 'KG', value: Math.round(dryIce.value * boxes * 10) / 10 }, packageCount: boxes };
  }
  return types.length > 0 ? { shipmentSpecialServices: { specialServiceTypes: types, ...detail } } : {};
}
