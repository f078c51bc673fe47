import type { CarrierId } from '../config.ts';
import type { ShipmentOptions } from '../schemas/options.ts';
import type { SurchargeType } from '../schemas/surcharge.ts';
import { carrierCatalog, carrierName, domesticServices } from './catalog.ts';
import { failure, type CarrierResult } from './carrier.ts';

export type { ShipmentOptions } from '../schemas/options.ts';

/**
 * One thing asked of a carrier: an option, with its value where the value changes what the carrier is asked
 * (`signature:adult`, `hazmat:limited_quantity`). Each maps to one row of a carrier's table below.
 */
export type OptionAsk =
  | 'signature:standard'
  | 'signature:adult'
  | 'signature:indirect'
  | 'saturday_delivery'
  | 'delivery_confirmation'
  | 'hold_for_pickup'
  | 'additional_handling'
  | 'non_machinable'
  | 'dry_ice'
  | 'alcohol:consumer'
  | 'alcohol:licensee'
  | 'hazmat:limited_quantity'
  | 'hazmat:lithium_ion_in_equipment'
  | 'hazmat:lithium_metal_in_equipment'
  | 'carbon_neutral';

/** What each ask is called in a sentence, and the field of the request it comes from. */
const askNames: Record<OptionAsk, { name: string; pointer: string }> = {
  'signature:standard': { name: 'a signature on delivery', pointer: '/options/signature' },
  'signature:adult': { name: "an adult's signature on delivery", pointer: '/options/signature' },
  'signature:indirect': { name: 'an indirect signature', pointer: '/options/signature' },
  saturday_delivery: { name: 'Saturday delivery', pointer: '/options/saturday_delivery' },
  delivery_confirmation: { name: 'delivery confirmation', pointer: '/options/delivery_confirmation' },
  hold_for_pickup: { name: 'holding for pickup', pointer: '/options/hold_for_pickup' },
  additional_handling: { name: 'additional handling', pointer: '/options/additional_handling' },
  non_machinable: { name: 'a non-machinable parcel', pointer: '/options/non_machinable' },
  dry_ice: { name: 'dry ice', pointer: '/options/dry_ice' },
  'alcohol:consumer': { name: 'alcohol to a consumer', pointer: '/options/alcohol' },
  'alcohol:licensee': { name: 'alcohol to a licensee', pointer: '/options/alcohol' },
  'hazmat:limited_quantity': { name: 'hazardous materials in limited quantity', pointer: '/options/hazmat' },
  'hazmat:lithium_ion_in_equipment': { name: 'lithium-ion batteries in equipment', pointer: '/options/hazmat' },
  'hazmat:lithium_metal_in_equipment': { name: 'lithium-metal batteries in equipment', pointer: '/options/hazmat' },
  carbon_neutral: { name: 'carbon-neutral shipping', pointer: '/options/carbon_neutral' },
};

/** The surcharge type each ask's charge is shown under in a rate's `surcharges`. */
export const askSurchargeType: Record<OptionAsk, SurchargeType> = {
  'signature:standard': 'signature',
  'signature:adult': 'signature',
  'signature:indirect': 'signature',
  saturday_delivery: 'saturday_delivery',
  delivery_confirmation: 'delivery_confirmation',
  hold_for_pickup: 'hold_for_pickup',
  additional_handling: 'additional_handling',
  non_machinable: 'non_machinable',
  dry_ice: 'dry_ice',
  'alcohol:consumer': 'alcohol',
  'alcohol:licensee': 'alcohol',
  'hazmat:limited_quantity': 'hazmat',
  'hazmat:lithium_ion_in_equipment': 'hazmat',
  'hazmat:lithium_metal_in_equipment': 'hazmat',
  carbon_neutral: 'carbon_neutral',
};

/** The asks in a set of options, in the schema's order. */
export function optionAsks(options: ShipmentOptions | undefined): OptionAsk[] {
  if (!options) return [];
  const asks: OptionAsk[] = [];
  if (options.signature) asks.push(`signature:${options.signature}`);
  if (options.saturday_delivery) asks.push('saturday_delivery');
  if (options.delivery_confirmation) asks.push('delivery_confirmation');
  if (options.hold_for_pickup) asks.push('hold_for_pickup');
  if (options.additional_handling) asks.push('additional_handling');
  if (options.non_machinable) asks.push('non_machinable');
  if (options.dry_ice) asks.push('dry_ice');
  if (options.alcohol) asks.push(`alcohol:${options.alcohol.recipient}`);
  if (options.hazmat) asks.push(`hazmat:${options.hazmat}`);
  if (options.carbon_neutral) asks.push('carbon_neutral');
  return asks;
}

