import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

type ZipRecord = { zip: string; city: string; state: string; latitude: number; longitude: number; country: string };

export interface ZipInfo {
  zip: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
}

/** The US ZIPs, a column per field: about 1 MB where the package's records and a Map of copies held 15 MB. */
interface ZipTable {
  /** By ZIP as a number: its row + 1, or 0 for a ZIP that does not exist. */
  rowOf: Uint16Array;
  zip: Uint32Array;
  latitude: Float64Array;
  longitude: Float64Array;
  /** Each city name once (the same string for every ZIP of a city). */
  city: string[];
  state: Uint8Array;
  states: string[];
  zip3Centroids: Map<string, { latitude: number; longitude: number }>;
}

let table: ZipTable | undefined;
let rowsOfCity: Map<string, number[]> | undefined;

const requireHere = createRequire(import.meta.url);

/**
 * The zipcodes package's records (the US Census ZIP list with each ZIP's city, state and coordinates). Its data
 * file is a single assignment of a JSON object: read as JSON it costs the object alone, where require() compiled
 * 5 MB of JavaScript, which raised the process's resident memory by about 80 MB for good and kept the source.
 * A later version written otherwise is loaded with require().
 */
function zipRecords(): Record<string, ZipRecord> {
  const text = readFileSync(requireHere.resolve('zipcodes/lib/codes.js'), 'utf8');
  const prefix = 'exports.codes = ';
  const end = text.indexOf(';\n');
  if (text.startsWith(prefix) && end > 0) {
    try {
      return JSON.parse(text.slice(prefix.length, end)) as Record<string, ZipRecord>;
    } catch {
      // not JSON after all
    }
  }
  return (requireHere('zipcodes') as { codes: Record<string, ZipRecord> }).codes;
}

/**
 * Builds the table on the first lookup, not at start-up: with the indexes it took about half a second of a
 * loaded two-core machine, which every start of shipd paid before.
 */
function load(): ZipTable {
  if (table) return table;
  const records = Object.values(zipRecords()).filter((z) => z.country === 'US' && /^\d{5}$/.test(z.zip));
  const n = records.length;
  const t: ZipTable = {
    rowOf: new Uint16Array(100_000),
    zip: new Uint32Array(n),
    latitude: new Float64Array(n),
    longitude: new Float64Array(n),
    city: new Array<string>(n),
    state: new Uint8Array(n),
    states: [],
    zip3Centroids: new Map(),
  };
  const cities = new Map<string, string>();
  const stateIndex = new Map<string, number>();
  const sums = new Map<string, { lat: number; lon: number; n: number }>();
  records.forEach((z, row) => {
    const zip = Number(z.zip);
    t.rowOf[zip] = row + 1;
    t.zip[row] = zip;
    t.latitude[row] = z.latitude;
    t.longitude[row] = z.longitude;
    t.city[row] = cities.get(z.city) ?? (cities.set(z.city, z.city), z.city);
    let s = stateIndex.get(z.state);
    if (s === undefined) stateIndex.set(z.state, (s = t.states.push(z.state) - 1));
    t.state[row] = s;
    const key = z.zip.slice(0, 3);
    const sum = sums.get(key) ?? { lat: 0, lon: 0, n: 0 };
    sum.lat += z.latitude;
    sum.lon += z.longitude;
    sum.n++;
    sums.set(key, sum);
  });
  t.zip3Centroids = new Map([...sums].map(([k, s]) => [k, { latitude: s.lat / s.n, longitude: s.lon / s.n }]));
  return (table = t);
}

function info(t: ZipTable, row: number): ZipInfo {
  return { zip: String(t.zip[row]).padStart(5, '0'), city: t.city[row]!, state: t.states[t.state[row]!]!, latitude: t.latitude[row]!, longitude: t.longitude[row]! };
}

/** The ZIP's record, from the first five digits of a ZIP or ZIP+4; undefined for a ZIP that does not exist. */
export function lookupZip(zip: string): ZipInfo | undefined {
  const five = zip.slice(0, 5);
  if (!/^\d{5}$/.test(five)) return undefined;
  const t = load();
  const row = t.rowOf[Number(five)]!;
  return row === 0 ? undefined : info(t, row - 1);
}

/** Every ZIP of a city in a state, for suggesting the right ZIP. */
export function zipsOfCity(city: string, state: string): ZipInfo[] {
  const t = load();
  if (!rowsOfCity) {
    rowsOfCity = new Map();
    for (let row = 0; row < t.zip.length; row++) {
      const key = `${t.states[t.state[row]!]}|${t.city[row]!.toUpperCase()}`;
      const rows = rowsOfCity.get(key);
      if (rows) rows.push(row);
      else rowsOfCity.set(key, [row]);
    }
  }
  return (rowsOfCity.get(`${state.toUpperCase()}|${city.toUpperCase()}`) ?? []).map((row) => info(t, row));
}

/** Great-circle miles between the centroids of two ZIP3 areas (zones measure from the points of sim/zip3-points.ts). */
export function zip3DistanceMiles(fromZip: string, toZip: string): number | undefined {
  const { zip3Centroids } = load();
  const a = zip3Centroids.get(fromZip.slice(0, 3));
  const b = zip3Centroids.get(toZip.slice(0, 3));
  if (!a || !b) return undefined;
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}
