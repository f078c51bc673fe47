import type { IncomingMessage, ServerResponse } from 'node:http';
import { wallClock, zoneOfState } from '../../src/carriers/time-zones.ts';
import { sendJson } from './server.ts';

// The fake UPS's Pickup API (Pickup.yaml, UPS-API/api-documentation at cf813de955d5c052563d6fc387e59597a7ea816e): on-call
// pickups rated, booked, listed as pending and cancelled by PRN. Requests reach it only once they keep our schemas of
// the spec (test/contracts/ups/pickup.ts), which the fake UPS checks first. As the spec says of creation, "Same PRN
// will be returned if a pickup request already exists for a pickup address/ point" (an address being its address line
// and postal code on the day, whatever the shipper account, which the spec does not name); of the pending status, that it
// "will only display incomplete status for today and tomorrow only" (PickupStatusMessage), so a pickup booked for a
// later day is not listed until the day before it.

/** A booked on-call pickup, as the fake keeps it. */
export interface UpsFakePickup {
  prn: string;
  /** yyyyMMdd */
  date: string;
  reference: string | undefined;
  readyTime: string;
  closeTime: string;
  quantity: number;
  weight: string;
  postalCode: string;
  /** PickupAddress.StateProvince: its time zone says which day is today there. */
  stateProvince: string;
  cancelled: boolean;
}

/**
 * Refusals in UPS's error envelope. Pickup.yaml publishes no error codes (its Errors page is a link), so the HTTP
 * status stands in for the code, as the fake's throttling does; the messages say what the spec's rules say.
 */
export const upsPickupRefusals = {
  pastCallByTime: { kind: 'envelope' as const, status: 400, code: '400', message: 'The ReadyTime is later than the CallByTime for this pickup address' },
  noService: { kind: 'envelope' as const, status: 400, code: '400', message: 'On-call pickup service is not available at this address on this date' },
};

/**
 * What the fake charges for an on-call pickup, in dollars: deterministic figures, not UPS's tariff (UPS publishes its
 * pickup charge by locale and day through this very rate call, not in a document shipd could use).
 */
const fakeCharge = { base: 6.5, residential: 1.25 };

const money8 = (n: number): string => n.toFixed(2).padStart(8, '0');
const ok = { ResponseStatus: { Code: '1', Description: 'Success' } };

export interface UpsPickupRoutes {
  pickups: Map<string, UpsFakePickup>;
  /**
   * `holdAnswers`: book, then never answer (the connection hangs until the fake closes): the answer lost between
   * UPS's booking and shipd's commit, as a crash or a time-out loses it. `now`: the fake's clock, which says which
   * pickups are today's and tomorrow's, the only ones the pending status lists; tests that move shipd's clock give theirs.
   */
  controls: { holdAnswers: boolean; now: () => number };
  /** Answers the request if it is one of the Pickup API's; false otherwise. */
  handle(req: IncomingMessage, path: string, body: unknown, res: ServerResponse): boolean;
}