/** How a carrier does one ask: its own code for it, on which of its services. */
export interface OptionRule {
  /** The carrier's own field or code, as its API spells it. */
  code: string;
  /** The services that do it; absent, every domestic service of the carrier. */
  services?: readonly string[];
  /** Only to a home (FedEx's indirect signature). */
  residentialOnly?: boolean;
}

/** A carrier's rules: an ask it does not take has no row. */
type CapabilityTable = Partial<Record<OptionAsk, OptionRule>>;

const upsSaturdayServices = ['14', '01', '02'];
const fedexSaturdayServices = ['PRIORITY_OVERNIGHT', 'STANDARD_OVERNIGHT', 'FEDEX_2_DAY'];

/**
 * What each carrier does of the options, and its code for each. Sources (read 2026-11-27):
 * - UPS: Shipping.yaml and Rating.yaml of UPS-API/api-documentation (commit e6f36df): ShipmentServiceOptions
 *   SaturdayDeliveryIndicator, UPScarbonneutralIndicator and RestrictedArticles.AlcoholicBeveragesIndicator;
 *   PackageServiceOptions DeliveryConfirmation DCISType "2 - Delivery Confirmation Signature Required, 3 - Delivery
 *   Confirmation Adult Signature Required" (1 is "Unsupported"), DryIce (RegulationSet CFR within the U.S.; "Cannot be
 *   more than package weight"); the Package's AdditionalHandlingIndicator. UPS has no indirect signature. Saturday delivery on
 *   Next Day Air Early, Next Day Air and 2nd Day Air: UPS's services guidance, not checked against a stored UPS list.
 *   Not offered through shipd: HazMat (PackageServiceOptions.HazMat, read again 2026-11-27: a limited quantity
 *   (CommodityRegulatedLevelCode LQ) requires the material's IDNumber, ProperShippingName, ClassDivisionNumber,
 *   Quantity, UOM, PackagingType and PackagingTypeQuantity, which options do not carry; for lithium batteries in
 *   equipment the spec's one example, "Shipping Dry Ice or Lithium Batteries", sends them as LQ with a
 *   DGSignatoryInfo and an EmergencyPhone, and the spec says neither what a lightly regulated (LR) battery entry needs
 *   beside IDNumber and ProperShippingName nor which UN number UPS expects, so a label could not be built from the
 *   spec alone; HazMatTypeCode 01 is for UPS Ground Saver and Mail Innovations only)) and HoldForPickupIndicator ("only valid for UPS
 *   Worldwide Express Freight"). Holding for pickup is an Access Point hold: Shipment.ShipmentIndicationType Code "01 -
 *   Hold for Pickup at UPS Access Point" with AlternateDeliveryAddress (the Access Point's Name, Address and
 *   UPSAccessPointID, 9 characters), the Access Point found with UPS's Locator.
 * - USPS: domestic-labels.yaml 3.9.13 (karrioapi/karrio modules/connectors/usps/vendor/) ExtraService codes: 920 USPS
 *   Tracking, 921 Signature Confirmation, 922 Adult Signature Required 21 or Over, 981 Signature Requested
 *   (PRIORITY_MAIL_EXPRESS only), 819 HAZMAT Class 9 - Dry Ice Package, 820 HAZMAT Class 9 - Lithium batteries,
 *   unmarked package (the code for cells packed in equipment, ion and metal alike), 831 HAZMAT LTD QTY Ground Package;
 *   hasNonstandardCharacteristics (sent with processingCategory NONSTANDARD) for a parcel that cannot go through the
 *   machines. shipping-options.yaml 3.1.29 prices the same codes. Holding for pickup: toAddress.holdForPickup, with
 *   which "the `toAddress` object: 'facilityID', 'email', and 'phone'" are required (DomesticLabelToAddress; Labels
 *   3.9.4 says the same), the Post Office found with USPS's Locations API. Not offered: Saturday delivery (USPS takes
 *   no request for it), alcohol, carbon neutral.
 * - FedEx: Ship API specialServicesRequested (ship/v1 Shipment-Resource.json, ShipStream/fedex-rest-php-sdk
 *   bc94dcd2): package signatureOptionType DIRECT, ADULT, INDIRECT; shipment SATURDAY_DELIVERY, DRY_ICE; package
 *   ALCOHOL (alcoholDetail.alcoholRecipientType CONSUMER or LICENSEE), NON_STANDARD_CONTAINER, DANGEROUS_GOODS
 *   (dangerousGoodsDetail options LIMITED_QUANTITIES_COMMODITIES) and BATTERY (batteryDetails: LITHIUM_ION or
 *   LITHIUM_METAL, CONTAINED_IN_EQUIPMENT). Which services, from the FedEx Service Guide (see sim/prices/fedex-2026.ts):
 *   Saturday delivery "with FedEx First Overnight, FedEx Priority Overnight, FedEx Standard Overnight, and FedEx 2Day";
 *   "Indirect Signature Required is available to residential addresses only"; "FedEx Home Delivery ... can only contain
 *   hazardous materials if they are classified as Limited Quantity", and limited quantities go by Ground. Holding for
 *   pickup: HOLD_AT_LOCATION with holdAtLocationDetail.locationId ("For HAL Shipment, Location ID is REQUIRED"), the
 *   location found with FedEx's Location Search API, on every domestic service: neither the Ship and Rate API
 *   documents nor the FedEx Service Guide 2026 (logifacts 07dc5e0, read 2026-11-28) names a package service without it, the guide only
 *   that "Hold at Location is not available with Saturday express freight delivery" (p. 142), a freight service shipd
 *   does not sell. Not offered: carbon neutral (no such special service).
 */
