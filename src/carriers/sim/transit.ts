/**
 * Business days in transit, from the carriers' published service commitments. Where a carrier publishes a range
 * "by distance" and no map we can read, the range is spread over the distance zones: the nearest zone gets the low
 * end, the farthest the high end.
 */
import type { CarrierId } from '../../config.ts';
import { lookupZip } from '../zips.ts';
import { deliveryDate } from './calendar.ts';
import type { Zone } from './zones.ts';
import { zoneFor } from './zones.ts';

/** Days by distance zone 1 … 8 (USPS zones; UPS and FedEx start at 2) and beyond (9). */
type ByZone = readonly [number, number, number, number, number, number, number, number, number];

/**
 * USPS productDefinition texts (Domestic Prices API 3.4.30, karrioapi/karrio modules/connectors/usps/vendor/
 * domestic-prices.yaml and the API answers recorded in modules/connectors/usps/tests/usps/test_rate.py, commit
 * deea10f8, 2026-06-23): Ground Advantage "2-5 day", Priority Mail "1-3 day … to all U.S. states and territories",
 * Priority Mail Express "1-2 day … guaranteed". Military ZIPs have no commitment ("APO, DPO, and FPO locations
 * typically do not offer commitments", shipping-options.yaml 3.1.29): they get the end of the range.
 */
const usps: Readonly<Record<string, ByZone>> = {
  USPS_GROUND_ADVANTAGE: [2, 2, 3, 3, 4, 4, 5, 5, 5],
  PRIORITY_MAIL: [1, 1, 2, 2, 2, 3, 3, 3, 3],
  PRIORITY_MAIL_EXPRESS: [1, 1, 1, 1, 1, 2, 2, 2, 2],
};

/**
 * Ground: FedEx Ground and Home Delivery "1-5 days based on distance to destination" in the 48 states, "1-7 days"
 * to, from and within Alaska and Hawaii (FedEx Standard List Rates, January 5, 2026: Ground rate pages, in FedEx's
 * PDF named in ../fedex/commitments.ts; the 2025 guide said the same). UPS draws its Ground
 * transit map as a picture we have no copy of; it sells Ground on the same 1–5 business days, so it takes these too.
 */
const ground48: ByZone = [1, 1, 2, 2, 3, 4, 4, 5, 5];
const groundOffshore: ByZone = [1, 1, 2, 3, 4, 5, 6, 7, 7];

/** Time-definite services: the day their names and commitments promise, wherever they go. */
const committed: Readonly<Record<CarrierId, Readonly<Record<string, number>>>> = {
  // UPS service names: 3 Day Select, 2nd Day Air, Next Day Air Saver, Next Day Air, Next Day Air Early.
  ups: { '12': 3, '02': 2, '13': 1, '01': 1, '14': 1 },
  // FedEx Standard List Rates 2026: Express Saver "3rd day", 2Day "2nd day", Standard and Priority Overnight "Next day".
  fedex: { FEDEX_EXPRESS_SAVER: 3, FEDEX_2_DAY: 2, STANDARD_OVERNIGHT: 1, PRIORITY_OVERNIGHT: 1 },
  usps: {},
};

const groundServices = new Set(['03', 'FEDEX_GROUND', 'GROUND_HOME_DELIVERY']);
const military = new Set(['AA', 'AE', 'AP']);
const offshoreStates = new Set(['AK', 'HI']);

/** Business days from pickup to delivery for a service between two ZIPs, given the carrier's zone between them. */
export function transitDays(carrier: CarrierId, service: string, fromZip: string, toZip: string, zone: Zone): number {
  const to = lookupZip(toZip);
  const from = lookupZip(fromZip);
  const byZone = carrier === 'usps' ? usps[service] : undefined;
  if (byZone) return to && military.has(to.state) ? byZone[8] : byZone[zone.index - 1]!;
  const fixed = committed[carrier][service];
  if (fixed !== undefined) return fixed;
  if (!groundServices.has(service)) throw new Error(`no published commitment for ${carrier} service ${service}`);
  // Offshore zones say nothing of distance; the USPS zone between the same ZIPs does.
  const offshore = [from, to].some((p) => p && offshoreStates.has(p.state));
  const distance = offshore ? (zoneFor('usps', fromZip, toZip)?.index ?? 9) : zone.index;
  return (offshore ? groundOffshore : ground48)[distance - 1]!;
}

/**
 * FedEx Home Delivery counts "Monday through Sunday" as business days and delivers on weekends to packages "with a
 * scheduled transit time of 1, 2, or 3 business days" (FedEx Service Guide effective January 5, 2026, U.S. terms,
 * "Business day", as in 2025; Service_Guide_2026.pdf beside the list named in ../fedex/commitments.ts);
 * every other service delivers Monday to Friday.
 */
export function estimatedDeliveryDate(carrier: CarrierId, service: string, shipDate: Date, days: number): string {
  if (carrier !== 'fedex' || service !== 'GROUND_HOME_DELIVERY' || days > 3) return deliveryDate(shipDate, days);
  // Picked up on the first weekday from the ship date, delivered `days` calendar days later.
  const pickup = deliveryDate(shipDate, 0);
  const d = new Date(`${pickup}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
