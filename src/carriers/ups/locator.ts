import { randomUUID } from 'node:crypto';
import { failure, ok, type CarrierResult, type FoundLocation, type LocationQuery } from '../carrier.ts';
import { asArray, asNumber, asString, at } from '../live/lenient.ts';
import { lookupZip } from '../zips.ts';
import { transactionSrc, type UpsCall } from './wire.ts';

// UPS's Locator API, from Locator.yaml in UPS-API/api-documentation at commit e6f36df4da29ac1b448c898a79aac48f653bbb44
// (2026-07-21), read 2026-11-28; test/contracts/ups/locator.ts holds our schema of the request. Only its UPS Access
// Point search is used: POST /locations/{version}/search/availabilities/{reqOption} with reqOption "64-Search for UPS
// Access Point Locations", around a ZIP Code or by an Access Point's public id.

/** "Valid values: - v3" (v1 is the deprecated path's). */
export const locatorVersion = 'v3';

/** reqOption 64: "Search for UPS Access Point Locations". */
const accessPointSearch = '64';

/**
 * Shipping.yaml's AlternateDeliveryAddress.UPSAccessPointID is exactly 9 characters, where the Locator's
 * PublicAccessPointID is 1 to 15: an Access Point whose id is not 9 long cannot be named in a ship request.
 */
export const accessPointIdLength = 9;

/** LocationSearchCriteria.MaximumListSize: "ranges from 1 to 50 with a default value of 5". */
const maxListSize = 50;

/** AccessPointStatus "01-Active-available": an Access Point that is suspended or unavailable takes no parcel. */
const activeAvailable = '01';

/** What the Locator is told of the place searched from. */
interface Origin {
  street: string;
  city: string;
  state: string;
  zip: string;
}

/**
 * OriginAddress.AddressKeyFormat: the spec makes AddressLine, PoliticalDivision2 (city), PoliticalDivision1 (state),
 * PostcodePrimaryLow and CountryCode required, with these lengths, even for a search by public id, where "address or
 * geocode search is ignored".
 */
function locatorRequest(origin: Origin, criteria: Record<string, unknown>): UpsCall {
  return {
    path: `/api/locations/${locatorVersion}/search/availabilities/${accessPointSearch}`,
    headers: { transId: randomUUID().replaceAll('-', ''), transactionSrc },
    body: {
      LocatorRequest: {
        // RequestAction: "The only valid value is 'Locator'".
        Request: { RequestAction: 'Locator', TransactionReference: { CustomerContext: 'shipd access points' } },
        OriginAddress: {
          AddressKeyFormat: {
            AddressLine: origin.street.slice(0, 100),
            PoliticalDivision2: origin.city.slice(0, 50),
            PoliticalDivision1: origin.state.slice(0, 50),
            PostcodePrimaryLow: origin.zip.slice(0, 5),
            CountryCode: 'US',
          },
        },
        Translate: { Locale: 'en_US' },
        UnitOfMeasurement: { Code: 'MI' },
        LocationSearchCriteria: criteria,
        // SortType "01-Closest Location": nearest first, as GET /carrier-locations lists them.
        SortCriteria: { SortType: '01' },
      },
    },
  };
}

/**
 * The active Access Points around a ZIP Code, nearest first. A ZIP search has no street, which the spec requires,
 * so the ZIP's own city stands on the address line: UPS's geocoder then places the search at the ZIP's town.
 */
export function buildAccessPointSearch(query: LocationQuery): CarrierResult<UpsCall> {
  const place = lookupZip(query.zip);
  if (!place) return failure('address_invalid', `${query.zip} is not a US ZIP Code UPS could search around`);
  return ok(
    locatorRequest(
      { street: place.city, city: place.city, state: place.state, zip: place.zip },
      {
        MaximumListSize: String(Math.min(Math.max(query.limit, 1), maxListSize)),
        AccessPointSearch: { AccessPointStatus: activeAvailable },
      },
    ),
  );
}

