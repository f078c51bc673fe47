import { lookupZip } from '../zips.ts';
import type { LabelRef, TrackingEvent, TrackingResult, TrackingStatus } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';

const hour = 3_600_000;
/** Carriers collect the day's parcels in the late afternoon; a label bought after the cut-off goes the next business day. */
const cutoffHourUtc = 16;
const pickupHourUtc = 18;

const dayStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

function nextBusinessDay(d: Date): Date {
  const next = new Date(d);
  do next.setUTCDate(next.getUTCDate() + 1);
  while (next.getUTCDay() === 0 || next.getUTCDay() === 6);
  return next;
}

/** When the carrier first scans a label bought at this moment: the next pickup on a business day. */
export function firstScanAt(purchasedAt: Date): Date {
  let day = dayStart(purchasedAt);
  const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6;
  if (weekend || purchasedAt.getUTCHours() >= cutoffHourUtc) day = nextBusinessDay(day);
  return new Date(day.getTime() + pickupHourUtc * hour);
}

function place(a: Address | undefined): TrackingEvent['location'] {
  if (!a) return null;
  const known = lookupZip(a.zip);
  return { city: (known?.city ?? a.city).toUpperCase(), state: a.state.toUpperCase(), zip: a.zip.slice(0, 5), country: 'US' };
}

/** How a simulated journey ends, chosen by the recipient's name (README: test mode). */
function ending(to: Address | undefined): 'delivered' | 'return_to_sender' | 'failure' {
  const name = (to?.name ?? '').trim().toLowerCase();
  if (name === 'return to sender') return 'return_to_sender';
  if (name === 'delivery failure') return 'failure';
  return 'delivered';
}

/**
 * The whole journey of a simulated label, known from the moment it is bought: created, picked up, moved through
 * a hub each business day, out for delivery on the estimated date and delivered that afternoon. Tracking shows
 * the part of it that has happened by `now`, so it moves forward with the clock and never backwards.
 */
export function simulatedJourney(label: LabelRef): TrackingEvent[] {
  const origin = place(label.from);
  const destination = place(label.to);
  const pickup = firstScanAt(label.purchasedAt);
  // Never delivered before the day after pickup, however optimistic the quote was.
  const earliest = dayStart(nextBusinessDay(pickup));
  const due = label.estimatedDeliveryDate ? new Date(`${label.estimatedDeliveryDate}T00:00:00Z`) : earliest;
  const arrival = due.getTime() > earliest.getTime() ? due : earliest;
  const events: TrackingEvent[] = [
    { occurredAt: label.purchasedAt, status: 'pre_transit', description: 'Shipping label created, awaiting item', location: origin },
    { occurredAt: pickup, status: 'in_transit', description: 'Picked up', location: origin },
  ];
  for (let day = nextBusinessDay(pickup); day.getTime() < arrival.getTime(); day = nextBusinessDay(day)) {
    const at = new Date(dayStart(day).getTime() + 3 * hour);
    events.push({ occurredAt: at, status: 'in_transit', description: 'In transit to next facility', location: null });
  }
  const morning = new Date(arrival.getTime() + 8 * hour);
  const afternoon = new Date(arrival.getTime() + 14 * hour);
  events.push({ occurredAt: new Date(arrival.getTime() + 5 * hour), status: 'in_transit', description: 'Arrived at destination facility', location: destination });
  const end = ending(label.to);
  if (end === 'return_to_sender') {
    events.push({ occurredAt: afternoon, status: 'return_to_sender', description: 'Addressee unknown, returning to sender', location: destination });
  } else if (end === 'failure') {
    events.push({ occurredAt: morning, status: 'out_for_delivery', description: 'Out for delivery', location: destination });
    events.push({ occurredAt: afternoon, status: 'failure', description: 'Delivery attempted, package damaged and held', location: destination });
  } else {
    events.push({ occurredAt: morning, status: 'out_for_delivery', description: 'Out for delivery', location: destination });
    events.push({ occurredAt: afternoon, status: 'delivered', description: 'Delivered, front door', location: destination });
  }
  return events;
}

/** The tracking of a simulated label as seen at `now`. */
export function simulatedTracking(label: LabelRef, now: Date): TrackingResult {
  const seen = simulatedJourney(label).filter((e) => e.occurredAt.getTime() <= now.getTime());
  const last = seen[seen.length - 1]!;
  const status: TrackingStatus = last.status;
  return { status, statusDetail: last.description, estimatedDeliveryDate: label.estimatedDeliveryDate ?? null, events: seen };
}
