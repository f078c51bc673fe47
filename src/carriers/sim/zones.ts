/**
 * Zones, with the labels each carrier prints:
 * - USPS "01"–"09": 01–08 by great-circle miles between the ZIP3s' points (zip3-points.ts), 09 to the Freely
 *   Associated States (Palau, Micronesia, the Marshall Islands). Index = the zone.
 * - UPS "2"–"8" between the 48 states; "44" to or from Alaska and Hawaii metro ZIPs, "46" their rural ZIPs, "45"
 *   Puerto Rico (index 9). UPS serves no military, Virgin Islands or Pacific territory ZIP domestically.
 * - FedEx Express "2"–"8"; to Alaska metro "9", Hawaii metro "10", Alaska rural "11", Hawaii rural "12"; from Alaska
 *   or Hawaii, and within Alaska, "13" (the Service Guide prices 13–16 alike); within Hawaii "14" (index 9).
 *   FedEx Ground and Home Delivery (pass the service): "2"–"8"; to Alaska "17", within Alaska "22", from Alaska "23",
 *   to Hawaii "9", within Hawaii "14", from Hawaii "92" (index 9). FedEx ships to Puerto Rico, the other territories
 *   and military ZIPs only as international services, so no domestic zone.
 */
import type { CarrierId } from '../../config.ts';
import { lookupZip } from '../zips.ts';
import { isAlaskaHawaiiMetro } from './offshore-zips.ts';
import { zip3Point } from './zip3-points.ts';

export interface Zone {
  /** As the carrier prints it (see the top of this file). */
  label: string;
  /** 1 (nearest) to 9 (farthest or offshore), what prices scale with. */
  index: number;
}

/**
 * Upper mileage of zones 1 … 7; zone 8 is beyond. USPS: the carriers.md 5.3 bands, which reproduce the 2018 zone
 * charts (zones.test.ts). FedEx publishes the same bands for its zones 2–8 (Service Guide, January 6, 2025: "0-150
 * miles" … "1,801 miles or more"), zone 2 starting at 0. UPS publishes no mileage, only charts; the one we have (origin
 * 450, 2004) agrees with these bands for 92% of ZIP3s, the rest one zone either way (zones.test.ts).
 */
const mileBands = [50, 150, 300, 600, 1000, 1400, 1800] as const;

/** USPS zones military mail from the gateway its ZIP3s route through: the charts' zones match these ZIP3s'. */
const militaryGateways: Readonly<Record<string, string>> = { AE: '100', AA: '331', AP: '941' };
const military = new Set(Object.keys(militaryGateways));
/**
 * USPS zone 9: every 2018 chart gives it to ZIP3 969, then lists every Guam and Northern Mariana Islands ZIP of 969
 * as a 5-digit exception in zone 8, which leaves the Freely Associated States' ZIPs (96939–96944, 96960, 96970).
 */
const freelyAssociated = new Set(['PW', 'FM', 'MH']);
const pacificTerritories = new Set(['GU', 'AS', 'MP', ...freelyAssociated]);

export function uspsZoneIndex(miles: number): number {
  const i = mileBands.findIndex((limit) => miles <= limit);
  return i === -1 ? 8 : i + 1;
}

function greatCircleMiles(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point a ZIP is zoned from: its ZIP3's, its gateway's when military, its ZIP's own for a ZIP3 the chart lacks. */
function zonePoint(zip: string, state: string, own: { latitude: number; longitude: number }) {
  const zip3 = military.has(state) ? militaryGateways[state]! : zip.slice(0, 3);
  return zip3Point(zip3) ?? own;
}

type Place = { zip: string; state: string; latitude: number; longitude: number };

function miles(from: Place, to: Place): number {
  return greatCircleMiles(zonePoint(from.zip, from.state, from), zonePoint(to.zip, to.state, to));
}

function uspsZone(from: Place, to: Place): Zone {
  const index = from.zip.slice(0, 3) === to.zip.slice(0, 3) ? 1 : freelyAssociated.has(to.state) ? 9 : uspsZoneIndex(miles(from, to));
  return { label: `0${index}`, index };
}

const contiguous = (state: string) => !['AK', 'HI', 'PR', 'VI'].includes(state) && !pacificTerritories.has(state) && !military.has(state);

function upsZone(from: Place, to: Place): Zone | undefined {
  if (military.has(from.state) || military.has(to.state)) return undefined;
  if ([from, to].some((p) => p.state === 'VI' || pacificTerritories.has(p.state))) return undefined;
  if (from.state === 'PR' || to.state === 'PR') return { label: '45', index: 9 };
  const offshore = [to, from].find((p) => p.state === 'AK' || p.state === 'HI');
  if (offshore) return { label: isAlaskaHawaiiMetro(offshore.zip) ? '44' : '46', index: 9 };
  return contiguousZone(from, to);
}

function contiguousZone(from: Place, to: Place): Zone {
  // UPS and FedEx have no zone 1: their zone 2 starts at 0 miles.
  const index = Math.max(2, uspsZoneIndex(miles(from, to)));
  return { label: String(index), index };
}

const fedexGroundServices = new Set(['FEDEX_GROUND', 'GROUND_HOME_DELIVERY']);

function fedexZone(from: Place, to: Place, service: string | undefined): Zone | undefined {
  if (![from, to].every((p) => contiguous(p.state) || p.state === 'AK' || p.state === 'HI')) return undefined;
  if (contiguous(from.state) && contiguous(to.state)) return contiguousZone(from, to);
  const ground = service !== undefined && fedexGroundServices.has(service);
  const label = ground ? fedexGroundLabel(from, to) : fedexExpressLabel(from, to);
  return { label, index: 9 };
}

function fedexExpressLabel(from: Place, to: Place): string {
  if (from.state === 'HI' && to.state === 'HI') return '14';
  if (to.state === 'AK' && from.state !== 'AK') return isAlaskaHawaiiMetro(to.zip) ? '9' : '11';
  if (to.state === 'HI') return isAlaskaHawaiiMetro(to.zip) ? '10' : '12';
  return '13';
}

function fedexGroundLabel(from: Place, to: Place): string {
  if (from.state === 'AK') return to.state === 'AK' ? '22' : '23';
  if (from.state === 'HI') return to.state === 'HI' ? '14' : '92';
  return to.state === 'AK' ? '17' : '9';
}

/**
 * The zone between two ZIPs for a carrier (for FedEx, Express zones unless a Ground or Home Delivery service is
 * named). Undefined when either ZIP does not exist, or the carrier has no domestic zone between them.
 */
export function zoneFor(carrier: CarrierId, fromZip: string, toZip: string, service?: string): Zone | undefined {
  const from = lookupZip(fromZip);
  const to = lookupZip(toZip);
  if (!from || !to) return undefined;
  if (carrier === 'usps') return uspsZone(from, to);
  if (carrier === 'ups') return upsZone(from, to);
  return fedexZone(from, to, service);
}
