import { createHash } from 'node:crypto';
import type { LabelRef } from '../carrier.ts';
import type { Address } from '../../schemas/address.ts';
import { firstScanAt, nextBusinessDay } from './tracking-timeline.ts';

/** Where parcels bought elsewhere go from and to in test mode: a few big cities far enough apart to pass hubs between. */
const places: readonly Address[] = [
  { street1: '350 5th Ave', city: 'New York', state: 'NY', zip: '10001' },
  { street1: '233 S Wacker Dr', city: 'Chicago', state: 'IL', zip: '60601' },
  { street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  { street1: '400 Broad St', city: 'Seattle', state: 'WA', zip: '98109' },
  { street1: '191 Peachtree St NE', city: 'Atlanta', state: 'GA', zip: '30303' },
  { street1: '1701 Wynkoop St', city: 'Denver', state: 'CO', zip: '80202' },
  { street1: '200 S Biscayne Blvd', city: 'Miami', state: 'FL', zip: '33131' },
];

/** Who the parcels bought elsewhere are for in test mode, so that their deliveries are signed for (tracking-timeline.ts). */
const recipients: readonly string[] = ['Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth', 'Margaret Hamilton', 'John Backus'];

/**
 * A parcel whose label shipd did not sell, as the test-mode simulators see it: the number alone decides where it
 * goes from and to, whom it is for, and in how many business days (1 to 4), and its journey starts when it is first followed, as a
 * label's starts when it is bought. Every such journey ends delivered; the magic numbers (magic-tracking.ts) give
 * the other endings, and the simulator answers them before it reads any of this.
 */
export function externalParcel(trackingNumber: string, followedSince: Date): LabelRef {
  const hash = createHash('sha256').update(trackingNumber).digest();
  const from = places[hash[0]! % places.length]!;
  const to = places[(hash[0]! + 1 + (hash[1]! % (places.length - 1))) % places.length]!;
  let due = firstScanAt(followedSince, from.state, trackingNumber);
  for (let days = 1 + (hash[2]! % 4); days > 0; days--) due = nextBusinessDay(due);
  return {
    trackingNumber,
    carrierShipmentId: trackingNumber,
    // Not known for a label bought elsewhere, and a simulated journey does not depend on it.
    service: '',
    purchasedAt: followedSince,
    estimatedDeliveryDate: due.toISOString().slice(0, 10),
    from,
    to: { ...to, name: recipients[hash[3]! % recipients.length]! },
  };
}
