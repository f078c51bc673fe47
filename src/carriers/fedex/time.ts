import { instantInZone, zoneOfState } from '../time-zones.ts';

/** An ISO date-time that states its offset: Z, or ±hh:mm / ±hhmm / ±hh after the time. */
const withOffset = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;
const localDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/**
 * The instant of a FedEx time. FedEx writes scan times with the offset of the scan location
 * ("2018-02-02T12:01:00-07:00", TrackingNumbers-Resource.json ScanEvent.date), and such a time is exact. One
 * without an offset is local time at the scan location: read in the zone of the location's state, or as UTC where
 * the state has no zone we know (abroad, military), never in the server's zone, so the same answer gives the same
 * instant on every machine. Undefined when the text is not a date.
 */
export function fedexInstant(text: string | undefined, state?: string): Date | undefined {
  const s = text?.trim();
  if (!s) return undefined;
  if (withOffset.test(s)) {
    const ms = Date.parse(s);
    return Number.isNaN(ms) ? undefined : new Date(ms);
  }
  if (!localDateTime.test(s)) return undefined;
  const ms = Date.parse(s.includes('T') ? `${s}Z` : `${s}T00:00:00Z`);
  if (Number.isNaN(ms)) return undefined;
  const zone = state ? zoneOfState(state) : undefined;
  if (!zone) return new Date(ms);
  const t = new Date(ms);
  return instantInZone(zone, { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate(), hour: t.getUTCHours(), minute: t.getUTCMinutes(), second: t.getUTCSeconds() });
}
