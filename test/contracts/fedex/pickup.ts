import { Type } from '@sinclair/typebox';
import { accountNumber, closed, isoDate, streetLines, strings, weight } from './parts.ts';

// FedEx's Pickup Request API 1.0.0, in ShipStream/fedex-rest-php-sdk
// resources/models/.raw/pickup-request/v1/Pickup-Resource.json (commit bc94dcd2c7254f105842125a3eb671c3f614d072,
// 2025-10-17). Create Pickup, `POST /pickup/v1/pickups` (Full_Schema_Create_Pickup); Check Pickup Availability,
// `POST /pickup/v1/pickups/availabilities` (Full_Schema_Pickup_Availability); Cancel Pickup,
// `PUT /pickup/v1/pickups/cancel` (Full_Schema_Cancel_Pickup). Required fields and enums are the document's; lengths
// are those its descriptions state. Express Freight, notification and Europe-only fields are left out: shipd sends
// none of them, so the contract refuses them as a misspelling would be.

/** HH:MM:SS on a 24-hour clock, "local to the pickup postal code", without a zone designator. */
const localTime = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$' });

/** PickupLocationParty: address (streetLines, city, state, postal code and country required) and contact. */
const pickupLocation = closed(
  {
    address: closed(
      {
        streetLines,
        city: Type.String({ minLength: 1, maxLength: 35 }),
        stateOrProvinceCode: Type.String({ minLength: 2, maxLength: 2 }),
        postalCode: Type.String({ minLength: 1, maxLength: 10 }),
        countryCode: Type.String({ minLength: 2, maxLength: 2 }),
        residential: Type.Boolean(),
      },
      { required: ['streetLines', 'city', 'stateOrProvinceCode', 'postalCode', 'countryCode'] },
    ),
    // Contact_CreatePickup: "Maximum length is 35", "Maximum Length is 70", "Minimum Length is 8 and Maximum legth is 13", "Maximum length is 6".
    contact: closed({
      companyName: Type.String({ maxLength: 35 }),
      personName: Type.String({ maxLength: 70 }),
      phoneNumber: Type.String({ minLength: 8, maxLength: 13 }),
      phoneExtension: Type.String({ maxLength: 6 }),
    }),
  },
  { required: ['address', 'contact'] },
);

const carrierCode = strings(['FDXE', 'FDXG']);
/** "Maximum length is 60 characters." */
const remarks = Type.String({ maxLength: 60 });

export const fedexCreatePickupRequest = closed(
  {
    associatedAccountNumber: accountNumber,
    associatedAccountNumberType: strings(['FEDEX_EXPRESS', 'FEDEX_GROUND']),
    originDetail: closed(
      {
        pickupAddressType: strings(['ACCOUNT', 'SHIPPER', 'OTHER']),
        pickupLocation,
        // "The date format must be YYYY-MM-DDTHH:MM:SS … Do not include a TZD"; the document's examples still end in Z.
        readyDateTimestamp: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\dZ?$' }),
        customerCloseTime: localTime,
        pickupDateType: strings(['SAME_DAY', 'FUTURE_DAY']),
        packageLocation: strings(['FRONT', 'NONE', 'REAR', 'SIDE']),
        buildingPart: strings(['APARTMENT', 'BUILDING', 'DEPARTMENT', 'FLOOR', 'ROOM', 'SUITE']),
        buildingPartDescription: Type.String(),
        suppliesRequested: Type.String(),
      },
      { required: ['pickupLocation', 'readyDateTimestamp', 'customerCloseTime'] },
    ),
    totalWeight: weight,
    packageCount: Type.Integer({ minimum: 1 }),
    carrierCode,
    remarks,
    countryRelationships: strings(['DOMESTIC', 'INTERNATIONAL']),
    pickupType: Type.String(),
    trackingNumber: Type.String(),
    commodityDescription: Type.String(),
    oversizePackageCount: Type.Integer({ minimum: 0 }),
  },
  {
    required: ['associatedAccountNumber', 'carrierCode', 'originDetail'],
    // packageLocation "is mandatory for Ground Pickup".
    if: { properties: { carrierCode: { const: 'FDXG' } } },
    then: { properties: { originDetail: { required: ['packageLocation'] } } },
  },
);

export const fedexPickupAvailabilityRequest = closed(
  {
    pickupAddress: closed(
      {
        streetLines,
        city: Type.String({ maxLength: 35 }),
        stateOrProvinceCode: Type.String({ maxLength: 2 }),
        postalCode: Type.String({ minLength: 1, maxLength: 10 }),
        countryCode: Type.String({ minLength: 2, maxLength: 2 }),
        residential: Type.Boolean(),
      },
      { required: ['postalCode', 'countryCode'] },
    ),
    dispatchDate: isoDate,
    packageReadyTime: localTime,
    customerCloseTime: localTime,
    pickupType: strings(['ON_CALL', 'TAG']),
    pickupRequestType: Type.Array(strings(['SAME_DAY', 'FUTURE_DAY']), { minItems: 1, uniqueItems: true }),
    numberOfBusinessDays: Type.Integer({ minimum: 1 }),
    associatedAccountNumber: Type.String({ minLength: 1, maxLength: 9 }),
    associatedAccountNumberType: strings(['FEDEX_EXPRESS', 'FEDEX_GROUND']),
    carriers: Type.Array(carrierCode, { minItems: 1, uniqueItems: true }),
    countryRelationship: strings(['DOMESTIC', 'INTERNATIONAL']),
  },
  { required: ['carriers', 'countryRelationship', 'pickupAddress', 'pickupRequestType'] },
);

export const fedexCancelPickupRequest = closed(
  {
    associatedAccountNumber: accountNumber,
    pickupConfirmationCode: Type.String({ minLength: 1 }),
    remarks,
    carrierCode,
    scheduledDate: isoDate,
    location: Type.String({ minLength: 1 }),
  },
  {
    required: ['pickupConfirmationCode', 'scheduledDate', 'associatedAccountNumber'],
    // carrierCode is "Required for FedEx Ground", absent meaning Express; location is "required to cancel a FedEx
    // Express dispatch".
    if: { not: { properties: { carrierCode: { const: 'FDXG' } }, required: ['carrierCode'] } },
    then: { required: ['location'] },
  },
);
