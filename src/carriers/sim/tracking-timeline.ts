import { lookupZip, zip3DistanceMiles, zipsOfCity, type ZipInfo } from '../zips.ts';
import { isDomestic, type LabelRef, type TrackingEvent, type TrackingResult } from '../carrier.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import { scanClock } from '../scan-clock.ts';
import { simLocation } from './locations.ts';
import { instantInZone, zoneOfState } from '../time-zones.ts';

const second = 1_000;
const minute = 60_000;
const hour = 3_600_000;
const oneDay = 24 * hour;
/**
 * Carriers' drivers collect at each shipper's own time through the afternoon, by the clock of the ship-from address:
 * a time between 14:00 and 18:00 there, decided by the shipment's first tracking number (the simulators know no
 * shipper's schedule, so a day's parcels are spread as the pickups of many shippers are). The simulators count days in
 * UTC, so a pickup that late in the west is drawn from what is left of the UTC day (Pacific time keeps 14:00-15:59).
 * A label bought less than two hours before its pickup goes at the next business day's.
 */
const pickupWindowStartHour = 14;
const pickupWindowMinutes = 240;
const lastLabelBeforePickup = 2 * hour;

type Place = NonNullable<TrackingEvent['location']>;

const dayStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
const isWeekend = (d: Date) => d.getUTCDay() === 0 || d.getUTCDay() === 6;

export function nextBusinessDay(d: Date): Date {
  const next = new Date(d);
  do next.setUTCDate(next.getUTCDate() + 1);
  while (isWeekend(next));
  return next;
}