export const optionCapabilities: Record<CarrierId, CapabilityTable> = {
  ups: {
    'signature:standard': { code: 'PackageServiceOptions.DeliveryConfirmation.DCISType 2' },
    'signature:adult': { code: 'PackageServiceOptions.DeliveryConfirmation.DCISType 3' },
    saturday_delivery: { code: 'ShipmentServiceOptions.SaturdayDeliveryIndicator', services: upsSaturdayServices },
    additional_handling: { code: 'Package.AdditionalHandlingIndicator' },
    dry_ice: { code: 'PackageServiceOptions.DryIce' },
    'alcohol:consumer': { code: 'ShipmentServiceOptions.RestrictedArticles.AlcoholicBeveragesIndicator' },
    'alcohol:licensee': { code: 'ShipmentServiceOptions.RestrictedArticles.AlcoholicBeveragesIndicator' },
    carbon_neutral: { code: 'ShipmentServiceOptions.UPScarbonneutralIndicator' },
    hold_for_pickup: { code: 'ShipmentIndicationType 01 with AlternateDeliveryAddress.UPSAccessPointID' },
  },
  usps: {
    'signature:standard': { code: '921', services: ['USPS_GROUND_ADVANTAGE', 'PRIORITY_MAIL'] },
    'signature:adult': { code: '922' },
    delivery_confirmation: { code: '920' },
    non_machinable: { code: 'hasNonstandardCharacteristics' },
    dry_ice: { code: '819' },
    'hazmat:limited_quantity': { code: '831', services: ['USPS_GROUND_ADVANTAGE'] },
    'hazmat:lithium_ion_in_equipment': { code: '820' },
    'hazmat:lithium_metal_in_equipment': { code: '820' },
    hold_for_pickup: { code: 'toAddress.holdForPickup with toAddress.facilityId' },
  },
  fedex: {
    'signature:standard': { code: 'signatureOptionType DIRECT' },
    'signature:adult': { code: 'signatureOptionType ADULT' },
    'signature:indirect': { code: 'signatureOptionType INDIRECT', residentialOnly: true },
    saturday_delivery: { code: 'SATURDAY_DELIVERY', services: fedexSaturdayServices },
    additional_handling: { code: 'NON_STANDARD_CONTAINER' },
    dry_ice: { code: 'DRY_ICE' },
    'alcohol:consumer': { code: 'ALCOHOL CONSUMER' },
    'alcohol:licensee': { code: 'ALCOHOL LICENSEE' },
    'hazmat:limited_quantity': { code: 'DANGEROUS_GOODS LIMITED_QUANTITIES_COMMODITIES', services: ['FEDEX_GROUND', 'GROUND_HOME_DELIVERY'] },
    'hazmat:lithium_ion_in_equipment': { code: 'BATTERY LITHIUM_ION CONTAINED_IN_EQUIPMENT' },
    'hazmat:lithium_metal_in_equipment': { code: 'BATTERY LITHIUM_METAL CONTAINED_IN_EQUIPMENT' },
    hold_for_pickup: { code: 'HOLD_AT_LOCATION with holdAtLocationDetail.locationId' },
  },
};

