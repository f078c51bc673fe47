import type { ServerResponse } from 'node:http';
import { sendJson } from './server.ts';

// The fake UPS's Locator (Locator.yaml, UPS-API/api-documentation at e6f36df4da29ac1b448c898a79aac48f653bbb44, read
// 2026-11-28): the UPS Access Point search (reqOption 64) around an origin, and by PublicAccessPointID. Requests reach
// it only once they keep our schema of the spec (test/contracts/ups/locator.ts), which the fake UPS checks first.
// Answers follow LOCATORResponseWrapper: every DropLocation with the elements the spec requires of it (Geocode,
// Timezone, IVR, AddressKeyFormat, LocationID, OriginOrDestination, PhoneNumber, LocationAttribute, Distance).

/** One Access Point of the fake: fixture data, not UPS's network. */
export interface UpsFakeAccessPoint {
  /** PublicAccessPointID: 9 characters, as Shipping.yaml's UPSAccessPointID takes it. */
  id: string;
  locationId: string;
  name: string;
  lines: string[];
  city: string;
  state: string;
  zip: string;
  /** From the centre of its ZIP3 area, where the fake measures every search from. */
  miles: number;
  status: '01' | '07';
}

/** A few Access Points of San Francisco's 941 area; a search elsewhere finds none. */
export const upsFakeAccessPoints: readonly UpsFakeAccessPoint[] = [
  { id: 'U94105A01', locationId: '3410021', name: 'MISSION STREET MAIL & PRINT', lines: ['101 MISSION ST', 'STE 110'], city: 'SAN FRANCISCO', state: 'CA', zip: '94105', miles: 0.3, status: '01' },
  { id: 'U94105B02', locationId: '3410022', name: 'SOMA CORNER PHARMACY', lines: ['250 HOWARD ST'], city: 'SAN FRANCISCO', state: 'CA', zip: '94105', miles: 0.7, status: '01' },
  { id: 'U94107C03', locationId: '3410023', name: 'BAYSIDE HARDWARE', lines: ['400 BRANNAN ST'], city: 'SAN FRANCISCO', state: 'CA', zip: '94107', miles: 1.9, status: '01' },
  { id: 'U94110D04', locationId: '3410024', name: 'VALENCIA NEWS & GIFTS', lines: ['900 VALENCIA ST'], city: 'SAN FRANCISCO', state: 'CA', zip: '94110', miles: 2.6, status: '07' },
];

const get = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);

function dropLocation(p: UpsFakeAccessPoint, singleObjects: boolean) {
  return {
    LocationID: p.locationId,
    OriginOrDestination: '01',
    IVR: { PhraseID: '0' },
    Geocode: { Latitude: '37.7900', Longitude: '-122.4000' },
    AddressKeyFormat: { ConsigneeName: p.name, AddressLine: p.lines.join('\n'), PoliticalDivision2: p.city, PoliticalDivision1: p.state, PostcodePrimaryLow: p.zip, CountryCode: 'US' },
    PhoneNumber: singleObjects ? '4155550100' : ['4155550100'],
    LocationAttribute: [{ OptionType: { Code: '01', Description: 'Location' }, OptionCode: [{ Code: '018', Description: 'UPS Access Point' }] }],
    Distance: { Value: p.miles.toFixed(1), UnitOfMeasurement: { Code: 'MI', Description: 'MILES' } },
    Timezone: 'America/Los_Angeles',
    AccessPointInformation: {
      PublicAccessPointID: p.id,
      AccessPointStatus: p.status === '01' ? { Code: '01', Description: 'Active-available' } : { Code: '07', Description: 'Active-unavailable' },
    },
  };
}

/**
 * The search: by PublicAccessPointID that Access Point alone ("address or geocode search is ignored"), else those of
 * the origin's ZIP3 area with the status asked, nearest first, at most MaximumListSize ("default value of 5").
 */
export function answerLocator(body: unknown, res: ServerResponse, singleObjects: boolean): void {
  const request = get(body, 'LocatorRequest');
  const search = get(request, 'LocationSearchCriteria', 'AccessPointSearch');
  const byId = get(search, 'PublicAccessPointID');
  const zip = String(get(request, 'OriginAddress', 'AddressKeyFormat', 'PostcodePrimaryLow') ?? '');
  const status = get(search, 'AccessPointStatus');
  const max = Number(get(request, 'LocationSearchCriteria', 'MaximumListSize') ?? 5);
  const found =
    typeof byId === 'string'
      ? upsFakeAccessPoints.filter((p) => p.id === byId.toUpperCase())
      : upsFakeAccessPoints.filter((p) => p.zip.slice(0, 3) === zip.slice(0, 3) && (status === undefined || p.status === status)).slice(0, max);
  const drops = found.map((p) => dropLocation(p, singleObjects));
  sendJson(res, 200, {
    LocatorResponse: {
      Response: {
        TransactionReference: { CustomerContext: String(get(request, 'Request', 'TransactionReference', 'CustomerContext') ?? ''), XpciVersion: '1.0014' },
        ResponseStatusCode: '1',
        ResponseStatusDescription: 'Success',
      },
      AllowAllConfidenceLevels: 'false',
      SearchResults: { ...(drops.length > 0 ? { DropLocation: drops } : {}), Disclaimer: drops.length > 0 ? '' : 'No UPS Access Point locations were found' },
    },
  });
}

/**
 * What UPS refuses of a ship request's hold: an AlternateDeliveryAddress whose UPSAccessPointID is none of its active
 * Access Points. Shipping.yaml publishes no code for it, so the HTTP status stands in for the code, as the fake's
 * pickup refusals do.
 */
export function accessPointRefusal(shipment: unknown): { code: string; message: string } | undefined {
  const id = get(shipment, 'AlternateDeliveryAddress', 'UPSAccessPointID');
  if (id === undefined) return undefined;
  if (upsFakeAccessPoints.some((p) => p.id === id && p.status === '01')) return undefined;
  return { code: '400', message: `Invalid UPS Access Point ID ${String(id)}` };
}
