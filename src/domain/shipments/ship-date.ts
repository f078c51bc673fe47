import { wallClock, zoneOfState } from '../../carriers/time-zones.ts';
import type { Address } from '../../schemas/address.ts';
import { ApiError } from '../../kernel/errors.ts';

/**
 * How far ahead a label may be dated. UPS and FedEx allow at least this much (read 2026-11-27): UPS Shipping "up to
 * 7 days in the future with current date as day zero" (UPS-API/api-documentation Shipping.yaml ShipmentDate; Rating's
 * Pickup Date allows 60), FedEx "not a past date or a date more than 10 days in the future" (RateQuotes-Resource.json
 * shipDateStamp), so neither needs a shorter window of its own. USPS's window for mailingDate was not found in the
 * specs at hand: a date it refuses fails its rate or label with USPS's own message.
 */
export const shipDateWindowDays = 7;

/** The day a parcel ships and the instant the carriers are given for it. */
export interface ShipDay {
  /** YYYY-MM-DD in the ship-from location's time zone. */
  day: string;
  /**
   * Carriers, labels and the simulators' calendars read the UTC date of this instant: the present moment when that
   * is the day (as before ship dates could be chosen), else noon UTC of the day, which is the same date in every US zone.
   */
  at: Date;
}

/** The YYYY-MM-DD `days` after a YYYY-MM-DD. */
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Today in the ship-from location's time zone (UTC for a military post office, which has none). */
export function localToday(from: Pick<Address, 'state'>, now: Date): string {
  const zone = zoneOfState(from.state);
  if (!zone) return now.toISOString().slice(0, 10);
  const w = wallClock(zone, now);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** The instant carriers are given for a day (see ShipDay.at). */
export function shipInstant(day: string, now: Date): Date {
  return now.toISOString().slice(0, 10) === day ? now : new Date(`${day}T12:00:00Z`);
}

/**
 * The asked ship date, or today, checked against the window from today to shipDateWindowDays ahead in the ship-from
 * location's time zone. `pointer` names the field that brought the date (a rate's date comes by its rate_id).
 */
export function shipDay(from: Pick<Address, 'state'>, now: Date, asked: string | null | undefined, pointer = '/ship_date'): ShipDay {
  const today = localToday(from, now);
  const day = asked ?? today;
  const last = addDays(today, shipDateWindowDays);
  if (day < today || day > last) {
    const why = day < today ? `${day} is past` : `${day} is more than ${shipDateWindowDays} days ahead`;
    const detail = `${why}: a label can ship from today (${today} at the ship-from location, ${from.state}) to ${last}`;
    throw new ApiError('ship_date_out_of_range', `ship_date ${detail}`, [{ in: 'body', pointer, detail }]);
  }
  return { day, at: shipInstant(day, now) };
}

/**
 * A batch's ship date, checked before any of its orders is looked at: refused only where it is out of range wherever
 * an order could ship from, from the earliest US today (American Samoa, UTC−11) to the latest (Guam and the Northern
 * Marianas, UTC+10); each order is then held to its own ship-from location's range by shipDay.
 */
export function shipDayAnywhere(now: Date, asked: string): void {
  const earliest = new Date(now.getTime() - 11 * 3_600_000).toISOString().slice(0, 10);
  const last = addDays(new Date(now.getTime() + 10 * 3_600_000).toISOString().slice(0, 10), shipDateWindowDays);
  if (asked >= earliest && asked <= last) return;
  const detail = `${asked} is ${asked < earliest ? 'past' : `more than ${shipDateWindowDays} days ahead`} wherever in the US the labels ship from: a batch can ship from ${earliest} to ${last}`;
  throw new ApiError('ship_date_out_of_range', `ship_date ${detail}`, [{ in: 'body', pointer: '/ship_date', detail }]);
}
