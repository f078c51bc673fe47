import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

/*
 * Pieces the FedEx request contracts share, written from FedEx's published API documents as copied in
 * ShipStream/fedex-rest-php-sdk, resources/models/.raw/ (commit bc94dcd2c7254f105842125a3eb671c3f614d072,
 * 2025-10-17; each document says openapi 3.0.0, info.version 1.0 / 1.0.0), and from the enumerations those documents
 * point to ("Click here to see Service Types", loadDocReference) in FedEx's API Reference Guide, as copied in
 * karrioapi/karrio modules/connectors/fedex/vendor/" API-Reference-Guide.html" (commit 0f7414f080232b0095b6d64a36085d5b669e4bd8).
 *
 * FedEx's documents declare no additionalProperties; every object here is closed all the same. FedEx ignores a
 * field it does not define, so a misspelt one (shipDateStamp for the ship API's shipDatestamp) is a setting we
 * believe we sent and FedEx never read: the contract refuses it so that a test or the fake catches it.
 */

/** An object that admits only the fields FedEx's document defines for it, of which `required` must be there. */
export function closed(properties: TProperties, options: { required?: string[] } & Record<string, unknown> = {}): TObject {
  const { required = [], ...rest } = options;
  const fields = Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, required.includes(name) ? schema : Type.Optional(schema)]));
  return Type.Object(fields, { additionalProperties: false, ...rest });
}

export const strings = (values: readonly string[]): TSchema => Type.Unsafe<string>({ type: 'string', enum: [...values] });

/** "Required Format is YYYY-MM-DD" (rate shipDateStamp, ship shipDatestamp, track shipDateBegin/End). */
export const isoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** "The account number value. Maximum length is 9." (ShipperAccountNumber; rate AccountNumber says the same). */
export const accountNumber = closed({ value: Type.String({ minLength: 1, maxLength: 9 }) }, { required: ['value'] });

/** A street line: the documents say empty lines must not be sent and each line holds at most 35 characters. */
const streetLine = Type.String({ minLength: 1, maxLength: 35, pattern: '\\S' });
/** "At least one line is required and streetlines more than 3 will be ignored." */
export const streetLines = Type.Array(streetLine, { minItems: 1, maxItems: 3 });

/** US Region Service List of the API Reference Guide ("Service Types"). */
export const serviceTypes = [
  'FEDEX_INTERNATIONAL_PRIORITY_EXPRESS', 'INTERNATIONAL_FIRST', 'FEDEX_INTERNATIONAL_PRIORITY', 'FEDEX_FREIGHT_PRIORITY',
  'FEDEX_FREIGHT_ECONOMY', 'INTERNATIONAL_ECONOMY', 'FEDEX_GROUND', 'FIRST_OVERNIGHT', 'FEDEX_FIRST_FREIGHT',
  'FEDEX_1_DAY_FREIGHT', 'FEDEX_2_DAY_FREIGHT', 'FEDEX_3_DAY_FREIGHT', 'INTERNATIONAL_PRIORITY_FREIGHT',
  'INTERNATIONAL_ECONOMY_FREIGHT', 'FEDEX_INTERNATIONAL_CONNECT_PLUS', 'FEDEX_INTERNATIONAL_DEFERRED_FREIGHT',
  'INTERNATIONAL_PRIORITY_DISTRIBUTION', 'INTERNATIONAL_DISTRIBUTION_FREIGHT', 'INTL_GROUND_DISTRIBUTION',
  'GROUND_HOME_DELIVERY', 'SMART_POST', 'PRIORITY_OVERNIGHT', 'STANDARD_OVERNIGHT', 'FEDEX_2_DAY', 'FEDEX_2_DAY_AM',
  'FEDEX_EXPRESS_SAVER', 'SAME_DAY', 'SAME_DAY_CITY',
] as const;

/** "Package Types" of the API Reference Guide. */
export const packagingTypes = [
  'YOUR_PACKAGING', 'FEDEX_ENVELOPE', 'FEDEX_BOX', 'FEDEX_SMALL_BOX', 'FEDEX_MEDIUM_BOX', 'FEDEX_LARGE_BOX',
  'FEDEX_EXTRA_LARGE_BOX', 'FEDEX_10KG_BOX', 'FEDEX_25KG_BOX', 'FEDEX_PAK', 'FEDEX_TUBE',
] as const;

