/**
 * The time zone of each state and territory: where a state spans two, the zone most of its people live in. An
 * address gives no finer clue without a ZIP-to-zone table. Pickups need the local day and hour at an address, and
 * carriers that write scan times without an offset (FedEx) mean the local time where the scan happened. The
 * military codes (AA, AE, AP) have none: their post offices are abroad.
 */
const zones: Readonly<Record<string, string>> = {
  AL: 'America/Chicago', AK: 'America/Anchorage', AZ: 'America/Phoenix', AR: 'America/Chicago', CA: 'America/Los_Angeles',
  CO: 'America/Denver', CT: 'America/New_York', DE: 'America/New_York', DC: 'America/New_York', FL: 'America/New_York',
  GA: 'America/New_York', HI: 'Pacific/Honolulu', ID: 'America/Boise', IL: 'America/Chicago', IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago', KS: 'America/Chicago', KY: 'America/New_York', LA: 'America/Chicago', ME: 'America/New_York',
  MD: 'America/New_York', MA: 'America/New_York', MI: 'America/Detroit', MN: 'America/Chicago', MS: 'America/Chicago',
  MO: 'America/Chicago', MT: 'America/Denver', NE: 'America/Chicago', NV: 'America/Los_Angeles', NH: 'America/New_York',
  NJ: 'America/New_York', NM: 'America/Denver', NY: 'America/New_York', NC: 'America/New_York', ND: 'America/Chicago',
  OH: 'America/New_York', OK: 'America/Chicago', OR: 'America/Los_Angeles', PA: 'America/New_York', RI: 'America/New_York',
  SC: 'America/New_York', SD: 'America/Chicago', TN: 'America/Chicago', TX: 'America/Chicago', UT: 'America/Denver',
  VT: 'America/New_York', VA: 'America/New_York', WA: 'America/Los_Angeles', WV: 'America/New_York', WI: 'America/Chicago',
  WY: 'America/Denver', AS: 'Pacific/Pago_Pago', GU: 'Pacific/Guam', MP: 'Pacific/Saipan', PR: 'America/Puerto_Rico',
  VI: 'America/St_Thomas',
};

/** The IANA zone of a US state or territory code; undefined for the military codes and anything unknown. */
export function zoneOfState(state: string): string | undefined {
  return zones[state.toUpperCase()];
}

const formats = new Map<string, Intl.DateTimeFormat>();

type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall-clock fields as Intl tells them: a few microseconds a call. */
function intlWallClock(zone: string, at: Date): Wall {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    formats.set(zone, format);
  }
  const p = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! };
}

/** Every zone's offset changes only on a quarter hour of UTC, so it holds for the whole quarter hour an instant is in. */
const quarterHour = 15 * 60_000;
const offsets = new Map<string, number>();

/**
 * Minutes the zone's clocks are ahead of UTC at an instant. Remembered by zone and quarter hour: Intl's answer was
 * most of what a simulated journey cost, and a rate shop asks for the local day at each end of each quote.
 */
export function zoneOffsetMinutes(zone: string, at: Date): number {
  const quarter = Math.floor(at.getTime() / quarterHour);
  const key = `${zone} ${quarter}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  const start = quarter * quarterHour;
  const w = intlWallClock(zone, new Date(start));
  const offset = Math.round((Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - start) / 60_000);
  // A few days of quarter hours in a few dozen zones; forgotten all at once past that, to stay small.
  if (offsets.size >= 20_000) offsets.clear();
  offsets.set(key, offset);
  return offset;
}

/** The wall-clock fields in the zone at an instant. */
export function wallClock(zone: string, at: Date): Wall {
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + zoneOffsetMinutes(zone, at) * 60_000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** How far the zone's clocks are ahead of UTC at an instant, in milliseconds. */
function offsetMs(zone: string, at: Date): number {
  return zoneOffsetMinutes(zone, at) * 60_000;
}

/**
 * The instant a wall-clock time in a zone names. The offset is taken at the first guess and checked once more, so
 * a time just after a daylight-saving change lands on the right side of it; a time the change skips reads as the
 * offset before it.
 */
export function instantInZone(zone: string, wall: Wall): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const first = asUtc - offsetMs(zone, new Date(asUtc));
  const second = asUtc - offsetMs(zone, new Date(first));
  return new Date(second);
}
