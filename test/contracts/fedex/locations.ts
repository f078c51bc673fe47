import { Type } from '@sinclair/typebox';
import { closed, streetLines, strings } from './parts.ts';

// FedEx's Location Search API 1.0.0, Find Locations, `POST /location/v1/locations` (Full_Schema_Find_Location and
// the schemas it names: LocationsSummaryRequestControlParameters, Distance, Location, Address, Sort,
// LocationCapabilities), in ShipStream/fedex-rest-php-sdk resources/models/locations-search/v1.json (commit
// bc94dcd2c7254f105842125a3eb671c3f614d072, 2025-10-17), read 2026-11-28. Required fields and enums are the
// document's. The geocode, phone-number, tracking, drop-off and package filters are left out: shipd sends none of
// them, so the contract refuses them as a misspelling would be (parts.ts).

/**
 * Address: countryCode required ("Country code is REQUIRED for the search"); "City or PostalCode is mandatory when
 * search criteria is ADDRESS", and "Postal code is required for postal-aware countries" (the US among them).
 */
const searchAddress = closed(
  {
    streetLines,
    city: Type.String({ minLength: 1 }),
    stateOrProvinceCode: Type.String({ minLength: 1 }),
    postalCode: Type.String({ minLength: 1 }),
    countryCode: Type.String({ minLength: 2, maxLength: 5 }),
  },
  {
    required: ['countryCode'],
    anyOf: [{ required: ['postalCode'] }, { required: ['city'] }],
    if: { properties: { countryCode: { const: 'US' } } },
    then: { required: ['postalCode'] },
  },
);

/** LocationCapabilities: "ability to hold shipments for pickup" is transferOfPossessionType HOLD_AT_LOCATION. */
const locationCapability = closed({
  serviceType: Type.String({ minLength: 1 }),
  carrierCode: strings(['FDXE', 'FDXG']),
  transferOfPossessionType: strings(['DROPOFF', 'HOLD_AT_LOCATION', 'REDIRECT_TO_HOLD_AT_LOCATION']),
  serviceCategory: strings(['EXPRESS_FREIGHT', 'EXPRESS_PARCEL', 'GROUND_HOME_DELIVERY']),
  daysOfWeek: Type.Array(strings(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']), { minItems: 1, uniqueItems: true }),
});

export const fedexFindLocationsRequest = closed(
  {
    locationsSummaryRequestControlParameters: closed({
      distance: closed({ units: strings(['KM', 'MI']), value: Type.Number({ exclusiveMinimum: 0 }) }),
      maxResults: Type.Integer({ minimum: 1 }),
    }),
    // "Default value is ADDRESS if no value is passed"; shipd searches by address only.
    locationSearchCriterion: strings(['ADDRESS']),
    location: closed({ address: searchAddress }, { required: ['address'] }),
    multipleMatchesAction: strings(['RETURN_ALL', 'RETURN_ERROR', 'RETURN_FIRST']),
    sort: closed({
      criteria: strings(['DISTANCE', 'LATEST_EXPRESS_DROPOFF_TIME', 'LATEST_GROUND_DROPOFF_TIME', 'LOCATION_TYPE']),
      order: strings(['ASCENDING', 'DESCENDING']),
    }),
    locationCapabilities: Type.Array(locationCapability, { minItems: 1 }),
    locationTypes: Type.Array(
      strings(['FEDEX_AUTHORIZED_SHIP_CENTER', 'FEDEX_OFFICE', 'FEDEX_SELF_SERVICE_LOCATION', 'FEDEX_ONSITE', 'FEDEX_EXPRESS_STATION', 'FEDEX_SHIPSITE', 'FEDEX_SHIP_AND_GET']),
      { minItems: 1, uniqueItems: true },
    ),
    sameState: Type.Boolean(),
    sameCountry: Type.Boolean(),
  },
  { required: ['location'] },
);
