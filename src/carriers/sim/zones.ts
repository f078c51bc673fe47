import type { CarrierId } from '../../config.ts';
import { lookupZip, zip3DistanceMiles } from '../zips.ts';

export interface Zone {
  /** As the carrier prints it: USPS "01"–"09", UPS "2"–"8" or "44"/"45", FedEx "2"–"9". */
  label: string;
  /** 1 (nearest) to 9 (farthest or offshore), what prices scale with. */
  index: number;
}

/** USPS distance bands in miles (carriers.md 5.3): zone n covers up to uspsBands[n - 1]. */
const uspsBands = [50, 150, 300, 600, 1000, 1400, 1800] as const;
const offshore = new Set(['AK', 'HI', 'PR', 'VI', 'GU', 'AS', 'MP']);
const freelyAssociated = new Set(['GU', 'AS', 'MP']);

export function uspsZoneIndex(miles: number): number {
  const i = uspsBands.findIndex((limit) => miles <= limit);
  return i === -1 ? 8 : i + 1;
}

/**
 * The zone between two ZIPs for a carrier: from the great-circle distance between their ZIP3 areas, with the
 * carriers' own codes for Alaska, Hawaii and the territories. Undefined when either ZIP does not exist.
 */
export function zoneFor(carrier: CarrierId, fromZip: string, toZip: string): Zone | undefined {
  const from = lookupZip(fromZip);
  const to = lookupZip(toZip);
  const miles = zip3DistanceMiles(fromZip, toZip);
  if (!from || !to || miles === undefined) return undefined;
  const far = offshore.has(from.state) !== offshore.has(to.state) || (offshore.has(to.state) && from.state !== to.state);
  if (carrier === 'usps') {
    if (far) return freelyAssociated.has(to.state) || freelyAssociated.has(from.state) ? { label: '09', index: 9 } : { label: '08', index: 8 };
    const index = uspsZoneIndex(miles);
    return { label: `0${index}`, index };
  }
  if (far) {
    if (carrier === 'ups') return to.state === 'PR' || from.state === 'PR' ? { label: '45', index: 9 } : { label: '44', index: 9 };
    return { label: '9', index: 9 };
  }
  // UPS and FedEx have no zone 1 inside the 48 states.
  const index = Math.max(2, uspsZoneIndex(miles));
  return { label: String(index), index };
}
