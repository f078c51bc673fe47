import { failure, ok, type CarrierResult, type FoundLocation, type LocationQuery } from '../carrier.ts';
import { asArray, asNumber, asString, at } from '../live/lenient.ts';

// FedEx's Location Search API 1.0.0, Find Locations (POST /location/v1/locations: Full_Schema_Find_Location in,
// LoccResponseVO / LocationSummaryOutputVO / LocationDetail out), as kept in ShipStream/fedex-rest-php-sdk
// resources/models/locations-search/v1.json (commit bc94dcd2c7254f105842125a3eb671c3f614d072), read 2026-11-28.

export const locationsPath = '/location/v1/locations';

/** "It returns up to 75 locations within a 50-mile radius for the address used in the search criteria." */
const searchRadiusMiles = 50;

const kmPerMile = 1.609344;

/**
 * LocationDetail.locationType in FedEx's own names for its locations; a type not listed here is shown as FedEx
 * spells it, so a new one is still told apart.
 */
const locationKinds: Readonly<Record<string, string>> = {
  FEDEX_AUTHORIZED_SHIP_CENTER: 'FedEx Authorized ShipCenter',
  FEDEX_OFFICE: 'FedEx Office',
  FEDEX_SELF_SERVICE_LOCATION: 'FedEx self-service location',
  FEDEX_EXPRESS_STATION: 'FedEx Express station',
  FEDEX_STAFFED: 'FedEx staffed location',
  FEDEX_GROUND_TERMINAL: 'FedEx Ground terminal',
  FEDEX_HOME_DELIVERY_STATION: 'FedEx Home Delivery station',
  FEDEX_ONSITE: 'FedEx OnSite',
  FEDEX_SHIPSITE: 'FedEx ShipSite',
  FEDEX_FACILITY: 'FedEx facility',
  FEDEX_FREIGHT_SERVICE_CENTER: 'FedEx Freight service center',
  FEDEX_SMART_POST_HUB: 'FedEx SmartPost hub',
};

/**
 * Find Locations by address around a US ZIP Code, nearest first. locationCapabilities' transferOfPossessionType
 * HOLD_AT_LOCATION ("ability to hold shipments for pickup") asks only for the locations that hold parcels, the ones
 * whose locationId the ship request's holdAtLocationDetail takes; the country code "is REQUIRED for the search", and
 * the postal code with it is enough ("City or PostalCode is mandatory when search criteria is ADDRESS").
 */
export function buildLocationsRequest(query: LocationQuery): Record<string, unknown> {
  return {
    locationsSummaryRequestControlParameters: { distance: { units: 'MI', value: searchRadiusMiles }, maxResults: query.limit },
    locationSearchCriterion: 'ADDRESS',
    location: { address: { postalCode: query.zip, countryCode: 'US' } },
    multipleMatchesAction: 'RETURN_ALL',
    sort: { criteria: 'DISTANCE', order: 'ASCENDING' },
    locationCapabilities: [{ transferOfPossessionType: 'HOLD_AT_LOCATION' }],
  };
}

/** Distance's value in miles, whichever of KM and MI FedEx answered in, to a tenth; null when it names none. */
function miles(distance: unknown): number | null {
  const value = asNumber(at(distance, 'value'));
  if (value === undefined) return null;
  const inMiles = asString(at(distance, 'units'))?.toUpperCase() === 'KM' ? value / kmPerMile : value;
  return Math.round(inMiles * 10) / 10;
}

/** The location's name: its company (the store's name), else the display names FedEx gives the address. */
function nameOf(contactAndAddress: unknown, kind: string): string {
  return asString(at(contactAndAddress, 'contact', 'companyName')) ?? asString(at(contactAndAddress, 'addressAncillaryDetail', 'displayName')) ?? asString(at(contactAndAddress, 'displayName')) ?? kind;
}

/** One LocationDetail, or undefined when it lacks the id or the street address a recipient needs to go there. */
function location(detail: unknown): FoundLocation | undefined {
  const id = asString(at(detail, 'locationId'));
  const place = at(detail, 'contactAndAddress');
  const address = at(place, 'address');
  const [street1, street2] = asArray(at(address, 'streetLines')).map(asString).filter((s): s is string => !!s);
  const city = asString(at(address, 'city'));
  const state = asString(at(address, 'stateOrProvinceCode'));
  const zip = asString(at(address, 'postalCode'));
  if (!id || !street1 || !city || !state || !zip) return undefined;
  const type = asString(at(detail, 'locationType'));
  const kind = type ? (locationKinds[type] ?? type) : 'FedEx location';
  return {
    id,
    name: nameOf(place, kind),
    kind,
    address: { street1, ...(street2 && { street2 }), city, state, zip, country: asString(at(address, 'countryCode')) ?? 'US' },
    distanceMiles: miles(at(detail, 'distance')),
  };
}

/** LocationSummaryOutputVO's locationDetailList, nearest first, at most `limit` of them. */
export function parseLocationsResponse(json: unknown, limit: number): CarrierResult<FoundLocation[]> {
  const output = at(json, 'output');
  if (!output || typeof output !== 'object') return failure('carrier_error', 'FedEx answered the location search without an output');
  const found = asArray(at(output, 'locationDetailList'))
    .map(location)
    .filter((l): l is FoundLocation => l !== undefined);
  const nearestFirst = found.map((l, i) => ({ l, i })).sort((a, b) => (a.l.distanceMiles ?? Infinity) - (b.l.distanceMiles ?? Infinity) || a.i - b.i);
  return ok(nearestFirst.slice(0, limit).map(({ l }) => l));
}
