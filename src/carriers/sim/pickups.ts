import { createHash } from 'node:crypto';
import type { CarrierId } from '../../config.ts';
import type { PickupAvailability } from '../carrier.ts';
import { usFederalHoliday } from './calendar.ts';

/** When drivers come, local time at the address: the span every carrier's one-time pickups fit in. */
export const pickupHours = { opens: '08:00', closes: '20:00' };
/** The shortest window carriers take, so a driver can fit the stop into a route. */
export const minimumWindowMinutes = 120;

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A simulated carrier's answer for a day, by the rules test-mode pickups are held to: Monday to Friday but US federal
 * holidays, from opening to closing; a pickup is booked by the last start a shortest window fits before closing.
 */
export function simPickupAvailability(carrierName: string, date: string): PickupAvailability {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  const holiday = usFederalHoliday(date);
  const closed = weekday === 0 || weekday === 6 ? `${date} is a ${weekdays[weekday]}` : holiday ? `${date} is ${holiday}, a US federal holiday` : null;
  if (closed) return { available: false, earliest: null, latest: null, bookBy: null, reason: `${carrierName} picks up Monday to Friday but on US federal holidays; ${closed}` };
  const [h, m] = pickupHours.closes.split(':').map(Number) as [number, number];
  const lastStart = h * 60 + m - minimumWindowMinutes;
  const bookBy = `${String(Math.floor(lastStart / 60)).padStart(2, '0')}:${String(lastStart % 60).padStart(2, '0')}`;
  return { available: true, earliest: pickupHours.opens, latest: pickupHours.closes, bookBy, reason: null };
}

const digits = '0123456789';
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function draw(seed: Buffer, from: number, count: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[seed[from + i]! % alphabet.length];
  return out;
}

/**
 * A pickup confirmation in the carrier's own style, the same for the same reference (so a retried schedule gets the
 * first one back): UPS a pickup request number of 11 letters and digits starting with 2 (`2929602E9CP`); USPS `WTC`
 * and 9 digits (`WTC123456789`); FedEx its dispatch location's 4 letters and a 4-digit number (`NQAA3001`).
 */
export function pickupConfirmation(carrier: CarrierId, reference: string): string {
  const seed = createHash('sha256').update(`pickup:${carrier}:${reference}`).digest();
  switch (carrier) {
    case 'ups':
      return '2' + draw(seed, 0, 10, digits + letters);
    case 'usps':
      return 'WTC' + draw(seed, 0, 9, digits);
    case 'fedex':
      return draw(seed, 0, 4, letters) + draw(seed, 4, 4, digits);
  }
}
