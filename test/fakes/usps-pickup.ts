import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import { compileContracts } from '../contracts/check.ts';
import {
  eligibilityQueryFaults,
  PickupChangeHeaders,
  PickupEligibilityQuery,
  pickupLocationFaults,
  SchedulePickupRequest,
} from '../contracts/usps/carrier-pickup.ts';
import { wallClock } from '../../src/carriers/time-zones.ts';
import { sendJson } from './server.ts';

// The fake USPS's Carrier Pickup API (carrier-pickup.yaml 3.1.8): eligibility, schedule, read and cancel, each held
// against the contracts of test/contracts/usps/carrier-pickup.ts, then against the rules the spec states in words:
// pickups Monday to Saturday, booked until 2:00 AM Central on the day, up to one year ahead; an address not
// eligible is refused; a cancel needs the ETag of the pickup's last read as If-Match, and a cancelled pickup can no
// longer be changed. The spec publishes no error codes or wording for these refusals, so each is a 400 in the USPS
// envelope naming the parameter at fault, in the fake's own words; its confirmation numbers' format is the fake's own
// too, as the spec gives no example.

export interface BookedPickup {
  confirmationNumber: string;
  request: Record<string, unknown>;
  cancelled: boolean;
  etag: string;
}

export interface PickupFake {
  /** Every pickup booked, by confirmation number. */
  pickups: Map<string, BookedPickup>;
  /** ZIP Codes where carrier pickup is not offered: eligibility says so and a booking there is refused. */
  ineligibleZips: Set<string>;
  /**
   * Book, then never answer (the connection hangs until the fake closes): the answer lost between USPS's booking and
   * shipd's commit, as a time-out or a crash loses it.
   */
  holdAnswers: boolean;
}

type Refused = (res: ServerResponse, api: string, checks: [TSchema, unknown][], rules?: () => string[]) => boolean;
type Bad = (res: ServerResponse, api: string, code: string, detail: string, parameter: string) => void;

const api = '/pickup/v3';
const dayMs = 86_400_000;
const get = (v: unknown, key: string): unknown => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined);

/** Today's date and hour in Central time: the booking cut-off is 2:00 AM there on the pickup's day. */
function central(now: Date): { date: string; hour: number } {
  const w = wallClock('America/Chicago', now);
  return { date: `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`, hour: w.hour };
}

function dateFault(date: string, now: Date): string | null {
  if (new Date(`${date}T00:00:00Z`).getUTCDay() === 0) return `Carrier Pickup is not available on Sunday ${date}; pickups are Monday - Saturday.`;
  const ct = central(now);
  if (date < ct.date || (date === ct.date && ct.hour >= 2)) return `Pickups for ${date} can no longer be scheduled: same-day pickup is available until 2:00 AM CT.`;
  if (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${ct.date}T00:00:00Z`) > 366 * dayMs) return `Pickups can be scheduled up to one year in advance; ${date} is too far out.`;
  return null;
}

const newEtag = () => `"${randomBytes(20).toString('hex')}"`;

export function pickupRoutes(refused: Refused, bad: Bad) {
  compileContracts([SchedulePickupRequest, PickupEligibilityQuery, PickupChangeHeaders]);
  const state: PickupFake = { pickups: new Map(), ineligibleZips: new Set(), holdAnswers: false };
  let issued = 0;

  const notEligible = (zip: string) => `The address in ZIP Code ${zip} is not eligible for Carrier Pickup.`;

  function eligibility(res: ServerResponse, q: URLSearchParams): void {
    const query = Object.fromEntries(q);
    if (refused(res, api, [[PickupEligibilityQuery, query]], () => eligibilityQueryFaults(query))) return;
    if (query.ZIPCode && state.ineligibleZips.has(query.ZIPCode)) return bad(res, api, '400', notEligible(query.ZIPCode), 'ZIPCode');
    const { streetAddress, secondaryAddress, city, state: st, ZIPCode, ZIPPlus4 } = query;
    const address = Object.fromEntries(Object.entries({ streetAddress, secondaryAddress, city, state: st, ZIPCode, ZIPPlus4 }).filter(([, v]) => v).map(([k, v]) => [k, v!.toUpperCase()]));
    sendJson(res, 200, { address });
  }

  function schedule(res: ServerResponse, body: unknown): void {
    if (refused(res, api, [[SchedulePickupRequest, body]], () => pickupLocationFaults(body))) return;
    const date = String(get(body, 'pickupDate'));
    const fault = dateFault(date, new Date());
    if (fault) return bad(res, api, '400', fault, 'pickupDate');
    const zip = String(get(get(get(body, 'pickupAddress'), 'address'), 'ZIPCode'));
    if (state.ineligibleZips.has(zip)) return bad(res, api, '400', notEligible(zip), 'pickupAddress.address.ZIPCode');
    const confirmationNumber = `WTC${String(++issued).padStart(9, '0')}`;
    const booked: BookedPickup = { confirmationNumber, request: body as Record<string, unknown>, cancelled: false, etag: newEtag() };
    state.pickups.set(confirmationNumber, booked);
    if (state.holdAnswers) return;
    sendJson(res, 200, { confirmationNumber, pickupDate: date, carrierPickupRequest: body }, { etag: booked.etag });
  }

  /** A pickup the fake booked and that stands; refused as USPS would otherwise. */
  function standing(res: ServerResponse, confirmationNumber: string): BookedPickup | undefined {
    const p = state.pickups.get(confirmationNumber);
    if (!p) return void bad(res, api, '400', `No carrier pickup was found for confirmation number ${confirmationNumber}.`, 'confirmationNumber');
    if (p.cancelled) return void bad(res, api, '400', `Carrier pickup ${confirmationNumber} has been cancelled and can no longer be updated or cancelled.`, 'confirmationNumber');
    return p;
  }

  function read(res: ServerResponse, confirmationNumber: string): void {
    const p = standing(res, confirmationNumber);
    if (!p) return;
    // Each read hands out a fresh ETag, good until used, as the spec's ETag header says.
    p.etag = newEtag();
    sendJson(res, 200, [{ confirmationNumber, pickupDate: p.request.pickupDate, carrierPickupRequest: p.request }], { etag: p.etag });
  }

  function cancel(res: ServerResponse, headers: IncomingHttpHeaders, confirmationNumber: string): void {
    if (refused(res, api, [[PickupChangeHeaders, headers]])) return;
    const p = standing(res, confirmationNumber);
    if (!p) return;
    if (headers['if-match'] !== p.etag) return bad(res, api, '400', 'The If-Match value is not the current ETag of this pickup; get the pickup again.', 'If-Match');
    p.cancelled = true;
    p.etag = newEtag();
    res.writeHead(200);
    res.end();
  }

  /** Answers the request when it is one of this API's; false otherwise. */
  function handle(method: string, url: URL, headers: IncomingHttpHeaders, res: ServerResponse, body: unknown): boolean {
    if (!url.pathname.startsWith(`${api}/carrier-pickup`)) return false;
    const path = url.pathname.slice(`${api}/carrier-pickup`.length);
    if (method === 'GET' && path === '/eligibility') eligibility(res, url.searchParams);
    else if (method === 'POST' && path === '') schedule(res, body);
    else if (/^\/[^/]+$/.test(path) && method === 'GET') read(res, decodeURIComponent(path.slice(1)));
    else if (/^\/[^/]+$/.test(path) && method === 'DELETE') cancel(res, headers, decodeURIComponent(path.slice(1)));
    else return false;
    return true;
  }

  return { state, handle };
}
