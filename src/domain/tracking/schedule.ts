import type { TrackingStatus } from '../../carriers/carrier.ts';

/**
 * When a live tracker is next asked about: often when its parcel is about to change (out for delivery, due today),
 * rarely while the carrier has only a label or no record, never once its journey has ended or it has gone quiet.
 * Pure: the trackers worker and the unit tests give it everything it reads.
 */

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** How long between checks of a parcel in each state; null for the states after which it never changes. */
export const liveCheckEveryMs: Readonly<Record<TrackingStatus, number | null>> = {
  unknown: 6 * hour,
  pre_transit: 4 * hour,
  in_transit: 2 * hour,
  out_for_delivery: 30 * minute,
  available_for_pickup: 4 * hour,
  error: 6 * hour,
  delivered: null,
  return_to_sender: null,
  failure: null,
  cancelled: null,
};
/** A parcel in transit due today (or late) is asked about as often as one out for delivery. */
export const dueTodayEveryMs = 30 * minute;
/** A number the carrier still does not know this long after it was followed is given up. */
export const unknownGiveUpMs = 7 * day;
/** A parcel with no change this long after its last scan, its last change and its estimated delivery is given up. */
export const quietGiveUpMs = 30 * day;
/** A new tracker's first check comes within this long, each tracker at its own moment in it. */
export const firstCheckWithinMs = minute;

export interface LiveScheduleInput {
  trackerId: string;
  status: TrackingStatus;
  /** Scans the carrier has told of so far. */
  events: number;
  /** YYYY-MM-DD. */
  estimatedDeliveryDate: string | null;
  lastEventAt: Date | null;
  /** When shipd last saw the tracker change (its status or scans). */
  lastChangeAt: Date;
  createdAt: Date;
  now: Date;
}

/** The next check, or none: `stopDetail` then says why shipd stopped asking, where the journey did not simply end. */
export interface LiveSchedule {
  nextCheckAt: Date | null;
  stopDetail: string | null;
}

/**
 * A fraction in [0, 1) fixed by the tracker's id (FNV-1a): each tracker keeps its own place in every interval, so
 * trackers made in the same second fall due spread across a quarter either side of the interval, not together.
 */
export function idFraction(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 0x1_0000_0000;
}

/** An interval stretched or shrunk by up to a quarter, by the tracker's id. */
export const spread = (trackerId: string, everyMs: number): number => Math.round(everyMs * (0.75 + 0.5 * idFraction(trackerId)));

/** When a new live tracker is first asked about: within a minute, spread by its id. */
export const firstLiveCheck = (trackerId: string, now: Date): Date => new Date(now.getTime() + Math.round(firstCheckWithinMs * idFraction(trackerId)));

/** The end (UTC) of an estimated delivery day. */
const endOfDay = (date: string): number => Date.parse(`${date}T23:59:59.999Z`);

export function liveNextCheck(i: LiveScheduleInput): LiveSchedule {
  const every = liveCheckEveryMs[i.status];
  if (every === null) return { nextCheckAt: null, stopDetail: null };
  const now = i.now.getTime();
  if (i.status === 'unknown' && i.events === 0 && now - i.createdAt.getTime() >= unknownGiveUpMs) {
    return {
      nextCheckAt: null,
      stopDetail: `The carrier has had no record of this number for the ${unknownGiveUpMs / day} days since it was followed; shipd stopped asking. Follow it again to start over`,
    };
  }
  const estimate = i.estimatedDeliveryDate && /^\d{4}-\d{2}-\d{2}$/.test(i.estimatedDeliveryDate) ? endOfDay(i.estimatedDeliveryDate) : Number.NaN;
  const quietSince = Math.max(i.lastChangeAt.getTime(), i.lastEventAt?.getTime() ?? 0, Number.isNaN(estimate) ? 0 : estimate);
  if (now - quietSince >= quietGiveUpMs) {
    return {
      nextCheckAt: null,
      stopDetail: `No change for ${quietGiveUpMs / day} days since the last scan, change or estimated delivery; shipd stopped asking. Follow it again to start over`,
    };
  }
  const dueToday = i.status === 'in_transit' && !Number.isNaN(estimate) && estimate <= endOfDay(i.now.toISOString().slice(0, 10));
  return { nextCheckAt: new Date(now + spread(i.trackerId, dueToday ? dueTodayEveryMs : every)), stopDetail: null };
}
