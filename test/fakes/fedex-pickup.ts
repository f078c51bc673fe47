/* eslint-disable @typescript-eslint/no-explicit-any -- the fake reads request JSON as loosely as a web server does, field by field */
import type { ServerResponse } from 'node:http';
import { usFederalHoliday } from '../../src/carriers/sim/calendar.ts';
import { sendJson } from './server.ts';

// The fake FedEx's Pickup Request API (pickup-request/v1 Pickup-Resource.json, commit
// bc94dcd2c7254f105842125a3eb671c3f614d072): availability, create and cancel, answering PickupAvailabilityOutputVO,
// CreatePickupOutputVO and CancelPickupOutputVO, and refusing with the document's own codes: a day gone
// (PICKUP.REQUESTED.PREVIOUS.DAY on create, PICKUP.NUMBER.EXPIRED on cancel). Requests are checked against
// test/contracts/fedex/pickup.ts before they get here. The times it offers are the fake's own: FedEx publishes none.

/** A pickup the fake booked. */
export interface FakePickup {
  confirmation: string;
  carrierCode: 'FDXE' | 'FDXG';
  /** The Express location that answered it; empty for Ground, which names none. */
  location: string;
  date: string;
  /** x-customer-transaction-id of the booking: our reference. */
  reference: string | null;
  body: Record<string, any>;
  cancelled: boolean;
}

export interface PickupFake {
  /** Every pickup booked, by confirmation code. */
  booked: Map<string, FakePickup>;
  /** The next pickup call (create, cancel or availability) is refused with this error, a 400 in FedEx's envelope. */
  refuseNext: { code: string; message: string } | null;
  /** Postal codes FedEx drivers do not reach: availability answers available false with an alert. */
  unserved: Set<string>;
  /**
   * Book, then never answer (the connection hangs until the fake closes): the answer lost between FedEx's booking and
   * shipd's commit, as a time-out or a crash loses it.
   */
  holdAnswers: boolean;
}

/** The fake's offers, per company: ready times from `ready` to the cut-off, latest times from `latestFrom` to `latestTo`. */
const offers = {
  FDXE: { ready: '09:00', cutOff: '18:00', latestFrom: '12:00', latestTo: '20:00' },
  FDXG: { ready: '08:00', cutOff: '16:00', latestFrom: '12:00', latestTo: '19:00' },
} as const;

/** HH:MM:SS every half hour from one HH:MM to another, both included. */
function halfHours(from: string, to: string): string[] {
  const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const out: string[] = [];
  for (let m = minutes(from); m <= minutes(to); m += 30) out.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`);
  return out;
}

/** The day that has begun everywhere in the US: a date before it has passed at every pickup address. */
const usToday = () => new Date(Date.now() - 10 * 3_600_000).toISOString().slice(0, 10);

const isBusinessDay = (date: string) => {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6 && !usFederalHoliday(date);
};

export function pickupRoutes() {
  const state: PickupFake = { booked: new Map(), refuseNext: null, unserved: new Set(), holdAnswers: false };
  let sequence = 0;
  const bad = (res: ServerResponse, code: string, message: string) => sendJson(res, 400, { transactionId: 'fake-txn', errors: [{ code, message }] });
  const refused = (res: ServerResponse): boolean => {
    if (!state.refuseNext) return false;
    const { code, message } = state.refuseNext;
    state.refuseNext = null;
    bad(res, code, message);
    return true;
  };

  function availability(body: Record<string, any>, res: ServerResponse): void {
    if (refused(res)) return;
    const date: string = body.dispatchDate ?? usToday();
    const served = !state.unserved.has(String(body.pickupAddress.postalCode)) && isBusinessDay(date);
    const options = (body.carriers as ('FDXE' | 'FDXG')[]).map((carrier) => {
      const o = offers[carrier];
      return {
        carrier,
        available: served,
        pickupDate: date,
        cutOffTime: `${o.cutOff}:00`,
        accessTime: { hours: 2, minutes: 0 },
        residentialAvailable: carrier === 'FDXG',
        countryRelationship: body.countryRelationship,
        scheduleDay: date === usToday() ? 'SAME_DAY' : 'FUTURE_DAY',
        defaultReadyTime: `${o.ready}:00`,
        defaultLatestTimeOptions: `${o.latestTo}:00`,
        readyTimeOptions: served ? halfHours(o.ready, o.cutOff) : [],
        latestTimeOptions: served ? halfHours(o.latestFrom, o.latestTo) : [],
      };
    });
    const alerts = served ? [] : [{ code: 'PICKUP.NOT.AVAILABLE', alertType: 'NOTE', message: `No pickup is available for ${body.pickupAddress.postalCode} on ${date}.` }];
    sendJson(res, 200, { transactionId: 'fake-txn', output: { requestTimestamp: new Date().toISOString().slice(0, 19), options, alerts } });
  }

  function create(body: Record<string, any>, res: ServerResponse, reference: string | null): void {
    if (refused(res)) return;
    const date = String(body.originDetail.readyDateTimestamp).slice(0, 10);
    if (date < usToday()) return bad(res, 'PICKUP.REQUESTED.PREVIOUS.DAY', 'Cannot schedule a pickup requested for a previous day.');
    const carrierCode = body.carrierCode as 'FDXE' | 'FDXG';
    sequence++;
    const confirmation = carrierCode === 'FDXG' ? `CPU${date.replace(/-/g, '')}${String(sequence).padStart(2, '0')}` : String(3000 + sequence);
    const location = carrierCode === 'FDXE' ? 'NQAA' : '';
    state.booked.set(confirmation, { confirmation, carrierCode, location, date, reference, body, cancelled: false });
    if (state.holdAnswers) return;
    sendJson(res, 200, {
      transactionId: 'fake-txn',
      ...(reference && { customerTransactionId: reference }),
      output: { pickupConfirmationCode: confirmation, message: 'Courier on the way', ...(location && { location }), alerts: [] },
    });
  }

  function cancel(body: Record<string, any>, res: ServerResponse): void {
    if (refused(res)) return;
    const p = state.booked.get(String(body.pickupConfirmationCode));
    const carrierCode = body.carrierCode ?? 'FDXE';
    if (!p || p.cancelled || p.date !== body.scheduledDate || p.carrierCode !== carrierCode || (carrierCode === 'FDXE' && p.location !== body.location)) {
      return sendJson(res, 404, { transactionId: 'fake-txn', errors: [{ code: 'NOT.FOUND.ERROR', message: 'The resource you requested is no longer available. Please modify your request and try again.' }] });
    }
    if (p.date < usToday()) return bad(res, 'PICKUP.NUMBER.EXPIRED', 'PREVIOUS DAY PICKUP, CANNOT CANCEL OR UPDATE');
    p.cancelled = true;
    sendJson(res, 200, { transactionId: 'fake-txn', output: { pickupConfirmationCode: p.confirmation, cancelConfirmationMessage: 'Requested pickup has been cancelled successfully.', alerts: [] } });
  }

  return { state, availability, create, cancel };
}
