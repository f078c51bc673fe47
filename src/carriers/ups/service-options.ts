import { failure, type CarrierResult, type ParcelSpec } from '../carrier.ts';
import { kgPerPound } from '../abroad.ts';
import { askName, optionAsks, type ShipmentOptions } from '../options.ts';
import { kilograms } from '../../labels/customs-figures.ts';
import { declaredValueOf, upsPackageMeasures } from './wire.ts';

/*
 * Delivery options as UPS's own fields (carriers/options.ts names each), from Rating.yaml and Shipping.yaml in
 * UPS-API/api-documentation at commit e6f36df (2026-07-21), read 2026-11-28. Both APIs put a signature
 * (PackageServiceOptions.DeliveryConfirmation.DCISType), dry ice (PackageServiceOptions.DryIce) and
 * AdditionalHandlingIndicator on each Package, and Saturday delivery (SaturdayDeliveryIndicator), carbon neutral
 * (UPScarbonneutralIndicator) and alcohol (RestrictedArticles.AlcoholicBeveragesIndicator) in the Shipment's
 * ShipmentServiceOptions. Each box of several carries the package options asked, as test mode prices them.
 */

type Api = 'rating' | 'shipping';

/**
 * DCISType "2 - Delivery Confirmation Signature Required, 3 - Delivery Confirmation Adult Signature Required" (1 is
 * "Unsupported"); UPS's appendix (Delivery Confirmation Origin-Destination Pairs) puts both on the package from the
 * US50 to US50 and PR. UPS has no indirect signature: carriers/options.ts refuses it before a request is built.
 */
const dcisTypes = { standard: '2', adult: '3' } as const;

/**
 * DryIceWeight: "Cannot be more than package weight. Should be more than 0.0 … Limit to 1 digit after the decimal.
 * The maximum length of the field is 5"; UnitOfMeasurement Code "01 - LB … or LBS" (Rating's Code is at most two
 * characters, so the numeric code for both), its Description required by Rating. Rounded up to the tenth: a hazmat
 * declaration never states less dry ice than there is, and rounding the box's own weight the same way (upsPackageMeasures)
 * keeps it within the package's.
 */
function dryIce(options: ShipmentOptions): Record<string, unknown> | undefined {
  if (!options.dry_ice) return undefined;
  const lb = kilograms(options.dry_ice.weight) / kgPerPound;
  const tenths = Math.max(1, Math.ceil(Number((lb * 10).toFixed(6))));
  return {
    // "CFR = HazMat regulated by US Dept of Transportation within the U.S.": every shipment shipd sends options with.
    RegulationSet: 'CFR',
    DryIceWeight: { UnitOfMeasurement: { Code: '01', Description: 'LBS' }, Weight: (tenths / 10).toFixed(1) },
  };
}

/**
 * ShipmentServiceOptions.DeliveryConfirmation, the shipment's, for a shipment abroad: DCISType "1 - Delivery
 * Confirmation Signature Required 2 - Delivery Confirmation Adult Signature Required" (the Package's DeliveryConfirmation
 * is "for US50/PR to US50/PR packages" only).
 */
const shipmentDcisTypes = { standard: '1', adult: '2' } as const;

/**
 * One box as a Package of either API: its measures, its declared value and the package options asked. `abroad`, the
 * signature goes on the shipment (upsShipmentServiceOptions), not on the package.
 */
export function upsPackage(parcel: ParcelSpec, api: Api, options: ShipmentOptions | undefined, abroad = false): Record<string, unknown> {
  const declared = declaredValueOf(parcel, api);
  const ice = options && dryIce(options);
  const serviceOptions = {
    ...(declared ? { DeclaredValue: declared } : {}),
    ...(!abroad && options?.signature && options.signature !== 'indirect' ? { DeliveryConfirmation: { DCISType: dcisTypes[options.signature] } } : {}),
    ...(ice ? { DryIce: ice } : {}),
  };
  return {
    ...upsPackageMeasures(parcel),
    ...(options?.additional_handling ? { AdditionalHandlingIndicator: '' } : {}),
    ...(Object.keys(serviceOptions).length > 0 ? { PackageServiceOptions: serviceOptions } : {}),
  };
}

/**
 * ShipmentServiceOptions with the shipment's options beside `others` (a return's ReturnService), or nothing when
 * it would be empty. Rating.yaml describes RestrictedArticles as "Valid for UPS World Wide Express Freight shipments"
 * where Shipping.yaml does not: UPS may leave the alcohol charge out of a domestic rate, and then bills it with the label.
 */
export function upsShipmentServiceOptions(options: ShipmentOptions | undefined, others: Record<string, unknown> = {}, abroad = false): Record<string, unknown> {
  const fields = {
    ...others,
    ...(abroad && options?.signature && options.signature !== 'indirect' ? { DeliveryConfirmation: { DCISType: shipmentDcisTypes[options.signature] } } : {}),
    ...(options?.saturday_delivery ? { SaturdayDeliveryIndicator: '' } : {}),
    ...(options?.carbon_neutral ? { UPScarbonneutralIndicator: '' } : {}),
    ...(options?.alcohol ? { RestrictedArticles: { AlcoholicBeveragesIndicator: '' } } : {}),
  };
  return Object.keys(fields).length > 0 ? { ShipmentServiceOptions: fields } : {};
}

/**
 * A return asked with options: UPS's DeliveryConfirmation is "Valid for forward shipments only", and a return carries
 * none of the outbound label's options (domain/shipments/returns.ts), so one asked is refused rather than dropped.
 */
export function upsReturnOptionsRefusal(r: { isReturn?: boolean; options?: ShipmentOptions | undefined }): CarrierResult<never> | null {
  const asks = optionAsks(r.options);
  if (!r.isReturn || asks.length === 0) return null;
  return failure('option_not_supported', `UPS takes delivery options on outbound shipments only; a return label cannot have ${asks.map(askName).join(', ')}`);
}
