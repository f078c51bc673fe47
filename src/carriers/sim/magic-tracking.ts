import type { LabelRef, TrackingEvent, TrackingResult } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { onLocalClock, simulatedJourney, simulatedSigner } from './tracking-timeline.ts';

/**
 * Tracking numbers any test key may track, each with a fixed outcome, for testing a client's handling of it
 * (docs/test-mode.md).
 */
export const magicTrackingNumbers = [
  'SHIPD_TEST_PRE_TRANSIT',
  'SHIPD_TEST_IN_TRANSIT',
  'SHIPD_TEST_OUT_FOR_DELIVERY',
  'SHIPD_TEST_DELIVERED',
  'SHIPD_TEST_AVAILABLE_FOR_PICKUP',
  'SHIPD_TEST_RETURN_TO_SENDER',
  'SHIPD_TEST_FAILURE',
] as const;
type MagicNumber = (typeof magicTrackingNumbers)[number];

/** How many of the journey's events have happened. */
type Progress = (journey: TrackingEvent[]) => number;
const through = (status: TrackingEvent['status']): Progress => (journey) => journey.findIndex((e) => e.status === status) + 1;
const whole: Progress = (journey) => journey.length;
const midway: Progress = (journey) => {
  const moving = journey.filter((e) => e.status === 'in_transit');
  return journey.indexOf(moving[Math.floor(moving.length / 2)]!) + 1;
};

/** Each number's journey: the recipient name that picks its ending, and how far along it is. */
const outcomes: Record<MagicNumber, { recipient: string; progress: Progress }> = {
  SHIPD_TEST_PRE_TRANSIT: { recipient: 'Ada Lovelace', progress: through('pre_transit') },
  SHIPD_TEST_IN_TRANSIT: { recipient: 'Ada Lovelace', progress: midway },
  SHIPD_TEST_OUT_FOR_DELIVERY: { recipient: 'Ada Lovelace', progress: through('out_for_delivery') },
  SHIPD_TEST_DELIVERED: { recipient: 'Ada Lovelace', progress: whole },
  SHIPD_TEST_AVAILABLE_FOR_PICKUP: { recipient: 'Pickup at facility', progress: whole },
  SHIPD_TEST_RETURN_TO_SENDER: { recipient: 'Return to sender', progress: whole },
  SHIPD_TEST_FAILURE: { recipient: 'Delivery failure', progress: whole },
};

/** One fixed Priority Mail parcel, New York to San Francisco in three business days, that every magic number follows. */
const sample: Omit<LabelRef, 'trackingNumber' | 'carrierShipmentId' | 'to'> = {
  service: 'PRIORITY_MAIL',
  purchasedAt: new Date('2024-01-08T14:00:00Z'),
  estimatedDeliveryDate: '2024-01-11',
  from: { name: 'Shipd Test Warehouse', street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001' },
};
const sampleRecipient: Address = { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' };

const hour = 3_600_000;

/**
 * The tracking of a magic test number as seen at `now`, or undefined for any other number. Its last event is an hour
 * before `now` truncated to the hour, the rest at the sample journey's gaps before it, so repeated calls within an
 * hour answer the same and every event is in the past.
 */
export function magicTracking(trackingNumber: string, now: Date): TrackingResult | undefined {
  const number = trackingNumber.trim().toUpperCase();
  if (!Object.hasOwn(outcomes, number)) return undefined;
  const { recipient, progress } = outcomes[number as MagicNumber];
  const to = { ...sampleRecipient, name: recipient };
  const journey = simulatedJourney({ ...sample, trackingNumber: number, carrierShipmentId: number, to }, 1);
  const shown = journey.slice(0, progress(journey));
  const shift = Math.floor(now.getTime() / hour) * hour - hour - shown.at(-1)!.occurredAt.getTime();
  // Moved in time, each scan is read again on its place's clock: the offset may be another side of a DST change.
  const events = shown.map((e) => onLocalClock({ ...e, occurredAt: new Date(e.occurredAt.getTime() + shift) }));
  const last = events.at(-1)!;
  // Where the sample was due, moved like its events; a journey ended early keeps the date it was due.
  const due = new Date(journey.at(-1)!.occurredAt.getTime() + shift).toISOString().slice(0, 10);
  const signer = last.status === 'delivered' ? simulatedSigner(to) : undefined;
  return { status: last.status, statusDetail: last.description, estimatedDeliveryDate: due, events, ...(signer && { signedBy: signer }) };
}