/**
 * What each carrier does of the options on a shipment to another country, and its code for each; an ask without a row
 * is refused abroad. Sources:
 * - UPS: Shipping.yaml and Rating.yaml (UPS-API/api-documentation e6f36df): the Package's DeliveryConfirmation is
 *   "for US50/PR to US50/PR packages", while ShipmentServiceOptions.DeliveryConfirmation takes DCISType "1 - Delivery
 *   Confirmation Signature Required, 2 - Delivery Confirmation Adult Signature Required" for the shipment. Saturday
 *   delivery, dry ice, alcohol and the rest abroad: no list of the export services or origin-destination pairs that
 *   take them is in the stored material, so they are not offered abroad.
 * - FedEx: the Ship API's SIGNATURE_OPTION and SATURDAY_DELIVERY special services, as at home; the FedEx Service Guide
 *   2026 (jfdelascarreras/logifacts lib/pricing/data/sources/fedex/Service_Guide_2026.pdf, commit eaac9f1), "FedEx
 *   Delivery Signature Options" for International Package Services, International Ground included ("For U.S. and
 *   Canada destinations, Indirect Signature Required is available to residential addresses only"), and "Saturday
 *   Delivery" for FedEx International Priority. Dry ice, alcohol and dangerous goods abroad need country-by-country
 *   approval the guide leaves to FedEx, so they are not offered abroad.
 * - USPS: the international-labels extra services (international-labels.yaml 3.2.2) are Tracking Plus, hazardous
 *   materials classes and insurance: no signature, delivery confirmation or the other options, so none abroad.
 */
export const optionCapabilitiesAbroad: Record<CarrierId, CapabilityTable> = {
  ups: {
    'signature:standard': { code: 'ShipmentServiceOptions.DeliveryConfirmation.DCISType 1' },
    'signature:adult': { code: 'ShipmentServiceOptions.DeliveryConfirmation.DCISType 2' },
  },
  fedex: {
    'signature:standard': { code: 'signatureOptionType DIRECT' },
    'signature:adult': { code: 'signatureOptionType ADULT' },
    'signature:indirect': { code: 'signatureOptionType INDIRECT', residentialOnly: true },
    saturday_delivery: { code: 'SATURDAY_DELIVERY', services: ['FEDEX_INTERNATIONAL_PRIORITY'] },
  },
  usps: {},
};

/** The carrier's services that go to another country (FedEx Ground is FedEx International Ground to Canada). */
export const servicesAbroadOf = (carrier: CarrierId) => carrierCatalog.find((c) => c.id === carrier)!.services.filter((s) => !s.domestic || (carrier === 'fedex' && s.code === 'FEDEX_GROUND'));

/** USPS's 981 stands in for 921 on Priority Mail Express, the one class that takes it. */
const uspsExpressSignature: OptionRule = { code: '981', services: ['PRIORITY_MAIL_EXPRESS'] };

/** The carrier's rule for this ask on this service, at home or `abroad`, if it does it there. */
export function optionRule(carrier: CarrierId, service: string, ask: OptionAsk, abroad = false): OptionRule | undefined {
  if (abroad) {
    const rule = optionCapabilitiesAbroad[carrier][ask];
    return rule && servicesAbroadOf(carrier).some((s) => s.code === service) && (rule.services ?? [service]).includes(service) ? rule : undefined;
  }
  const rule = optionCapabilities[carrier][ask] ?? undefined;
  const rules = carrier === 'usps' && ask === 'signature:standard' ? [rule, uspsExpressSignature] : [rule];
  const domestic = domesticServices(carrier).some((s) => s.code === service);
  return rules.find((r) => r !== undefined && domestic && (r.services ?? [service]).includes(service));
}

/** Why a carrier's service cannot do what is asked, naming the option and the field it came from; null when it can. */
export interface OptionRefusal {
  pointer: string;
  detail: string;
}

/**
 * The first ask this service cannot do, for a parcel going to a home or not. `carrierName` and `serviceName` word
 * the reason.
 */