/** One Access Point by its public id ("Once this parameter is present, address or geocode search is ignored"); `near` fills the required origin. */
export function buildAccessPointLookup(id: string, near: Origin): UpsCall {
  return locatorRequest(near, { MaximumListSize: '1', AccessPointSearch: { PublicAccessPointID: id } });
}

/** Distance.Value in the UnitOfMeasurement UPS states ("MI-Miles or KM-Kilometers"), as miles to a tenth. */
function miles(distance: unknown): number | null {
  const value = asNumber(at(distance, 'Value'));
  const unit = asString(at(distance, 'UnitOfMeasurement', 'Code'))?.toUpperCase();
  if (value === undefined) return null;
  if (unit === 'MI') return value;
  if (unit === 'KM') return Math.round((value / 1.609344) * 10) / 10;
  return null;
}

/**
 * A DropLocation as a location shipd can hold a parcel at: its PublicAccessPointID (not LocationID, which the spec says
 * not to expose) of 9 characters, active and available, with the name and address an AlternateDeliveryAddress needs.
 * AddressLine is one string of up to two lines, split on its line breaks.
 */
function accessPointOf(drop: unknown): FoundLocation | undefined {
  const id = asString(at(drop, 'AccessPointInformation', 'PublicAccessPointID'))?.trim();
  const status = asString(at(drop, 'AccessPointInformation', 'AccessPointStatus', 'Code'));
  if (!id || id.length !== accessPointIdLength || (status !== undefined && status !== activeAvailable)) return undefined;
  const key = at(drop, 'AddressKeyFormat');
  const [street1, street2] = (asString(at(key, 'AddressLine')) ?? '').split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const city = asString(at(key, 'PoliticalDivision2'));
  const state = asString(at(key, 'PoliticalDivision1'));
  const zip = asString(at(key, 'PostcodePrimaryLow'));
  const name = asString(at(key, 'ConsigneeName'))?.trim();
  if (!street1 || !city || !state || !zip || !name) return undefined;
  return {
    id,
    name,
    kind: 'UPS Access Point',
    address: { street1, ...(street2 ? { street2 } : {}), city, state, zip, country: asString(at(key, 'CountryCode')) ?? 'US' },
    distanceMiles: miles(at(drop, 'Distance')),
  };
}

/** LocatorResponse's Access Points in UPS's order; DropLocation may be one object on v1. */
export function parseAccessPoints(json: unknown): CarrierResult<FoundLocation[]> {
  const response = at(json, 'LocatorResponse');
  if (response === undefined) return failure('carrier_error', 'UPS locator answer has no LocatorResponse');
  if (asString(at(response, 'Response', 'ResponseStatusCode')) === '0') {
    const said = asString(at(response, 'Response', 'Error', 'ErrorDescription'));
    return failure('carrier_error', `UPS could not search Access Points${said ? `: ${said}` : ''}`);
  }
  const found = asArray(at(response, 'SearchResults', 'DropLocation')).map(accessPointOf);
  return ok(found.filter((l): l is FoundLocation => l !== undefined));
}

/** The Access Point a search by public id found, or a refusal naming the id the client gave. */
export function parseAccessPointLookup(json: unknown, id: string): CarrierResult<FoundLocation> {
  const found = parseAccessPoints(json);
  if (!found.ok) return found;
  const point = found.value.find((l) => l.id.toUpperCase() === id.toUpperCase());
  return point ? ok(point) : unknownAccessPoint(id);
}

/** The client's options.hold_location.id is no Access Point UPS holds parcels at. */
export function unknownAccessPoint(id: string, said?: string): CarrierResult<never> {
  return failure('option_not_supported', `UPS knows no active UPS Access Point ${id} (options.hold_location.id, /options/hold_location/id)${said ? `: ${said}` : ''}; find one with GET /carrier-locations`);
}