/** FNV-1a: a cheap, stable spread of a tracking number over the pickup window's minutes. */
function spread(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The pickup on a UTC day (its midnight) of a shipment from `state` (UTC for a military post office, which has no zone). */
function pickupOn(day: Date, state: string | undefined, key: string): Date {
  const zone = state === undefined ? undefined : zoneOfState(state);
  const wall = { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour: pickupWindowStartHour, minute: 0, second: 0 };
  const lastMinute = day.getTime() + oneDay - minute;
  const opens = Math.min(zone ? instantInZone(zone, wall).getTime() : day.getTime() + pickupWindowStartHour * hour, lastMinute - hour);
  const minutes = Math.min(pickupWindowMinutes, Math.floor((lastMinute - opens) / minute) + 1);
  return new Date(opens + (spread(key) % minutes) * minute);
}

/** Who the pickup time belongs to: the shipment, whose boxes are collected together. */
const pickupKey = (label: Pick<LabelRef, 'trackingNumber' | 'boxes'>): string => label.boxes?.[0]?.trackingNumber ?? label.trackingNumber;

/** When the carrier first scans a shipment bought at this moment: its shipper's next pickup on a business day. */
export function firstScanAt(purchasedAt: Date, fromState: string | undefined, key: string): Date {
  const today = dayStart(purchasedAt);
  const day = isWeekend(today) ? nextBusinessDay(today) : today;
  const pickup = pickupOn(day, fromState, key);
  return purchasedAt.getTime() <= pickup.getTime() - lastLabelBeforePickup ? pickup : pickupOn(nextBusinessDay(day), fromState, key);
}

const zipPlace = (z: ZipInfo): Place => ({ city: z.city.toUpperCase(), state: z.state.toUpperCase(), zip: z.zip, country: 'US' });

function place(a: AnyAddress | undefined): TrackingEvent['location'] {
  if (!a) return null;
  const country = (a.country ?? 'US').toUpperCase();
  if (country !== 'US' || a.zip === undefined || a.state === undefined) {
    return { city: a.city.toUpperCase(), state: (a.state ?? '').toUpperCase(), zip: a.zip ?? '', country };
  }
  const known = lookupZip(a.zip);
  return { city: (known?.city ?? a.city).toUpperCase(), state: a.state.toUpperCase(), zip: a.zip.slice(0, 5), country: 'US' };
}

/** Some military APO/FPO ZIPs sit at 0, 0 in the data set: they have no place on a map. */
const located = (z: ZipInfo) => z.latitude !== 0 || z.longitude !== 0;

/**
 * Whether a sorting facility could plausibly be in the ZIP's city. The data set has no population, so a city with
 * five or more ZIPs stands for a big one (about 600 of them), rather than sending parcels through hamlets. Military
 * post offices are overseas, and Parcel Return Service is a USPS service with ZIPs of its own, not a city.
 */
const hubCity = (z: ZipInfo) =>
  located(z) && !['AA', 'AE', 'AP'].includes(z.state) && z.city !== 'Parcel Return Service' && zipsOfCity(z.city, z.state).length >= 5;

/** Hub-city ZIPs by one-degree cell of latitude and longitude, so finding the one nearest a point looks at a few cells. */
let grid: Map<number, ZipInfo[]> | undefined;
const cellKey = (latCell: number, lonCell: number) => latCell * 1024 + lonCell;

function hubGrid(): Map<number, ZipInfo[]> {
  if (grid) return grid;
  grid = new Map();
  // zips.ts keeps no list of every ZIP; asking it for each of the 100,000 possible ones takes about 50 ms, once.
  for (let n = 0; n < 100_000; n++) {
    const z = lookupZip(String(n).padStart(5, '0'));
    if (!z || !hubCity(z)) continue;
    const key = cellKey(Math.floor(z.latitude + 90), Math.floor(z.longitude + 180));
    const cell = grid.get(key);
    if (cell) cell.push(z);
    else grid.set(key, [z]);
  }
  return grid;
}

/** Four degrees from any hub city is out at sea (between Hawaii and the mainland, say): no facility to pass through there. */
const maxRing = 4;

/** The hub-city ZIP nearest a point, ties to the lower ZIP; undefined when none is within a few degrees. */
function nearestHub(latitude: number, longitude: number): ZipInfo | undefined {
  const cells = hubGrid();
  const latCell = Math.floor(latitude + 90);
  const lonCell = Math.floor(longitude + 180);
  const lonScale = Math.cos((latitude * Math.PI) / 180);
  let best: ZipInfo | undefined;
  let bestDistance = Infinity;
  let lastRing = maxRing;
  for (let ring = 0; ring <= lastRing; ring++) {
    for (let dLat = -ring; dLat <= ring; dLat++) {
      for (let dLon = -ring; dLon <= ring; dLon++) {
        if (Math.max(Math.abs(dLat), Math.abs(dLon)) !== ring) continue;
        for (const z of cells.get(cellKey(latCell + dLat, lonCell + dLon)) ?? []) {
          const distance = (z.latitude - latitude) ** 2 + ((z.longitude - longitude) * lonScale) ** 2;
          if (distance < bestDistance || (distance === bestDistance && z.zip < best!.zip)) {
            best = z;
            bestDistance = distance;
          }
        }
      }
    }
    // The next ring out may still hold a nearer ZIP than one in this ring's corner; further out that is rare, and
    // a hub near enough the line is all a journey needs.
    if (best) lastRing = Math.min(lastRing, ring + 1);
  }
  return best;
}

const cityOf = (p: Place) => `${p.state}|${p.city}`;

/**
 * The facilities a parcel passes between two ZIPs: 1 to 4 points evenly along the straight line between them
 * (one per 600 miles), each in the city of the nearest hub-city ZIP. Stops in the origin's or destination's city,
 * or in one already passed, are left out, so a parcel across town passes none.
 */
function hubsBetween(fromZip: string, toZip: string): Place[] {
  const from = lookupZip(fromZip);
  const to = lookupZip(toZip);
  if (!from || !to || !located(from) || !located(to)) return [];
  const count = Math.min(4, Math.max(1, Math.ceil((zip3DistanceMiles(fromZip, toZip) ?? 0) / 600)));
  const passed = new Set([cityOf(zipPlace(from)), cityOf(zipPlace(to))]);
  const hubs: Place[] = [];
  for (let i = 1; i <= count; i++) {
    const f = i / (count + 1);
    const z = nearestHub(from.latitude + (to.latitude - from.latitude) * f, from.longitude + (to.longitude - from.longitude) * f);
    if (!z || passed.has(cityOf(zipPlace(z)))) continue;
    passed.add(cityOf(zipPlace(z)));
    hubs.push(zipPlace(z));
  }
  return hubs;
}

/** How a simulated journey ends, chosen by the recipient's name (docs/test-mode.md). */
function ending(to: AnyAddress | undefined): 'delivered' | 'return_to_sender' | 'failure' | 'available_for_pickup' {
  const name = (to?.name ?? '').trim().toLowerCase();
  if (name === 'return to sender') return 'return_to_sender';
  if (name === 'delivery failure') return 'failure';
  if (name === 'pickup at facility') return 'available_for_pickup';
  return 'delivered';
}

/**
 * A label whose sender is named "Never sent" is never handed over: its journey stays at the label's creation. For
 * a return label the sender is the order's recipient, so it stands for a customer who keeps what they bought (and a
 * return paid on use that is never charged).
 */
const neverSent = (from: AnyAddress | undefined) => (from?.name ?? '').trim().toLowerCase() === 'never sent';

interface Step extends Omit<TrackingEvent, 'occurredAt'> {
  at: number;
}

const wholeMinute = (t: number) => Math.round(t / minute) * minute;

/**
 * The journey in carrier time, known from the moment the label is bought: created; picked up at the first pickup;
 * through each facility on the way, with a scan on every business day it is on the road; at the destination
 * facility early on the estimated delivery date, out for delivery in the morning and delivered in the afternoon.
 */
function carrierPlan(label: LabelRef, pickup: Date): Step[] {
  const origin = place(label.from);
  const destination = place(label.to);
  // Never delivered before the day after pickup, however optimistic the quote was.
  const earliest = dayStart(nextBusinessDay(pickup));
  const due = label.estimatedDeliveryDate ? new Date(`${label.estimatedDeliveryDate}T00:00:00Z`) : earliest;
  const arrival = (due.getTime() > earliest.getTime() ? due : earliest).getTime();
  const atDestination = arrival + 5 * hour;

  const created: Step = { at: label.purchasedAt.getTime(), status: 'pre_transit', description: 'Shipping label created, awaiting item', location: origin };
  if (neverSent(label.from)) return [created];
  const steps: Step[] = [created, { at: pickup.getTime(), status: 'in_transit', description: 'Picked up', location: origin }];
  const abroad = label.to !== undefined && !isDomestic({ to: label.to });
  // Abroad, the parcel leaves through an export facility and clears the destination's customs instead of passing
  // US hubs (a foreign postal code may read as a US ZIP).
  const stops: { place: Place | null; arrived: string; departed: string }[] = abroad
    ? [
        { place: origin, arrived: 'Processed through international export facility', departed: 'Departed the United States' },
        { place: destination, arrived: 'Arrived in the destination country, held for customs', departed: 'Released by customs' },
      ]
    : (label.from && label.to ? hubsBetween(label.from.zip, label.to.zip!) : []).map((hub) => ({ place: hub, arrived: 'Arrived at facility', departed: 'Departed facility' }));
  const leg = (atDestination - pickup.getTime()) / (stops.length + 1);
  stops.forEach((stop, i) => {
    const arrived = wholeMinute(pickup.getTime() + leg * (i + 1));
    steps.push({ at: arrived, status: 'in_transit', description: stop.arrived, location: stop.place });
    steps.push({ at: wholeMinute(arrived + Math.min(3 * hour, leg / 2)), status: 'in_transit', description: stop.departed, location: stop.place });
  });
  // A day on the road without a facility scan still shows one, as carriers' tracking does.
  const moves = [...steps];
  for (let d = nextBusinessDay(pickup); d.getTime() < arrival; d = nextBusinessDay(d)) {
    const start = dayStart(d).getTime();
    if (moves.some((s) => s.at >= start && s.at < start + oneDay)) continue;
    const at = start + 3 * hour;
    const lastPlace = moves.filter((s) => s.at < at).at(-1)!.location;
    steps.push({ at, status: 'in_transit', description: 'In transit to next facility', location: lastPlace });
  }
  steps.push({ at: atDestination, status: 'in_transit', description: 'Arrived at destination facility', location: destination });

  // Boxes of one shipment travel together but are loaded and delivered one after another: each later box of the
  // label goes out and arrives three hours after the one before, so a shipment is seen partly delivered.
  const box = Math.max(0, label.boxes?.findIndex((b) => b.trackingNumber === label.trackingNumber) ?? 0);
  const morning = arrival + 8 * hour + box * 3 * hour;
  const afternoon = arrival + 14 * hour + box * 3 * hour;
  const end = ending(label.to);
  const holder = label.heldAt && simLocation(label.heldAt.carrier, label.heldAt.id);
  if (holder) {
    // Held for the recipient: ready at the location in the morning, collected the next business day.
    const counter = place(holder.address);
    steps.push({ at: morning, status: 'available_for_pickup', description: `Held for pickup at ${holder.name}`, location: counter });
    steps.push({ at: dayStart(nextBusinessDay(new Date(arrival))).getTime() + 14 * hour + box * 3 * hour, status: 'delivered', description: `Picked up at ${holder.name}`, location: counter });
  } else if (end === 'available_for_pickup') {
    steps.push({ at: morning, status: 'available_for_pickup', description: 'Held at destination facility, available for pickup', location: destination });
  } else {
    steps.push({ at: morning, status: 'out_for_delivery', description: 'Out for delivery', location: destination });
    if (end === 'return_to_sender') {
      steps.push({ at: afternoon, status: 'return_to_sender', description: 'Addressee unknown, returning to sender', location: destination });
    } else if (end === 'failure') {
      steps.push({ at: afternoon, status: 'failure', description: 'Delivery attempted, package damaged and held', location: destination });
    } else {
      steps.push({ at: afternoon, status: 'delivered', description: 'Delivered, front door', location: destination });
    }
  }
  return steps.sort((a, b) => a.at - b.at);
}

/** A simulated scan on the clock of its place, as a carrier writes it: the zone of the place's ZIP or state, and its offset then. */
export function onLocalClock(event: TrackingEvent): TrackingEvent {
  const { utcOffset: _offset, timeZone: _zone, ...rest } = event;
  return { ...rest, ...scanClock(event.occurredAt, event.location) };
}

/**
 * Who signs for a simulated parcel: the recipient's surname in capitals, as drivers key it in (UPS's receivedBy,
 * FedEx's signedByName, USPS's event name all carry such names). Undefined for a recipient without a name. The
 * simulators give it on every delivery, asked for or not, so a client sees the field filled in test mode.
 */
export function simulatedSigner(to: AnyAddress | undefined): string | undefined {
  const words = (to?.name ?? '').trim().split(/\s+/).filter((w) => /[A-Za-z]/.test(w));
  return words.at(-1)?.toUpperCase();
}

/**
 * The whole journey of a simulated label in wall-clock time, at `speed` carrier seconds per real second: planned in
 * carrier time, then run fast. The first scan comes no sooner than `firstScanAfterMs` after purchase (a minute
 * unless said otherwise; SHIPD_SIM_FIRST_SCAN_MINUTES), so there is always time to void a label; each later event
 * follows it at the planned gaps divided by `speed`. Speed 1 is the plan.
 */
export function simulatedJourney(label: LabelRef, speed: number, firstScanAfterMs = minute): TrackingEvent[] {
  const bought = label.purchasedAt.getTime();
  const pickup = firstScanAt(label.purchasedAt, label.from?.state, pickupKey(label));
  const firstScan = Math.max(bought + firstScanAfterMs, bought + (pickup.getTime() - bought) / speed);
  let previous = -Infinity;
  return carrierPlan(label, pickup).map(({ at, ...event }) => {
    const wall = at < pickup.getTime() ? at : firstScan + (at - pickup.getTime()) / speed;
    // Fast enough, hours shrink to milliseconds; a second apart keeps events in order when shown to the second.
    const occurredAt = Math.max(Math.round(wall), previous + second);
    previous = occurredAt;
    return onLocalClock({ occurredAt: new Date(occurredAt), ...event });
  });
}

/** The tracking of a simulated label as seen at `now`: the part of its journey that has happened, so it only moves forward. */
export function simulatedTracking(label: LabelRef, now: Date, speed: number, firstScanAfterMs = minute): TrackingResult {
  const journey = simulatedJourney(label, speed, firstScanAfterMs);
  const seen = journey.filter((e) => e.occurredAt.getTime() <= now.getTime());
  // A clock set back before the purchase still finds the label, just not yet handed over.
  const last = seen.at(-1) ?? journey[0]!;
  const next = journey[seen.length];
  const signer = last.status === 'delivered' && seen.length > 0 ? simulatedSigner(label.to) : undefined;
  return {
    status: last.status,
    statusDetail: last.description,
    estimatedDeliveryDate: label.estimatedDeliveryDate ?? null,
    events: seen,
    ...(next && { nextEventAt: next.occurredAt }),
    ...(signer && { signedBy: signer }),
  };
}