/** "Shipment Level Special Service Types" of the API Reference Guide. */
export const shipmentSpecialServiceTypes = [
  'APPOINTMENT', 'BROKER_SELECT_OPTION', 'CALL_BEFORE_DELIVERY', 'COD', 'CUSTOM_DELIVERY_WINDOW', 'CUT_FLOWERS',
  'DO_NOT_BREAK_DOWN_PALLETS', 'DO_NOT_STACK_PALLETS', 'DRY_ICE', 'EAST_COAST_SPECIAL', 'EXCLUDE_FROM_CONSOLIDATION',
  'EXTREME_LENGTH', 'INSIDE_DELIVERY', 'INSIDE_PICKUP', 'INTERNATIONAL_CONTROLLED_EXPORT_SERVICE', 'FEDEX_ONE_RATE',
  'THIRD_PARTY_CONSIGNEE', 'ELECTRONIC_TRADE_DOCUMENTS', 'FOOD', 'HOLD_AT_LOCATION',
  'INTERNATIONAL_TRAFFIC_IN_ARMS_REGULATIONS', 'LIFTGATE_DELIVERY', 'LIFTGATE_PICKUP', 'LIMITED_ACCESS_DELIVERY',
  'LIMITED_ACCESS_PICKUP', 'OVER_LENGTH', 'PENDING_SHIPMENT', 'PHARMACY_DELIVERY', 'POISON', 'HOME_DELIVERY_PREMIUM',
  'PROTECTION_FROM_FREEZING', 'RETURNS_CLEARANCE', 'RETURN_SHIPMENT', 'SATURDAY_DELIVERY', 'SATURDAY_PICKUP',
  'EVENT_NOTIFICATION', 'DELIVERY_ON_INVOICE_ACCEPTANCE', 'TOP_LOAD', 'FREIGHT_GUARANTEE',
] as const;

/** pickupType's enum, the same in the rate and ship documents. */
export const pickupTypes = ['CONTACT_FEDEX_TO_SCHEDULE', 'DROPOFF_AT_FEDEX_LOCATION', 'USE_SCHEDULED_PICKUP'] as const;

/** Weight (ship) and Weight_2 (rate): both fields required, units KG or LB. */
export const weight = closed(
  { units: strings(['KG', 'LB']), value: Type.Number() },
  { required: ['units', 'value'] },
);

/**
 * Dimensions: "all three dimensions must be indicated", "whole numbers greater than zero", "Maximum value: 999",
 * units IN or CM.
 */
const side = Type.Integer({ minimum: 1, maximum: 999 });
export const dimensions = closed(
  { length: side, width: side, height: side, units: strings(['IN', 'CM']) },
  { required: ['length', 'width', 'height', 'units'] },
);

/** "Package Level Special Service Types" of the API Reference Guide. */
export const packageSpecialServiceTypes = [
  'ALCOHOL', 'APPOINTMENT', 'BATTERY', 'COD', 'DANGEROUS_GOODS', 'DRY_ICE', 'PRIORITY_ALERT', 'PRIORITY_ALERT_PLUS',
  'NON_STANDARD_CONTAINER', 'PIECE_COUNT_VERIFICATION', 'SIGNATURE_OPTION', 'EVENING', 'DATE_CERTAIN', 'SATURDAY_PICKUP',
  'STANDALONE_BATTERY', 'BIOLOGICAL_SUBSTANCES_CATEGORY_B', 'DANGEROUS_GOODS_IN_EXCEPTED_QUANTITIES',
  'GENETICALLY_MODIFIED_ORGANISMS_AND_MICROORGANISMS', 'RADIOACTIVE_EXCEPTED_PACKAGE',
] as const;

/** "For Dry Ice the unit of measure is KG" (Weight_1 of the ship document, Weight_1_2 of the rate one). */
const dryIceWeight = closed({ units: strings(['KG']), value: Type.Number({ exclusiveMinimum: 0 }) }, { required: ['units', 'value'] });

/** A special service type in the list, and the detail that goes with it present; the detail without the type, refused. */
const pairs = (type: string, detail: string) => [
  { if: { required: ['specialServiceTypes'], properties: { specialServiceTypes: { contains: { const: type } } } }, then: { required: [detail] } },
  { if: { required: [detail] }, then: { required: ['specialServiceTypes'], properties: { specialServiceTypes: { contains: { const: type } } } } },
];

