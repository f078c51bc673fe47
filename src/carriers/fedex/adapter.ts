import { liveOptionsRefusal } from '../options.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import {
  failure,
  ok,
  type AddressCheck,
  type BookedPickup,
  type Carrier,
  type CloseOutcome,
  type CloseRequest,
  type CarrierResult,
  type LabelRef,
  type PickupAvailability,
  type PickupRef,
  type PickupRequest,
  type PurchasedLabel,
  type PurchaseRequest,
  type Quote,
  type RateRequest,
  type TrackedNumbers,
  type TrackedParcel,
  type TrackingResult,
  type VoidOutcome,
  type DeliveredParcel,
  type FoundLocation,
  type LocationQuery,
  type ProofOfDelivery,
  isDomestic,
} from '../carrier.ts';
import { abroad } from '../abroad.ts';
import { buildRateRequestAbroad, buildShipRequestAbroad } from './international.ts';
import { carrierCatalog, type ServiceInfo } from '../catalog.ts';
import { BearerClient, CarrierRefusal, guard, type GuardWords } from '../live/call.ts';
import { retryAfterMs, type CarrierRequest, type CarrierResponse } from '../live/http.ts';
import type { IssuedToken } from '../live/oauth.ts';
import type { LiveCarrierOptions } from '../live/options.ts';
import { addressPath, buildAddressRequest, buildAddressRequestAbroad, parseAddressResponse } from './address.ts';
import { buildCancelRequest, cancelPath, fedexWholeShipmentVoids, parseCancelResponse } from './cancel.ts';
import { fedexFailure, isFedexError } from './errors.ts';
import { buildLocationsRequest, locationsPath, parseLocationsResponse } from './locations.ts';
import { buildRateRequest, parseRateResponse, ratePath } from './rate.ts';
import { buildShipRequest, parseShipResponse, shipPath } from './ship.ts';
import { buildTokenRequest, parseToken, tokenPath } from './token.ts';
import { declaredTotalRefusal } from './party.ts';
import { isResidential } from '../carrier.ts';
import { buildEndOfDayRequest, endOfDayPath, groundTrackingNumbers, parseEndOfDay } from './end-of-day.ts';
import {
  availabilityPath,
  buildAvailabilityRequest,
  buildCancelPickupRequest,
  buildPickupRequest,
  cancelPickupPath,
  parseAvailability,
  parsePickupResponse,
  pickupCarrierCode,
  pickupFailure,
  pickupPath,
} from './pickup.ts';
import { buildSpodRequest, parseSpodResponse, trackDocumentsPath } from './track-documents.ts';
import { buildTrackRequest, fedexTrackingBatchLimit, parseTrackResponse, parseTrackResponses, trackPath } from './track.ts';

const info = carrierCatalog.find((c) => c.id === 'fedex')!;

const words: GuardWords = { network: 'FedEx', unexpected: 'FedEx answer could not be read' };

function readToken(res: CarrierResponse): CarrierResult<IssuedToken> {
  if (isFedexError(res.status, res.json)) return { ok: false, error: fedexFailure(res.status, res.json) };
  const token = parseToken(res.json);
  return token ? ok(token) : failure('carrier_error', `FedEx answered the token request (HTTP ${res.status}) without an access_token`);
}

/** FedEx's REST APIs (carriers.md 4) behind the carrier-neutral interface. */
export class FedexCarrier implements Carrier {
  readonly id = 'fedex' as const;
  readonly name = info.name;
  readonly services: readonly ServiceInfo[] = info.services;
  readonly usable = true;
  idempotentPurchase(): boolean {
    return false;
  }
  readonly wholeShipmentVoids = fedexWholeShipmentVoids;
  private readonly client: BearerClient;

