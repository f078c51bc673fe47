import type { CarrierId } from '../../config.ts';
import type { FoundLocation } from '../carrier.ts';
import { lookupZip } from '../zips.ts';

/**
 * Test mode's locations that hold parcels: a few in every ZIP Code, the same every time, each id in the shape its
 * carrier's ship request takes (UPS's 9-character Access Point id, a numeric USPS facility id, a FedEx location id of
 * letters and digits). An id names its ZIP Code and its place in the list, so a purchase can tell a simulated
 * location from an id made up or copied from live mode without keeping any of them.
 */
export const simLocationsPerZip = 5;

const streets = ['Main St', 'Market St', 'Oak Ave', 'Broadway', 'Center St'];
const kinds: Record<CarrierId, (n: number) => string> = {
  ups: (n) => (n === 1 ? 'The UPS Store' : 'UPS Access Point'),
  usps: () => 'Post Office',
  fedex: (n) => (n === 1 ? 'FedEx Office' : 'FedEx Authorized ShipCenter'),
};

const ids: Record<CarrierId, { encode(zip: string, n: number): string; decode(id: string): { zip: string; n: number } | undefined }> = {
  ups: {
    encode: (zip, n) => `U${zip}${String(n).padStart(3, '0')}`,
    decode: (id) => (/^U\d{8}$/.test(id) ? { zip: id.slice(1, 6), n: Number(id.slice(6)) } : undefined),
  },
  usps: {
    encode: (zip, n) => `${zip}${String(n).padStart(2, '0')}`,
    decode: (id) => (/^\d{7}$/.test(id) ? { zip: id.slice(0, 5), n: Number(id.slice(5)) } : undefined),
  },
  fedex: {
    // Base 36 of the ZIP Code and the place: four characters, as FedEx's own ids are ("YBZA").
    encode: (zip, n) => (Number(zip) * 10 + n).toString(36).toUpperCase().padStart(4, '0'),
    decode: (id) => {
      if (!/^[0-9A-Z]{4}$/.test(id)) return undefined;
      const value = parseInt(id, 36);
      return { zip: String(Math.floor(value / 10)).padStart(5, '0'), n: value % 10 };
    },
  },
};

function location(carrier: CarrierId, zip: string, n: number): FoundLocation | undefined {
  const place = lookupZip(zip);
  if (!place || n < 1 || n > simLocationsPerZip) return undefined;
  const kind = kinds[carrier](n);
  return {
    id: ids[carrier].encode(zip, n),
    name: carrier === 'usps' ? `${place.city.toUpperCase()} POST OFFICE${n === 1 ? '' : ` STATION ${n}`}` : `${kind} ${place.city} #${n}`,
    kind,
    address: { street1: `${100 + 50 * n} ${streets[n - 1]}`, city: place.city, state: place.state, zip, country: 'US' },
    distanceMiles: Math.round((0.3 + 0.7 * (n - 1)) * 10) / 10,
  };
}

/** The simulated carrier's locations in a ZIP Code, nearest first; undefined for a ZIP Code that does not exist. */
export function simLocations(carrier: CarrierId, zip: string, limit: number): FoundLocation[] | undefined {
  if (!lookupZip(zip)) return undefined;
  return Array.from({ length: Math.min(limit, simLocationsPerZip) }, (_, i) => location(carrier, zip, i + 1)!);
}

/** The simulated location with this id, if the simulator would list it. */
export function simLocation(carrier: CarrierId, id: string): FoundLocation | undefined {
  const at = ids[carrier].decode(id);
  return at && location(carrier, at.zip, at.n);
}
