import { wallClock, zoneOfState } from '../../carriers/time-zones.ts';

export interface LocalClock {
  /** YYYY-MM-DD */
  date: string;
  /** Minutes since local midnight. */
  minutes: number;
}

/** The day and time it is now in the state's time zone; undefined for the military codes, which have none. */
export function localClock(state: string, now: Date): LocalClock | undefined {
  const zone = zoneOfState(state);
  if (!zone) return undefined;
  const w = wallClock(zone, now);
  return { date: `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`, minutes: w.hour * 60 + w.minute };
}

/** "HH:MM" as minutes since midnight. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** Minutes since midnight as "HH:MM". */
export function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
