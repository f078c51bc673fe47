import type { TrackingEvent } from './carrier.ts';
import { instantInZone, zoneOffsetMinutes, zoneOfState } from './time-zones.ts';
import { lookupZip } from './zips.ts';

type Place = TrackingEvent['location'];

/** "-05:00" from minutes east of UTC. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Minutes east of UTC from "-05:00", "-0500", "-5:00" or "+05:30"; undefined for anything else. */
export function offsetMinutes(text: string | undefined): number | undefined {
  const m = text?.trim().match(/^([+-])(\d{1,2}):?(\d{2})$/);
  if (!m || Number(m[2]) > 14 || Number(m[3]) > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** The zone's offset from UTC at an instant, as "-05:00". */
export function offsetIn(zone: string, at: Date): string {
  return formatOffset(zoneOffsetMinutes(zone, at));
}

/**
 * The IANA zone of a US scan place: its ZIP's state when the ZIP is known (a carrier's state may be blank), else
 * its state. Where a state spans two zones this is the zone most of its people live in (time-zones.ts), which is
 * why a carrier's own offset, when it gives one, is checked against it. Abroad or unknown: undefined.
 */
export function zoneOfPlace(place: Place): string | undefined {
  if (!place || (place.country !== '' && place.country.toUpperCase() !== 'US')) return undefined;
  const byZip = /^\d{5}/.test(place.zip) ? lookupZip(place.zip)?.state : undefined;
  return zoneOfState(byZip ?? place.state);
}

/**
 * The local clock of a scan at `at`: the carrier's own offset where it gave one, with the place's zone only if
 * that zone had the same offset then (a scan in the Florida panhandle is not called New York time); without an
 * offset, the place's zone and its offset then. Nothing where neither is known.
 */
export function scanClock(at: Date, place: Place, carrierOffset?: string): Pick<TrackingEvent, 'utcOffset' | 'timeZone'> {
  const zone = zoneOfPlace(place);
  const minutes = offsetMinutes(carrierOffset);
  if (minutes !== undefined) {
    const utcOffset = formatOffset(minutes);
    return zone && offsetIn(zone, at) === utcOffset ? { utcOffset, timeZone: zone } : { utcOffset };
  }
  return zone ? { utcOffset: offsetIn(zone, at), timeZone: zone } : {};
}

/**
 * The instant of a local date-time written without an offset, at a scan place: read in the place's zone, or as
 * UTC where the place has none we know, never in the server's zone, so one answer reads the same on every machine.
 */
export function localInstant(local: { year: number; month: number; day: number; hour: number; minute: number; second: number }, place: Place): Date {
  const zone = zoneOfPlace(place);
  if (zone) return instantInZone(zone, local);
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}