/**
 * PackageSpecialServicesRequested, in both documents: signatureOptionType's enum; AlcoholDetail "required for
 * alcohol special service. The alcoholRecipientType is required" (LICENSEE, CONSUMER); DangerousGoodsDetail options
 * and regulation enums; dryIceWeight. The battery detail is the document's own (BatteryDetail in ship,
 * BatteryClassificationDetail in rate). Each detail goes with its type, by the rule quoted for specialServices below.
 */
export function packageSpecialServices(batteryDetail: TSchema) {
  return closed(
    {
      specialServiceTypes: Type.Array(strings(packageSpecialServiceTypes), { uniqueItems: true, minItems: 1 }),
      signatureOptionType: strings(['SERVICE_DEFAULT', 'NO_SIGNATURE_REQUIRED', 'INDIRECT', 'DIRECT', 'ADULT']),
      alcoholDetail: closed({ alcoholRecipientType: strings(['LICENSEE', 'CONSUMER']), shipperAgreementType: Type.String() }, { required: ['alcoholRecipientType'] }),
      dangerousGoodsDetail: closed({
        regulation: strings(['ADR', 'DOT', 'IATA', 'ORMD']),
        accessibility: strings(['ACCESSIBLE', 'INACCESSIBLE']),
        options: Type.Array(strings(['HAZARDOUS_MATERIALS', 'BATTERY', 'ORM_D', 'REPORTABLE_QUANTITIES', 'SMALL_QUANTITY_EXCEPTION', 'LIMITED_QUANTITIES_COMMODITIES']), { minItems: 1 }),
      }),
      batteryDetails: Type.Array(batteryDetail, { minItems: 1 }),
      dryIceWeight,
    },
    {
      allOf: [
        ...pairs('SIGNATURE_OPTION', 'signatureOptionType'),
        ...pairs('ALCOHOL', 'alcoholDetail'),
        ...pairs('DRY_ICE', 'dryIceWeight'),
        ...pairs('DANGEROUS_GOODS', 'dangerousGoodsDetail'),
        ...pairs('BATTERY', 'batteryDetails'),
      ],
    },
  );
}

/**
 * HoldAtLocationDetail, the same in the ship and rate documents (read 2026-11-28): locationId required ("For HAL
 * Shipment, Location ID is REQUIRED"; "an alphanumeric identifier", e.g. YBZA) and locationType's enum.
 * locationContactAndAddress is left out: shipd names the location by its id only.
 */
const holdAtLocationDetail = closed(
  {
    locationId: Type.String({ minLength: 1, pattern: '^[A-Za-z0-9]+$' }),
    locationType: strings(['FEDEX_AUTHORIZED_SHIP_CENTER', 'FEDEX_OFFICE', 'FEDEX_SELF_SERVICE_LOCATION', 'FEDEX_STAFFED', 'RETAIL_ALLICANCE_LOCATION', 'FEDEX_GROUND_TERMINAL', 'FEDEX_ONSITE']),
  },
  { required: ['locationId'] },
);

/**
 * "If the shipper is requesting a special service which requires additional data (such as the COD amount), the
 * special service type must be present in the specialServiceTypes collection, and the supporting detail must be
 * provided": a returnShipmentDetail goes with RETURN_SHIPMENT, and RETURN_SHIPMENT ("required for creating return
 * shipments") with its returnShipmentDetail; shipmentDryIceDetail ("required when SpecialServiceType DRY_ICE is
 * selected": packageCount, and the total weight in KG) with DRY_ICE; holdAtLocationDetail ("Required, when
 * HOLD_AT_LOCATION is chosen in the specialServiceTypes") with HOLD_AT_LOCATION.
 */
export function specialServices(returnTypes: readonly string[], returnDetail: Record<string, TSchema> = {}, returnRequired: string[] = [], details: TProperties = {}) {
  return closed(
    {
      specialServiceTypes: Type.Array(strings(shipmentSpecialServiceTypes), { uniqueItems: true }),
      returnShipmentDetail: closed({ returnType: strings(returnTypes), ...returnDetail }, { required: ['returnType', ...returnRequired] }),
      shipmentDryIceDetail: closed({ totalWeight: dryIceWeight, packageCount: Type.Integer({ minimum: 1 }) }, { required: ['packageCount'] }),
      holdAtLocationDetail,
      ...details,
    },
    {
      allOf: [...pairs('RETURN_SHIPMENT', 'returnShipmentDetail'), ...pairs('DRY_ICE', 'shipmentDryIceDetail'), ...pairs('HOLD_AT_LOCATION', 'holdAtLocationDetail')],
    },
  );
}
