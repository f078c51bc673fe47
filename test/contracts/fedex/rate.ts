import { Type } from '@sinclair/typebox';
import { countryCodes, hasPostalCodes } from '../../../src/domain/addresses/countries.ts';
import { accountNumber, closed, dimensions, isoDate, packageSpecialServices, packagingTypes, pickupTypes, serviceTypes, specialServices, strings, weight } from './parts.ts';

/*
 * POST /rate/v1/rates/quotes, schema Full_Schema_Quote_Rate of rates-transit-times/v1/RateQuotes-Resource.json
 * ("Rates and Transit Times API", info.version 1.0.0) in ShipStream/fedex-rest-php-sdk resources/models/.raw/ at
 * commit bc94dcd2c7254f105842125a3eb671c3f614d072 (2025-10-17). Only the parts shipd could send are spelled out; a
 * field outside them is refused (see parts.ts).
 */

/** Countries without postal codes, which FedEx calls not "postal aware" (the same data shipd's addresses use). */
const notPostalAware = countryCodes.filter((c) => !hasPostalCodes(c));

/**
 * RateAddress (Address_2 plus countryCode and postalCode required; its descriptions: "Postal code is required for
 * postal aware countries", "optional for non postal-aware countries", which this schema follows). The rate document
 * defines no streetLines for the shipper and recipient: a rate depends on the postal code and the residential flag only.
 */
const rateAddress = closed(
  {
    city: Type.String(),
    stateOrProvinceCode: Type.String({ maxLength: 2 }),
    postalCode: Type.String({ minLength: 1, maxLength: 10 }),
    countryCode: Type.String({ minLength: 2, maxLength: 2 }),
    residential: Type.Boolean(),
  },
  {
    required: ['countryCode'],
    if: { properties: { countryCode: { enum: notPostalAware } } },
    else: { required: ['postalCode'] },
  },
);

const rateParty = closed({ address: rateAddress }, { required: ['address'] });

const money = closed({ amount: Type.Number(), currency: Type.String({ minLength: 3, maxLength: 3 }) }, { required: ['amount', 'currency'] });

/** BatteryClassificationDetail of the rate document (the ship document names these fields otherwise). */
const batteryDetail = closed({ material: strings(['LITHIUM_METAL', 'LITHIUM_ION']), regulatorySubType: strings(['IATA_SECTION_II']), packing: strings(['CONTAINED_IN_EQUIPMENT', 'PACKED_WITH_EQUIPMENT']) });

/**
 * RequestedPackageLineItem: weight required; declaredValue is Money (amount a number, currency a code);
 * groupPackageCount "the number of identical package(s)". No sequenceNumber or customerReferences: those are the
 * ship document's.
 */
const packageLineItem = closed(
  { weight, dimensions, groupPackageCount: Type.Integer({ minimum: 1 }), subPackagingType: Type.String(), declaredValue: money, packageSpecialServices: packageSpecialServices(batteryDetail) },
  { required: ['weight'] },
);

/** ShipmentSpecialServicesRequested_returnShipmentDetail.returnType of the rate document. */
export const rateReturnTypes = ['FEDEX_TAG', 'PENDING', 'PRINT_RETURN_LABEL', 'EMAIL_LABEL', 'NET_RETURN', 'VOICE_CALL_TAG'] as const;

/**
 * RequestedShipmentCustomsClearanceDetail: "Customs commodity data is required for international and intra-country
 * rating" (CustomsClearanceDetail requires commodities); Commodity's weight is Weight_2 (KG or LB).
 */
const customsClearanceDetail = closed(
  {
    dutiesPayment: closed({ paymentType: strings(['SENDER', 'RECIPIENT', 'THIRD_PARTY', 'COLLECT']) }),
    commercialInvoice: closed({ shipmentPurpose: strings(['GIFT', 'NOT_SOLD', 'PERSONAL_EFFECTS', 'REPAIR_AND_RETURN', 'SAMPLE', 'SOLD']), termsOfSale: Type.String({ minLength: 3, maxLength: 3 }) }),
    commodities: Type.Array(
      closed(
        {
          description: Type.String({ minLength: 1, maxLength: 450 }),
          name: Type.String(),
          weight,
          quantity: Type.Integer({ minimum: 1 }),
          quantityUnits: Type.String({ minLength: 1 }),
          numberOfPieces: Type.Integer({ minimum: 1, maximum: 9999 }),
          customsValue: money,
          unitPrice: money,
          countryOfManufacture: Type.String({ minLength: 2, maxLength: 4 }),
          harmonizedCode: Type.String({ minLength: 1 }),
          partNumber: Type.String(),
        },
        { required: ['description'] },
      ),
      { minItems: 1 },
    ),
  },
  { required: ['commodities'] },
);

/** A rate to another country (shipd ships from the US) needs the customs commodities. */
const abroadRules = {
  if: { properties: { recipient: { properties: { address: { properties: { countryCode: { not: { const: 'US' } } } } } } } },
  then: { required: ['customsClearanceDetail'] },
};

export const fedexRateRequest = closed(
  {
    accountNumber,
    rateRequestControlParameters: closed({
      returnTransitTimes: Type.Boolean(),
      servicesNeededOnRateFailure: Type.Boolean(),
      variableOptions: strings(['SATURDAY_DELIVERY', 'FREIGHT_GUARANTEE', 'SMART_POST_ALLOWED_INDICIA', 'SMARTPOST_HUB_ID']),
      rateSortOrder: strings(['COMMITASCENDING', 'SERVICENAMETRADITIONAL', 'COMMITDESCENDING']),
    }),
    requestedShipment: closed(
      {
        shipper: rateParty,
        recipient: rateParty,
        serviceType: strings(serviceTypes),
        preferredCurrency: Type.String({ minLength: 3, maxLength: 3 }),
        rateRequestType: Type.Array(strings(['LIST', 'INCENTIVE', 'ACCOUNT', 'PREFERRED']), { minItems: 1, uniqueItems: true }),
        shipDateStamp: isoDate,
        pickupType: strings(pickupTypes),
        packagingType: strings(packagingTypes),
        // "Maximum occurrences is 99."
        requestedPackageLineItems: Type.Array(packageLineItem, { minItems: 1, maxItems: 99 }),
        // "Indicate the total number of packages in the shipment. The Maximum number of packages in a rate request is
        // 100." (the fake checks it against the line items).
        totalPackageCount: Type.Integer({ minimum: 1, maximum: 100 }),
        totalWeight: Type.Number(),
        shipmentSpecialServices: specialServices(rateReturnTypes),
        customsClearanceDetail,
      },
      { required: ['pickupType', 'recipient', 'requestedPackageLineItems', 'shipper'], ...abroadRules },
    ),
    carrierCodes: Type.Array(strings(['FDXE', 'FDXG', 'FXSP', 'FXCC'])),
  },
  { required: ['accountNumber', 'requestedShipment'] },
);
