import { asString } from '../live/lenient.ts';

/*
 * Business days to delivery that FedEx commits to per service, for a priced rate reply that carries no transit
 * data (FedEx leaves commit and operationalDetail out for some services, and when it does not honour
 * returnTransitTimes). From FedEx's Standard List Rates effective January 5, 2026 (its U.S. package rate pages, in
 * FedEx's PDF kept in github.com/jfdelascarreras/logifacts, lib/pricing/data/sources/fedex/
 * FedEx_Standard_List_Rates_2026.pdf, commit 07dc5e0; the 2025 guide's pages said the same): "Delivery commitment"
 * First Overnight "Next day by 8 or 8:30 a.m.", Priority Overnight "Next day by 10:30 a.m. or 11 a.m.", Standard
 * Overnight "Next day by 5 p.m.", 2Day A.M. "2nd day by 10:30 a.m. or 11 a.m.", 2Day "2nd day by 5 p.m.", Express
 * Saver "3rd day by 5 p.m.".
 */
const expressDays: Readonly<Record<string, number>> = {
  FIRST_OVERNIGHT: 1,
  PRIORITY_OVERNIGHT: 1,
  STANDARD_OVERNIGHT: 1,
  FEDEX_2_DAY_AM: 2,
  FEDEX_2_DAY: 2,
  FEDEX_EXPRESS_SAVER: 3,
};

/*
 * The same guide's Ground and Home Delivery pages commit to "1-5 days based on distance to destination" for zones
 * 2-8 (2: 0-150 miles, 3: 151-300, 4: 301-600, 5: 601-1,000, 6: 1,001-1,400, 7: 1,401-1,800, 8: beyond) and
 * "1-7 days" for the Alaska and Hawaii zones (9, 14, 17, 22, 23, 25, 92, 96). FedEx's Ground transit map, drawn for
 * each origin, is not among the sources we hold, so the day within that range is our reading of the zone's
 * distance band; beyond zone 8 it is the range's far end.
 */
const groundDaysByZone: Readonly<Record<number, number>> = { 2: 1, 3: 2, 4: 2, 5: 3, 6: 4, 7: 4, 8: 5 };
const groundServices = new Set(['FEDEX_GROUND', 'GROUND_HOME_DELIVERY']);
const groundFarEnd = 7;
/** Without a zone, the contiguous range's far end: an estimate that is late is better than one that is early. */
const groundNoZone = 5;

/** FedEx writes rate zones as "5", "05" or with a country and suffix around the number ("US005O"). */
function zoneNumber(rateZone: unknown): number | undefined {
  const digits = /(\d+)/.exec(asString(rateZone) ?? '')?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/** The days FedEx commits to for a service, or undefined for a service it publishes no commitment for. */
export function committedDays(service: string, rateZone: unknown): number | undefined {
  if (Object.hasOwn(expressDays, service)) return expressDays[service];
  if (!groundServices.has(service)) return undefined;
  const zone = zoneNumber(rateZone);
  if (zone === undefined) return groundNoZone;
  return zone > 8 ? groundFarEnd : groundDaysByZone[Math.max(2, zone)];
}