export function optionRefusal(
  carrier: { id: CarrierId; name: string },
  service: { code: string; name: string },
  asks: readonly OptionAsk[],
  residential: boolean,
  abroad = false,
): OptionRefusal | null {
  for (const ask of asks) {
    const { name, pointer } = askNames[ask];
    const rule = optionRule(carrier.id, service.code, ask, abroad);
    if (!rule) {
      const elsewhere = (abroad ? servicesAbroadOf(carrier.id) : domesticServices(carrier.id)).filter((s) => optionRule(carrier.id, s.code, ask, abroad) !== undefined);
      const hint = elsewhere.length > 0 ? `; its ${elsewhere.map((s) => s.name).join(', ')} can` : '';
      return { pointer, detail: `${service.name} does not offer ${name}${abroad ? ' to another country' : ''}${hint}` };
    }
    if (rule.residentialOnly && !residential) return { pointer, detail: `${carrier.name} offers ${name} to a home only; this address is a business` };
  }
  return null;
}

/** How an ask is named in a sentence. */
export const askName = (ask: OptionAsk): string => askNames[ask].name;
export const askPointer = (ask: OptionAsk): string => askNames[ask].pointer;

/** Where a parcel is held for pickup: options.hold_location, when options.hold_for_pickup asks for the hold. */
export function holdLocation(options: ShipmentOptions | undefined): ShipmentOptions['hold_location'] {
  return options?.hold_for_pickup ? options.hold_location : undefined;
}

/**
 * A parcel is held at one carrier's location (options.hold_location): every other carrier is refused, naming whose
 * location it is; null where the location is this carrier's or none is asked.
 */
export function holdLocationRefusal(carrier: { id: CarrierId; name: string }, options: ShipmentOptions | undefined): CarrierResult<never> | null {
  const at = holdLocation(options);
  if (!at || at.carrier === carrier.id) return null;
  return failure('option_not_supported', `the location to hold the parcel at (hold_location ${at.id}) is ${carrierName(at.carrier)}'s; ${carrier.name} holds parcels only at its own`);
}

/** What of the two addresses a carrier needs to hold a parcel at one of its locations, beyond what a label needs. */
export interface HoldNeeds {
  recipient: readonly ('email' | 'phone')[];
  /** `name`: a first and a last name. */
  sender: readonly ('name' | 'email' | 'phone')[];
}

/**
 * USPS, to tell the recipient the parcel is waiting and the sender what became of it: "If the `holdForPickup` field is
 * set to `true` then the `toAddress` object `facilityID`, `email`, and `phone` fields as well as the `fromAddress`
 * object `firstName`, `lastName`, `email`, and `phone` fields are required" (domestic-labels.yaml 3.9.13,
 * karrioapi/karrio e1754707, DomesticLabelToAddress, read 2026-11-28; Labels 3.9.4 the same). UPS's
 * AlternateDeliveryAddress and FedEx's holdAtLocationDetail ask nothing of either address.
 */
export const holdNeeds: Partial<Record<CarrierId, HoldNeeds>> = {
  usps: { recipient: ['email', 'phone'], sender: ['name', 'email', 'phone'] },
};

/**
 * What a live adapter refuses before asking the carrier: a label on a service that does not do an option asked, at
 * home or abroad (the rate shop leaves such services out, and a label bought without the option asked is worse than
 * none); and abroad, a rate shop with an option no service of the carrier does there. `service` is absent for a rate
 * shop, which rating.ts filters service by service.
 */
export function liveOptionsRefusal(
  carrier: { id: CarrierId; name: string },
  request: { options?: ShipmentOptions | undefined; service?: string },
  domestic: boolean,
  residential: boolean,
): CarrierResult<never> | null {
  const asks = optionAsks(request.options);
  if (asks.length === 0) return null;
  const elsewhere = holdLocationRefusal(carrier, request.options);
  if (elsewhere) return elsewhere;
  const known = domestic ? domesticServices(carrier.id) : servicesAbroadOf(carrier.id);
  const services = request.service === undefined ? known : [known.find((s) => s.code === request.service) ?? { code: request.service, name: request.service }];
  const refusals = services.map((s) => optionRefusal(carrier, s, asks, residential, !domestic));
  if (refusals.some((r) => r === null)) return null;
  return failure('option_not_supported', refusals[0]!.detail);
}

/**
 * The live adapters that do not send delivery options to their carrier yet refuse a request with any, so that no
 * label is bought without the signature or the dry-ice declaration it was asked with.
 */
export function optionsNotSentLive(carrierName: string, options: ShipmentOptions | undefined): CarrierResult<never> | null {
  const asks = optionAsks(options);
  if (asks.length === 0) return null;
  return failure('option_not_supported', `shipd does not send delivery options to ${carrierName} live yet (${asks.map(askName).join(', ')}); test mode prices them`);
}