  constructor(private readonly options: LiveCarrierOptions) {
    const tokenRequest = { path: tokenPath, form: buildTokenRequest(options.credentials) };
    this.client = new BearerClient('fedex', options, { request: tokenRequest, read: readToken }, { 'x-locale': 'en_US' });
  }

  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const refused = liveOptionsRefusal(this, request, isDomestic(request), isResidential(request.to));
    if (refused) return Promise.resolve(refused);
    return guard(words, async () => {
      const declared = declaredTotalRefusal(request.parcels);
      if (declared) return declared;
      const body = isDomestic(request) ? ok(buildRateRequest(request, this.account())) : this.rateAbroad(request);
      if (!body.ok) return body;
      const res = await this.api({ method: 'POST', path: ratePath, json: body.value, idempotent: true, signal });
      return parseRateResponse(res.json, request, this.services);
    });
  }

  /** The rate request abroad, with the customs commodities FedEx rates by. */
  private rateAbroad(request: RateRequest): CarrierResult<Record<string, unknown>> {
    const r = abroad(request, this);
    return r.ok ? buildRateRequestAbroad(r.value, this.account()) : r;
  }

  /**
   * The ship request abroad. The commercial invoice goes to customs electronically (ETD), as the issue asks of live
   * mode where the carrier supports it; FedEx still returns it as a PDF for the parcel.
   */
  private shipAbroad(request: PurchaseRequest): CarrierResult<Record<string, unknown>> {
    const r = abroad(request, this);
    return r.ok ? buildShipRequestAbroad(r.value, this.account(), { electronicTradeDocuments: true }) : r;
  }

  purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const refused = liveOptionsRefusal(this, request, isDomestic(request), isResidential(request.to));
    if (refused) return Promise.resolve(refused);
    return guard(words, async () => {
      if (!this.services.some((s) => s.code === request.service)) return failure('service_unavailable', `FedEx has no service ${request.service} in shipd`);
      const body = isDomestic(request) ? buildShipRequest(request, this.account()) : this.shipAbroad(request);
      if (!body.ok) return body;
      // Not retried: a second send could buy a second label. The key is echoed back, tying FedEx's logs to ours.
      const res = await this.api({
        method: 'POST',
        path: shipPath,
        json: body.value,
        headers: { 'x-customer-transaction-id': request.idempotencyKey },
        idempotent: false,
        signal,
      });
      return parseShipResponse(res.json, request);
    });
  }

  void(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    return guard(words, async () => {
      // Not retried: a resent cancel after a lost answer would read "already cancelled" for a cancel that worked.
      const res = await this.client.send({ method: 'PUT', path: cancelPath, json: buildCancelRequest(label, this.account()), idempotent: false, signal });
      if (res.json === undefined) return failure('carrier_error', `FedEx answered the cancel request with HTTP ${res.status} and no JSON`);
      return parseCancelResponse(res.status, res.json, label);
    });
  }

  track(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<TrackingResult>> {
    return guard(words, async () => {
      const res = await this.api({ method: 'POST', path: trackPath, json: buildTrackRequest(label.trackingNumber), idempotent: true, signal });
      return parseTrackResponse(res.json, label.trackingNumber);
    });
  }

  readonly trackingBatchLimit = fedexTrackingBatchLimit;

  trackNumbers(parcels: TrackedParcel[], signal: AbortSignal): Promise<CarrierResult<TrackedNumbers>> {
    return guard(words, async () => {
      const numbers = parcels.map((p) => p.trackingNumber);
      const res = await this.client.send({ method: 'POST', path: trackPath, json: buildTrackRequest(numbers), idempotent: true, signal });
      if (isFedexError(res.status, res.json)) {
        const wait = retryAfterMs(res.headers, this.options.clock.now());
        return { ok: false, error: { ...fedexFailure(res.status, res.json), ...(wait !== undefined && { retryAfterMs: wait }) } };
      }
      if (res.json === undefined) return failure('carrier_error', `FedEx answered ${trackPath} with HTTP ${res.status} and a body that is not JSON`);
      return parseTrackResponses(res.json, numbers);
    });
  }

  /** The SPOD letter, from FedEx's tracking documents call; the tracking answer says only whether FedEx holds one. */
  proofOfDelivery(parcel: DeliveredParcel, signal: AbortSignal): Promise<CarrierResult<ProofOfDelivery[]>> {
    return guard(words, async () => {
      const res = await this.api({ method: 'POST', path: trackDocumentsPath, json: buildSpodRequest(parcel.trackingNumber), idempotent: true, signal });
      return parseSpodResponse(res.json);
    });
  }

  validateAddress(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>> {
    return guard(words, async () => {
      const body = buildAddressRequest(address);
      if (!body.ok) return body;
      const res = await this.api({ method: 'POST', path: addressPath, json: body.value, idempotent: true, signal });
      return parseAddressResponse(res.json, address);
    });
  }

  validateAddressAbroad(address: AnyAddress, signal: AbortSignal): Promise<CarrierResult<AddressCheck<AnyAddress>>> {
    return guard(words, async () => {
      const body = buildAddressRequestAbroad(address);
      if (!body.ok) return body;
      const res = await this.api({ method: 'POST', path: addressPath, json: body.value, idempotent: true, signal });
      return parseAddressResponse(res.json, address);
    });
  }

  /**
   * The Ground End of Day Close for the labels' day, where any of them is Ground (end-of-day.ts); FedEx closes the
   * account's Ground shipments of that date together. A 400 is FedEx refusing the close (a date it will not close,
   * nothing left to close): manifest_rejected, in its words.
   */
  closeDay(request: CloseRequest, signal: AbortSignal): Promise<CarrierResult<CloseOutcome>> {
    return guard(words, async () => {
      const ground = groundTrackingNumbers(request);
      if (ground.length === 0) return ok({ required: false });
      // Not resent: FedEx has closed the day after a lost answer, and a second close would find nothing to close.
      const res = await this.client.send({ method: 'PUT', path: endOfDayPath, json: buildEndOfDayRequest(this.account(), request.shipDate), idempotent: false, signal });
      if (res.status === 400) {
        const refused = fedexFailure(res.status, res.json);
        return failure('manifest_rejected', `FedEx refused the Ground close of ${request.shipDate}: ${refused.detail.replace(/^FedEx: /, '')}`);
      }
      if (isFedexError(res.status, res.json)) return { ok: false, error: fedexFailure(res.status, res.json) };
      return parseEndOfDay(res.json, ground);
    });
  }

  /** Find Locations (locations.ts): the FedEx locations near the ZIP Code that hold parcels (Hold at Location). */
  findLocations(query: LocationQuery, signal: AbortSignal): Promise<CarrierResult<FoundLocation[]>> {
    return guard(words, async () => {
      const res = await this.api({ method: 'POST', path: locationsPath, json: buildLocationsRequest(query), idempotent: true, signal });
      return parseLocationsResponse(res.json, query.limit);
    });
  }

  /** Check Pickup Availability (pickup.ts): whether a FedEx driver, Express or Ground, can come there that day. */
  pickupAvailability(query: { address: Address; date: string }, signal: AbortSignal): Promise<CarrierResult<PickupAvailability>> {
    return guard(words, async () => {
      const body = buildAvailabilityRequest(query.address, query.date, this.account());
      if (!body.ok) return body;
      const res = await this.pickupCall(availabilityPath, 'POST', body.value, true, signal);
      return parseAvailability(res.json, query.date);
    });
  }

  /**
   * Create Pickup with the company the labels need (pickup.ts). Not resent: a second request after a lost answer
   * could send a second driver. The reference goes as x-customer-transaction-id, the request's only client
   * reference, so FedEx's logs name our pickup; FedEx publishes no call to find a pickup by it.
   */
  schedulePickup(request: PickupRequest, signal: AbortSignal): Promise<CarrierResult<BookedPickup>> {
    return guard(words, async () => {
      const carrierCode = pickupCarrierCode(request.services ?? []);
      if (!carrierCode.ok) return carrierCode;
      const body = buildPickupRequest(request, this.account(), carrierCode.value);
      if (!body.ok) return body;
      const res = await this.pickupCall(pickupPath, 'POST', body.value, false, signal, request.reference);
      return parsePickupResponse(res.json, carrierCode.value);
    });
  }

  /** Cancel Pickup, with the company and Express location kept from the booking. Not resent, as a void is not. */
  cancelPickup(pickup: PickupRef, signal: AbortSignal): Promise<CarrierResult<void>> {
    return guard(words, async () => {
      await this.pickupCall(cancelPickupPath, 'PUT', buildCancelPickupRequest(pickup, this.account()), false, signal);
      return ok(undefined);
    });
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private account(): string {
    const account = this.options.credentials.accountNumber;
    if (!account) throw new CarrierRefusal({ code: 'credentials_missing', detail: 'Set FEDEX_ACCOUNT_NUMBER to rate, ship and cancel with FedEx' });
    return account;
  }

  /** A Pickup API call, its refusals read with the pickup codes FedEx publishes (pickupFailure). */
  private async pickupCall(path: string, method: 'POST' | 'PUT', json: Record<string, unknown>, idempotent: boolean, signal: AbortSignal, reference?: string): Promise<CarrierResponse> {
    const res = await this.client.send({ method, path, json, idempotent, signal, ...(reference && { headers: { 'x-customer-transaction-id': reference } }) });
    if (isFedexError(res.status, res.json)) throw new CarrierRefusal(pickupFailure(res.status, res.json));
    if (res.json === undefined) throw new CarrierRefusal({ code: 'carrier_error', detail: `FedEx answered ${path} with HTTP ${res.status} and a body that is not JSON` });
    return res;
  }

  /** A call with error answers and bodies that are not JSON turned into refusals. */
  private async api(req: CarrierRequest): Promise<CarrierResponse> {
    const res = await this.client.send(req);
    if (isFedexError(res.status, res.json)) throw new CarrierRefusal(fedexFailure(res.status, res.json));
    if (res.json === undefined) throw new CarrierRefusal({ code: 'carrier_error', detail: `FedEx answered ${req.path} with HTTP ${res.status} and a body that is not JSON` });
    return res;
  }

}
