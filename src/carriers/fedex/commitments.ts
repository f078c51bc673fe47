import { asString } from '../live/lenient.ts';

/*
 * Business days to delivery that FedEx commits to per service, for a priced rate reply that carries no transit
 * data (FedEx leaves commit and operationalDetail out for some services, and when it does not honour
 * returnTransitTimes). The Express figures are the services' published commitments, which the service names of
 * FedEx's API Reference Guide (karrio modules/connectors/fedex/vendor/" API-Reference-Guide.html", commit
 * 0f7414f0) also carry ("FedEx Economy/FedEx Express Saver® [3 day]"): First, Priority and Standard Overnight the
 * next business day, 2Day and 2Day AM the second, Express Saver the third.
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
 * FedEx Ground and Home Delivery publish 1-5 business days within the contiguous US and 3-7 to Alaska and Hawaii,
 * by distance, on a transit map drawn for each origin. That map is not among the sources we hold, so the days
 * come from the rate zone FedEx answered: its zones are distance bands (2: up to 150 miles, 3: 151-300,
 * 4: 301-600, 5: 601-1,000, 6: 1,001-1,400, 7: 1,401-1,800, 8: beyond), read against the 1-5 day range. Zones
 * past 8 are Alaska, Hawaii and the territories: the 7 days of the range's far end.
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