export function upsPickupRoutes(errorBody: (code: string, message: string) => unknown): UpsPickupRoutes {
  const pickups = new Map<string, UpsFakePickup>();
  const controls = { holdAnswers: false, now: () => Date.now() };
  /** Each pickup's street, for finding the one already booked at an address. */
  const addressOf = new Map<string, string>();
  let next = 1;
  const get = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), v);

  function rate(body: unknown, res: ServerResponse): void {
    const address = get(body, 'PickupRateRequest', 'PickupAddress');
    const residential = get(address, 'ResidentialIndicator') === 'Y';
    const base = fakeCharge.base;
    const details = [{ ChargeCode: 'B', ChargeDescription: 'BASE CHARGE', ChargeAmount: money8(base), TaxAmount: money8(0) }];
    if (residential) details.push({ ChargeCode: 'S', ChargeDescription: 'RESIDENTIAL SURCHARGE', ChargeAmount: money8(fakeCharge.residential), TaxAmount: money8(0) });
    const total = base + (residential ? fakeCharge.residential : 0);
    sendJson(res, 200, {
      PickupRateResponse: {
        Response: ok,
        RateResult: { RateType: 'FD', CurrencyCode: 'USD', ChargeDetail: details, TotalTax: money8(0), GrandTotalOfAllCharge: money8(total) },
      },
    });
  }

  function create(body: unknown, res: ServerResponse): void {
    const r = get(body, 'PickupCreationRequest');
    const date = String(get(r, 'PickupDateInfo', 'PickupDate'));
    const postalCode = String(get(r, 'PickupAddress', 'PostalCode') ?? '');
    const street = String((get(r, 'PickupAddress', 'AddressLine') as string[])[0]);
    const readyTime = String(get(r, 'PickupDateInfo', 'ReadyTime'));
    const closeTime = String(get(r, 'PickupDateInfo', 'CloseTime'));
    if (closeTime <= readyTime) return void sendJson(res, 400, errorBody('400', 'The CloseTime must be later than the ReadyTime'));
    const existing = [...pickups.values()].find((p) => !p.cancelled && p.date === date && p.postalCode === postalCode && addressOf.get(p.prn) === street);
    if (existing) return void sendJson(res, 200, { PickupCreationResponse: { Response: ok, PRN: existing.prn, RateStatus: { Code: '04', Description: 'Rate not requested' } } });
    // 11 characters, as PickupCreationResponse.PRN is.
    const prn = `29${String(next++).padStart(9, '0')}`;
    const pieces = get(r, 'PickupPiece') as { Quantity: string }[];
    pickups.set(prn, {
      prn,
      date,
      reference: get(r, 'ReferenceNumber') as string | undefined,
      readyTime,
      closeTime,
      quantity: pieces.reduce((n, p) => n + Number(p.Quantity), 0),
      weight: String(get(r, 'TotalWeight', 'Weight') ?? ''),
      postalCode,
      stateProvince: String(get(r, 'PickupAddress', 'StateProvince') ?? ''),
      cancelled: false,
    });
    addressOf.set(prn, street);
    if (controls.holdAnswers) return;
    sendJson(res, 200, { PickupCreationResponse: { Response: ok, PRN: prn, RateStatus: { Code: '04', Description: 'Rate not requested' } } });
  }
  function cancel(req: IncomingMessage, res: ServerResponse): void {
    const prn = String(req.headers.prn ?? '');
    const pickup = pickups.get(prn);
    if (!pickup || pickup.cancelled) return void sendJson(res, 400, errorBody('400', `No pending on-call pickup ${prn} to cancel`));
    pickup.cancelled = true;
    sendJson(res, 200, { PickupCancelResponse: { Response: ok, PickupType: '01' } });
  }

  /** yyyyMMdd of today and tomorrow at the pickup address, by its state's time zone (US Central where it has none). */
  function todayAndTomorrow(p: UpsFakePickup): string[] {
    const zone = zoneOfState(p.stateProvince) ?? 'America/Chicago';
    const w = wallClock(zone, new Date(controls.now()));
    const today = Date.UTC(w.year, w.month - 1, w.day);
    return [today, today + 86_400_000].map((t) => new Date(t).toISOString().slice(0, 10).replaceAll('-', ''));
  }

  function pending(res: ServerResponse): void {
    const listed = [...pickups.values()].filter((p) => !p.cancelled && todayAndTomorrow(p).includes(p.date));
    sendJson(res, 200, {
      PickupPendingStatusResponse: {
        Response: ok,
        PendingStatus: listed.map((p) => ({
          PickupType: '01',
          ServiceDate: p.date,
          PRN: p.prn,
          PickupStatusMessage: 'Your pickup request is being processed',
          BillingCode: '01',
          ...(p.reference && { ReferenceNumber: p.reference }),
        })),
      },
    });
  }

  return {
    pickups,
    controls,
    handle(req, path, body, res) {
      if (req.method === 'POST' && /^\/api\/shipments\/v\w+\/pickup\/oncall$/.test(path)) rate(body, res);
      else if (req.method === 'GET' && /^\/api\/shipments\/v\w+\/pickup\/oncall$/.test(path)) pending(res);
      else if (req.method === 'POST' && /^\/api\/pickupcreation\/v\w+\/pickup$/.test(path)) create(body, res);
      else if (req.method === 'DELETE' && /^\/api\/shipments\/v\w+\/pickup\/02$/.test(path)) cancel(req, res);
      else return false;
      return true;
    },
  };
}
