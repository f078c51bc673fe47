import { ok, type CarrierResult, type FoundLocation, type LocationQuery } from '../carrier.ts';
import { asArray, asNumber, asString, at } from '../live/lenient.ts';
import { asFlag, splitZip } from './fields.ts';

/*
 * The Post Offices that hold parcels for pickup, from USPS's Locations API: locations.yaml version 3.5.6
 * (karrioapi/karrio modules/connectors/usps/vendor/, commit e1754707ebcba368deb2be62c72eabbcd4d31723, read
 * 2026-11-28), operation get-post-office-location (GET /locations/v3/post-office-locations), its query parameters
 * ZIPCode, radius ("max distance (in miles) … default radius of 20 miles", 1 to 100), limit (1 to 100, default 20),
 * postOfficeType and pickupService (arrays written comma-separated, explode false; HOLD_FOR_PICKUP among the
 * pickup services), and its answer {locations: PostOfficeLocation[] "sorted by distance (closest first)"}. The
 * PostOfficeLocation's facilityID is what the Labels API's toAddress.facilityId takes ("The Facility ID is obtained
 * from the API response in the /post-office-locator API", domestic-labels.yaml 3.9.13 DomesticLabelToAddress), at
 * most 7 characters there.
 */

export const locationsPath = '/locations/v3/post-office-locations';

/** The spec's own default, sent so that what is searched does not hang on a default USPS may change. */
export const holdSearchRadiusMiles = 20;
const maxLimit = 100;
/** DomesticLabelToAddress.facilityId maxLength: a longer id could not go on a label. */
export const facilityIdMaxLength = 7;

/**
 * The search: Post Offices only (Hold for Pickup is "at a Post Office Facility", DomesticLabelToAddress.holdForPickup)
 * that offer the HOLD_FOR_PICKUP pickup service, around the ZIP Code.
 */
export function buildLocationsQuery(query: LocationQuery): Record<string, string> {
  return {
    ZIPCode: splitZip(query.zip).ZIPCode,
    radius: String(holdSearchRadiusMiles),
    limit: String(Math.min(Math.max(Math.trunc(query.limit), 1), maxLimit)),
    postOfficeType: 'POST_OFFICE',
    pickupService: 'HOLD_FOR_PICKUP',
  };
}

/** Whether the location lists Hold for Pickup among its services, where it lists them at all. */
function holdsParcels(location: unknown): boolean {
  const services = asArray(at(location, 'services'));
  return services.length === 0 || services.some((s) => asString(at(s, 'service')) === 'HOLD_FOR_PICKUP');
}

function foundLocation(location: unknown): FoundLocation | null {
  const id = asString(at(location, 'facilityID'));
  const address = at(location, 'facilityAddress');
  const street1 = asString(at(address, 'streetAddress'));
  const city = asString(at(address, 'city'));
  const state = asString(at(address, 'state'));
  const zip5 = asString(at(address, 'ZIPCode'));
  if (!id || id.length > facilityIdMaxLength || !street1 || !city || !state || !zip5) return null;
  const type = asString(at(location, 'postOfficeType')) ?? 'POST_OFFICE';
  // A parcel held at a Post Office that is, or is about to be, closed could not be collected.
  if (type !== 'POST_OFFICE' || asFlag(at(location, 'temporaryClosure')) === true || !holdsParcels(location)) return null;
  const street2 = asString(at(address, 'secondaryAddress'));
  const plus4 = asString(at(address, 'ZIPPlus4'));
  return {
    id,
    name: asString(at(location, 'facilityName')) ?? `Post Office ${id}`,
    kind: 'Post Office',
    address: { street1, ...(street2 && { street2 }), city, state, zip: plus4 ? `${zip5}-${plus4}` : zip5, country: 'US' },
    distanceMiles: asNumber(at(location, 'distance')) ?? null,
  };
}

/**
 * The answer's Post Offices that can hold a parcel, nearest first. A location without the fields a label needs
 * (its facilityID, a street address) is left out, as are other kinds of location should USPS answer them.
 */
export function parseLocations(json: unknown): CarrierResult<FoundLocation[]> {
  const found = asArray(at(json, 'locations')).flatMap((l) => foundLocation(l) ?? []);
  return ok(found.sort((a, b) => (a.distanceMiles ?? Infinity) - (b.distanceMiles ?? Infinity)));
}
