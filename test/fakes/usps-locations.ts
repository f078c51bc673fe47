import type { ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import { compileContracts } from '../contracts/check.ts';
import { PostOfficeLocationsQuery, postOfficeLocationsQueryFaults } from '../contracts/usps/locations.ts';
import { sendJson } from './server.ts';

// The fake USPS's Locations API, GET /locations/v3/post-office-locations (locations.yaml 3.5.6): each query held
// against test/contracts/usps/locations.ts and the rules the operation states in words, then answered from a fixed
// set of Post Offices of the fake's own (names, addresses, ids and distances made up), shaped as PostOfficeLocation,
// filtered by the postOfficeType and pickupService asked, within the radius (20 miles unless asked), nearest first,
// offset and limit applied (limit 20 unless asked), with PaginationMetadata. The spec publishes no error wording; a
// ZIP Code the fake does not know ("00000") is refused as "Invalid Address Information" (its 400), in its own words.

type Refused = (res: ServerResponse, api: string, checks: [TSchema, unknown][], rules?: () => string[]) => boolean;
type Bad = (res: ServerResponse, api: string, code: string, detail: string, parameter: string) => void;

const api = '/locations/v3';
const hours = [{ dayOfWeek: 'MONDAY', times: [{ openTime: '0900', closeTime: '1700' }] }];
const holdService = { service: 'HOLD_FOR_PICKUP', hours, additionalInformation: { mailClasses: ['PRIORITY_MAIL_EXPRESS', 'PRIORITY_MAIL', 'USPS_GROUND_ADVANTAGE'] } };

/** The fake's Post Offices and other locations, nearest first from any ZIP Code searched. */
export const fakePostOffices = [
  { facilityID: '1390271', facilityName: 'RINCON FINANCE', postOfficeType: 'POST_OFFICE', distance: 0.3, services: [holdService, { service: 'PO_BOX', hours }], address: { streetAddress: '180 STEUART ST', city: 'SAN FRANCISCO', state: 'CA', ZIPCode: '94105', ZIPPlus4: '1241' } },
  { facilityID: '1390273', facilityName: 'MARKET ST STATIONERS CPU', postOfficeType: 'CONTRACT_POSTAL_UNIT', distance: 0.8, services: [holdService], address: { streetAddress: '600 MARKET ST', city: 'SAN FRANCISCO', state: 'CA', ZIPCode: '94104' } },
  { facilityID: '1390275', facilityName: 'BOX ONLY ANNEX', postOfficeType: 'POST_OFFICE', distance: 1.1, services: [{ service: 'PO_BOX', hours }], address: { streetAddress: '50 MISSION ST', city: 'SAN FRANCISCO', state: 'CA', ZIPCode: '94105' } },
  { facilityID: '1390274', facilityName: 'CIVIC CENTER', postOfficeType: 'POST_OFFICE', distance: 1.9, services: [holdService], address: { streetAddress: '101 HYDE ST', secondaryAddress: 'STE 100', city: 'SAN FRANCISCO', state: 'CA', ZIPCode: '94102' } },
  { facilityID: '1390279', facilityName: 'OAKLAND MAIN', postOfficeType: 'POST_OFFICE', distance: 24.6, services: [holdService], address: { streetAddress: '1675 7TH ST', city: 'OAKLAND', state: 'CA', ZIPCode: '94615' } },
] as const;

/** Whether a label may be held at this facility: one of the fake's Post Offices that offers Hold for Pickup. */
export function holdsForPickup(facilityId: unknown): boolean {
  return fakePostOffices.some((p) => p.facilityID === facilityId && p.postOfficeType === 'POST_OFFICE' && p.services.some((s) => s.service === 'HOLD_FOR_PICKUP'));
}

export function locationsRoute(refused: Refused, bad: Bad) {
  compileContracts([PostOfficeLocationsQuery]);
  return {
    handle(res: ServerResponse, q: URLSearchParams): void {
      const query = Object.fromEntries(q);
      if (refused(res, api, [[PostOfficeLocationsQuery, query]], () => postOfficeLocationsQueryFaults(query))) return;
      if (query.ZIPCode === '00000') return bad(res, api, '400', 'The ZIP Code 00000 is not a valid ZIP Code.', 'ZIPCode');
      const types = query.postOfficeType?.split(',');
      const pickups = query.pickupService?.split(',');
      const radius = Number(query.radius ?? 20);
      const offset = Number(query.offset ?? 0);
      const limit = Number(query.limit ?? 20);
      const matching = fakePostOffices.filter(
        (p) => p.distance <= radius && (!types || types.includes(p.postOfficeType)) && (!pickups || p.services.some((s) => pickups.includes(s.service))),
      );
      const locations = matching.slice(offset, offset + limit).map((p) => ({
        facilityName: p.facilityName,
        facilityAddress: p.address,
        facilityID: p.facilityID,
        postOfficeType: p.postOfficeType,
        distance: p.distance,
        phoneNumbers: { phone: '4155550142' },
        services: p.services,
        temporaryClosure: false,
        timeZone: 'PT',
        DSTObserved: true,
      }));
      sendJson(res, 200, {
        locations,
        metadata: { totalCount: matching.length, page: Math.floor(offset / limit) + 1, totalPages: Math.ceil(matching.length / limit), limit, offset },
      });
    },
  };
}
