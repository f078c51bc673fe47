/* eslint-disable @typescript-eslint/no-explicit-any -- the fake reads request JSON as loosely as a web server does, field by field */
import type { ServerResponse } from 'node:http';
import { sendJson } from './server.ts';

// The fake FedEx's Location Search API (locations-search/v1.json, commit bc94dcd2c7254f105842125a3eb671c3f614d072):
// Find Locations answers LoccResponseVO with LocationDetail entries, and the ship and rate documents'
// HoldAtLocationDetail is held to them. Requests are checked against test/contracts/fedex/locations.ts before they
// get here. The locations are the fake's own, written in the response schema's shape; FedEx publishes none.

interface FakeLocation {
  locationId: string;
  locationType: string;
  name: string;
  street: string;
  city: string;
  postalCode: string;
  miles: number;
  /** Whether it holds parcels (LocationCapabilities transferOfPossessionType HOLD_AT_LOCATION): a drop box does not. */
  holds: boolean;
}

/** The same few locations for every search, nearest first. */
export const fedexFakeLocations: readonly FakeLocation[] = [
  { locationId: 'SFOA', locationType: 'FEDEX_OFFICE', name: 'FedEx Office Print & Ship Center', street: '100 California St', city: 'SAN FRANCISCO', postalCode: '94111', miles: 0.6, holds: true },
  { locationId: 'SFDB', locationType: 'FEDEX_SELF_SERVICE_LOCATION', name: 'FedEx Drop Box', street: '1 Market St', city: 'SAN FRANCISCO', postalCode: '94105', miles: 0.8, holds: false },
  { locationId: 'WGNA', locationType: 'FEDEX_AUTHORIZED_SHIP_CENTER', name: 'Walgreens', street: '135 Powell St', city: 'SAN FRANCISCO', postalCode: '94102', miles: 1.2, holds: true },
  { locationId: 'OAKS', locationType: 'FEDEX_STAFFED', name: 'FedEx Ship Center', street: '1 Harrison St', city: 'OAKLAND', postalCode: '94607', miles: 8.4, holds: true },
];

const bad = (res: ServerResponse, code: string, message: string) => sendJson(res, 400, { transactionId: 'fake-txn', errors: [{ code, message }] });

function detail(l: FakeLocation) {
  return {
    distance: { units: 'MI', value: l.miles },
    contactAndAddress: {
      address: { streetLines: [l.street], city: l.city, stateOrProvinceCode: 'CA', postalCode: l.postalCode, countryCode: 'US', residential: false },
      contact: { companyName: l.name, phoneNumber: '4155550100' },
      addressAncillaryDetail: { displayName: l.name, locationInCity: l.city },
    },
    locationId: l.locationId,
    locationType: l.locationType,
    locationAttributeTypes: l.holds ? ['WEEKDAY_EXPRESS_HOLD_AT_LOCATION', 'WEEKDAY_GROUND_HOLD_AT_LOCATION'] : ['DROP_BOX'],
    locationCapabilities: { transferOfPossessionType: l.holds ? 'HOLD_AT_LOCATION' : 'DROPOFF', carrierCode: 'FDXE' },
  };
}

/**
 * Find Locations: the fake's locations within the radius, those that hold parcels when locationCapabilities asks for
 * HOLD_AT_LOCATION, at most maxResults. A US postal code that is not five digits is refused, as FedEx cannot place it.
 */
export function findLocations(body: Record<string, any>, res: ServerResponse): void {
  const address = body.location.address;
  const postalCode = String(address.postalCode ?? '');
  if (address.countryCode === 'US' && !/^\d{5}(-?\d{4})?$/.test(postalCode)) return bad(res, 'LOCATION.POSTALCODE.INVALID', 'Postal code is invalid.');
  const control = body.locationsSummaryRequestControlParameters ?? {};
  const radius = control.distance ? Number(control.distance.value) * (control.distance.units === 'KM' ? 1 / 1.609344 : 1) : 50;
  const holdsOnly = ((body.locationCapabilities ?? []) as any[]).some((c) => c.transferOfPossessionType === 'HOLD_AT_LOCATION');
  const within = fedexFakeLocations.filter((l) => l.miles <= radius && (!holdsOnly || l.holds));
  const returned = within.slice(0, Number(control.maxResults ?? 75));
  sendJson(res, 200, {
    transactionId: 'fake-txn',
    output: {
      totalResults: within.length,
      resultsReturned: returned.length,
      matchedAddress: { postalCode, countryCode: address.countryCode },
      locationDetailList: returned.map(detail),
      alerts: [],
    },
  });
}

/**
 * What FedEx refuses in a ship request's HoldAtLocationDetail beyond the schema: a locationId that is not a location
 * holding parcels. The code is the fake's own; FedEx publishes none for it, nor says whether a rate request's
 * locationId is checked, so the fake's rates price the hold wherever it is asked.
 */
export function holdLocationRefusal(shipment: Record<string, any>): { code: string; message: string } | undefined {
  const services = shipment.shipmentSpecialServices;
  if (!services?.specialServiceTypes?.includes('HOLD_AT_LOCATION')) return undefined;
  const id = String(services.holdAtLocationDetail?.locationId ?? '');
  if (fedexFakeLocations.some((l) => l.holds && l.locationId === id)) return undefined;
  return { code: 'HOLDATLOCATION.LOCATIONID.INVALID', message: `Hold at Location is not available at location ${id}.` };
}
