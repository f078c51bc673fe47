import { createRequire } from 'node:module';

type ZipcodesPackage = { codes: Record<string, { zip: string; city: string; state: string; latitude: number; longitude: number; country: string }> };

export interface ZipInfo {
  zip: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
}

let byZip: Map<string, ZipInfo> | undefined;
let zip3Centroids: Map<string, { latitude: number; longitude: number }> | undefined;
let byCity: Map<string, ZipInfo[]> | undefined;

/**
 * Loads the list and builds the indexes on the first lookup, not at start-up: the list is 5 MB of JavaScript, and with
 * the indexes it took about half a second of a loaded two-core machine, which every start of shipd paid before.
 */
function load(): Map<string, ZipInfo> {
  if (byZip) return byZip;
  // The zipcodes package: the US Census ZIP list with each ZIP's city, state and coordinates.
  const zipcodes = createRequire(import.meta.url)('zipcodes') as ZipcodesPackage;
  byZip = new Map();
  byCity = new Map();
  const sums = new Map<string, { lat: number; lon: number; n: number }>();
  for (const z of Object.values(zipcodes.codes)) {
    if (z.country !== 'US' || !/^\d{5}$/.test(z.zip)) continue;
    const info = { zip: z.zip, city: z.city, state: z.state, latitude: z.latitude, longitude: z.longitude };
    byZip.set(z.zip, info);
    const cityKey = `${z.state}|${z.city.toUpperCase()}`;
    const city = byCity.get(cityKey);
    if (city) city.push(info);
    else byCity.set(cityKey, [info]);
    const key = z.zip.slice(0, 3);
    const s = sums.get(key) ?? { lat: 0, lon: 0, n: 0 };
    s.lat += z.latitude;
    s.lon += z.longitude;
    s.n++;
    sums.set(key, s);
  }
  zip3Centroids = new Map([...sums].map(([k, s]) => [k, { latitude: s.lat / s.n, longitude: s.lon / s.n }]));
  return byZip;
}

/** The ZIP's record, from the first five digits of a ZIP or ZIP+4; undefined for a ZIP that does not exist. */
export function lookupZip(zip: string): ZipInfo | undefined {
  return load().get(zip.slice(0, 5));
}

/** Every ZIP of a city in a state, for suggesting the right ZIP. */
export function zipsOfCity(city: string, state: string): ZipInfo[] {
  load();
  return byCity!.get(`${state.toUpperCase()}|${city.toUpperCase()}`) ?? [];
}

/** Great-circle miles between the centroids of two ZIP3 areas (zones measure from the points of sim/zip3-points.ts). */
export function zip3DistanceMiles(fromZip: string, toZip: string): number | undefined {
  load();
  const a = zip3Centroids!.get(fromZip.slice(0, 3));
  const b = zip3Centroids!.get(toZip.slice(0, 3));
  if (!a || !b) return undefined;
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}
