import { holdLocation, liveOptionsRefusal } from '../options.ts';
import {
  failure,
  ok,
  type AddressCheck,
  type BoxRef,
  type Carrier,
  type CarrierResult,
  type LabelRef,
  type PickupLookup,
  type PickupRef,
  type PickupRequest,
  type PurchasedLabel,
  type PurchaseRequest,
  type Quote,
  type RateRequest,
  type TrackedNumbers,
  type TrackedParcel,
  type TrackingListener,
  type TrackingResult,
  type TrackingSubscriptions,
  type VoidOutcome,
  type DeliveredParcel,
  type FoundLocation,
  type LocationQuery,
  type ProofOfDelivery,
  isDomestic,
  severalBoxesRefusal,
} from '../carrier.ts';
import { abroad } from '../abroad.ts';
import type { Customs } from '../../schemas/customs.ts';
import { carrierCatalog } from '../catalog.ts';
import type { Address } from '../../schemas/address.ts';
import type { LabelFormat } from '../../labels/label-data.ts';
import { BearerClient, guard, type GuardWords, type TokenEndpoint } from '../live/call.ts';
import { retryAfterMs, type CarrierRequest, type CarrierResponse } from '../live/http.ts';
import type { LiveCarrierOptions } from '../live/options.ts';
import { buildAddressRequest, parseAddressResponse } from './address.ts';
import { buildVoidRequest, parseVoidResponse } from './cancel.ts';
import { upsErrors, upsFailure } from './errors.ts';
import { buildRateRequest, parseRateResponse } from './rate.ts';
import { accessPointIdLength, buildAccessPointLookup, buildAccessPointSearch, parseAccessPointLookup, parseAccessPoints, unknownAccessPoint } from './locator.ts';
import { labelFileOf } from './label-file.ts';
import { buildLabelRecoveryRequest, parseLabelRecoveryResponse } from './recovery.ts';
import { buildRateRequestAbroad, buildShipRequestAbroad, parseInvoiceForm } from './international.ts';
import { buildShipRequest, parseShipResponse, type UpsShipment } from './ship.ts';
import { buildTokenRequest, parseTokenResponse } from './token.ts';
import { buildTrackRequest, notYetTracked, parseTrackResponse } from './track.ts';
import { transactionSrc, type UpsCall } from './wire.ts';
import {
  buildPendingStatusRequest,
  buildPickupCancelRequest,
  buildPickupCreationRequest,
  buildPickupRateRequest,
  parsePendingStatusResponse,
  parsePickupCancelResponse,
  parsePickupCreationResponse,
  parsePickupRateResponse,
  upsPickupFailure,
} from './pickup.ts';
import { buildSubscriptionRequest, parseSubscriptionResponse, upsSubscriptionBatch, upsSubscriptionDays } from './track-push.ts';
import { isResidential } from '../carrier.ts';

const words: GuardWords = { network: 'UPS', unexpected: 'UPS call failed unexpectedly' };

const info = carrierCatalog.find((c) => c.id === 'ups')!;

/** UPS's REST APIs (carriers.md 2): OAuth client credentials, one keep-alive pool, pure builders and parsers per call. */
export class UpsCarrier implements Carrier {
  readonly id = 'ups' as const;
  readonly name = info.name;
  readonly services = info.services;
  readonly usable = true;
  idempotentPurchase(): boolean {
    return false;
  }
  private readonly client: BearerClient;

  constructor(private readonly options: LiveCarrierOptions) {
    const token: TokenEndpoint = {
      request: buildTokenRequest(options.credentials),
      read: (res) => (res.status === 200 && res.json === undefined ? failure('carrier_error', 'UPS token answer is not JSON') : parseTokenResponse(res.status, res.json)),
    };
    this.client = new BearerClient('ups', options, token, { transactionSrc });
  }

  close(): Promise<void> {
    return this.client.close();
  }

  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const refused = liveOptionsRefusal(this, request, isDomestic(request), isResidential(request.to));
    if (refused) return Promise.resolve(refused);
    return guard(words, async () => {
      const boxes = this.severalBoxesRefusal(request);
      if (boxes) return boxes;
      const point = await this.accessPointAsked(request, signal);
      if (!point.ok) return point;
      const built = isDomestic(request) ? buildRateRequest(request, this.options.credentials.accountNumber, point.value) : this.abroad(request, (r) => buildRateRequestAbroad(r, this.options.credentials.accountNumber));
      if (!built.ok) return built;
      const res = await this.call('POST', built.value, true, signal);
      return this.answer(res, 'rate the shipment', (json) => parseRateResponse(json, request));
    });
  }

  purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const refused = liveOptionsRefusal(this, request, isDomestic(request), isResidential(request.to));
    if (refused) return Promise.resolve(refused);
    return guard<PurchasedLabel>(words, async () => {
      const boxes = this.severalBoxesRefusal(request);
      if (boxes) return boxes;
      const account = this.options.credentials.accountNumber;
      if (!account) return failure('credentials_missing', 'Set UPS_ACCOUNT_NUMBER to buy UPS labels: UPS bills them to the shipper number');
      const point = await this.accessPointAsked(request, signal);
      if (!point.ok) return point;
      const built = isDomestic(request) ? buildShipRequest(request, account, point.value) : this.abroad(request, (r) => buildShipRequestAbroad(r, account));
      if (!built.ok) return built;
      const res = await this.call('POST', built.value, false, signal);
      const shipped = this.answer(res, 'buy the label', (json) => parseShipResponse(json, request.parcels.length));
      if (!shipped.ok) return shipped;
      const s = shipped.value;
      const files = await this.labelFiles(s, request.labelFormat, signal);
      const first = s.packages[0]!;
      const documents = this.invoice(first.trackingNumber, res.json);
      const label = { carrierShipmentId: s.shipmentId, postageCents: s.postageCents, currency: s.currency, ...(files[0] ? { file: files[0] } : {}), ...(documents ? { documents } : {}) };
      if (s.packages.length === 1) return ok({ trackingNumber: first.trackingNumber, ...label });
      // A multi-piece shipment: UPS files the boxes under the shipment's number, which voids them all together.
      const packages = s.packages.map((p, i) => ({ trackingNumber: p.trackingNumber, ...(files[i] ? { file: files[i] } : {}) }));
      return ok({ trackingNumber: first.trackingNumber, masterTrackingNumber: s.shipmentId, packages, ...label });
    });
  }

  /**
   * The UPS Access Point a parcel held for pickup goes to (options.hold_location), looked up by its public id: the
   * request names only the id, and UPS wants the Access Point's name and address beside it. Undefined when no hold is
   * asked; abroad, liveOptionsRefusal has refused the hold already. Locator.yaml publishes no error codes (its Errors
   * page is a link), so a search by id that UPS refuses outright (400) is, like one that finds nothing, an id it does
   * not know.
   */
  private async accessPointAsked(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<FoundLocation | undefined>> {
    const asked = holdLocation(request.options);
    if (!asked || !isDomestic(request)) return ok(undefined);
    if (asked.id.length !== accessPointIdLength) return unknownAccessPoint(asked.id, `UPS Access Point ids are ${accessPointIdLength} characters`);
    const to = request.to;
    const res = await this.call('POST', buildAccessPointLookup(asked.id, { street: to.street1, city: to.city, state: to.state, zip: to.zip }), true, signal);
    if (res.status === 400) return unknownAccessPoint(asked.id, upsErrors(res.json).map((e) => e.message).join('; ') || undefined);
    return this.answer(res, `look up UPS Access Point ${asked.id}`, (json) => parseAccessPointLookup(json, asked.id));
  }

  /** Active UPS Access Points around the ZIP Code, nearest first (the Locator's Access Point search). */
  findLocations(query: LocationQuery, signal: AbortSignal): Promise<CarrierResult<FoundLocation[]>> {
    return guard(words, async () => {
      const built = buildAccessPointSearch(query);
      if (!built.ok) return built;
      const res = await this.call('POST', built.value, true, signal);
      return this.answer(res, 'search UPS Access Points', parseAccessPoints);
    });
  }

  /**
   * Several boxes are one multi-piece shipment, at home and abroad (one Package each, the customs and invoice the
   * shipment's); but UPS takes one package in a return from the US or Puerto Rico (Shipping.yaml: "US/PR origin return
   * movements are limited to only one package").
   */
  private severalBoxesRefusal(request: RateRequest): CarrierResult<never> | null {
    if (request.isReturn) return severalBoxesRefusal(this.name, request, 'UPS takes one package in a return from the US or Puerto Rico');
    return null;
  }

  /**
   * The commercial invoice UPS printed from InternationalForms, kept when it is the PDF asked for; the label is
   * bought by now, so an invoice in another format is only warned of (test mode's invoice is shipd's own drawing).
   */
  private invoice(trackingNumber: string, json: unknown): PurchasedLabel['documents'] {
    const form = parseInvoiceForm(json);
    if (!form) return undefined;
    if (form.bytes.subarray(0, 4).toString() === '%PDF') return [{ type: 'commercial_invoice', bytes: form.bytes }];
    this.warn(trackingNumber, `UPS's commercial invoice is not a PDF (${form.format}); print it from UPS's own tools`);
    return undefined;
  }

  /** A request abroad through its international builder, once it has what one needs. */
  private abroad<R extends RateRequest | PurchaseRequest>(request: R, build: (r: R & { customs: Customs }) => CarrierResult<UpsCall>): CarrierResult<UpsCall> {
    const r = abroad(request, this);
    return r.ok ? build(r.value) : r;
  }

  /**
   * Each box's label file, in the format its bytes really are: the domain decides what to do when that is not the
   * format asked. The labels are bought by now, so nothing here fails the purchase: when UPS's image cannot be used,
   * the box comes back without a file and shipd renders one from the shipment. A PDF is asked of Label Recovery box
   * by box, since the Shipping API prints none; unless every box's PDF comes back, every box keeps UPS's own image,
   * so that the boxes' files share one format and merge into one.
   */
  private async labelFiles(s: UpsShipment, format: LabelFormat, signal: AbortSignal): Promise<(PurchasedLabel['file'])[]> {
    const shipped = await Promise.all(
      s.packages.map(async (p) => {
        const file = await labelFileOf(p.label);
        if (!file) this.warn(p.trackingNumber, `UPS's label image is none of PDF, PNG, GIF or ZPL (${p.label.length} bytes)`);
        return file;
      }),
    );
    if (format !== 'pdf' || shipped.every((f) => f?.format === 'pdf')) return shipped;
    const recovered = await Promise.all(s.packages.map((p) => this.recoverPdf(p.trackingNumber, signal)));
    if (recovered.every((f) => f !== undefined)) return recovered;
    // UPS's own images in another format are still better than none; shipd renders the PDF itself when they are not one.
    return shipped;
  }

  /** One box's label as PDF from Label Recovery, or undefined (warned of) when UPS gives none. */
  private async recoverPdf(trackingNumber: string, signal: AbortSignal): Promise<PurchasedLabel['file']> {
    const recovered = await guard(words, async () => {
      const res = await this.call('POST', buildLabelRecoveryRequest(trackingNumber), true, signal);
      return this.answer(res, 'recover the label as PDF', (json) => parseLabelRecoveryResponse(json, trackingNumber));
    });
    const file = recovered.ok ? await labelFileOf(recovered.value) : undefined;
    if (!file) this.warn(trackingNumber, `UPS label recovery as PDF failed: ${recovered.ok ? 'the answer is no image shipd knows' : recovered.error.detail}`);
    return file;
  }

  private warn(trackingNumber: string, message: string): void {
    this.options.log?.warn({ carrier: 'ups', tracking_number: trackingNumber }, message);
  }

  /**
   * The whole shipment, by its number; once some of its packages were voided one by one, the packages left by theirs,
   * so that what UPS is asked to void is exactly what still ships, whichever package gave the shipment its number.
   */
  void(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    const left = label.boxesVoidedBefore ? label.boxes?.map((b) => b.trackingNumber) : undefined;
    return guard(words, async () => {
      const res = await this.call('DELETE', buildVoidRequest(label.carrierShipmentId || label.trackingNumber, left), false, signal);
      return this.answer(res, `void ${label.carrierShipmentId}`, parseVoidResponse);
    });
  }

  /**
   * One package of a multi-piece shipment, by its 1Z under the shipment's number; the others ship on. UPS sells no
   * return of several packages here, and Shipping.yaml says "Package level Void is not applicable for return service".
   */
  voidBox(label: LabelRef, box: BoxRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    return guard(words, async () => {
      const res = await this.call('DELETE', buildVoidRequest(label.carrierShipmentId || label.trackingNumber, [box.trackingNumber]), false, signal);
      return this.answer(res, `void ${box.trackingNumber} of ${label.carrierShipmentId}`, parseVoidResponse);
    });
  }

  track(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<TrackingResult>> {
    return guard(words, async () => {
      const res = await this.call('GET', buildTrackRequest(label.trackingNumber), true, signal);
      if (res.status === 404) {
        const said = upsErrors(res.json)[0]?.message;
        return ok(notYetTracked(said ?? 'Tracking Information Not Found'));
      }
      return this.answer(res, `track ${label.trackingNumber}`, parseTrackResponse);
    });
  }

  /** Tracking.yaml's GET /track/v1/details/{inquiryNumber} takes one number a call: no form of several exists. */
  readonly trackingBatchLimit = 1;

  trackNumbers(parcels: TrackedParcel[], signal: AbortSignal): Promise<CarrierResult<TrackedNumbers>> {
    return guard(words, async () => {
      const answers: TrackedNumbers = new Map();
      for (const { trackingNumber } of parcels) {
        const res = await this.call('GET', buildTrackRequest(trackingNumber), true, signal);
        if (res.status === 429 || res.status >= 500) {
          const wait = retryAfterMs(res.headers, this.options.clock.now());
          return { ok: false, error: { ...upsFailure(res.status, res.json, `track ${trackingNumber}`), ...(wait !== undefined && { retryAfterMs: wait }) } };
        }
        if (res.status === 404) answers.set(trackingNumber, ok(notYetTracked(upsErrors(res.json)[0]?.message ?? 'Tracking Information Not Found')));
        else answers.set(trackingNumber, this.answer(res, `track ${trackingNumber}`, parseTrackResponse));
      }
      return ok(answers);
    });
  }

  /**
   * The tracking answer asked with returnSignature and returnPOD (Tracking.yaml DeliveryInformation.signature.image
   * and pod.content, base64): a delivered parcel's proofs, none where UPS sends neither.
   */
  proofOfDelivery(parcel: DeliveredParcel, signal: AbortSignal): Promise<CarrierResult<ProofOfDelivery[]>> {
    return guard(words, async () => {
      const res = await this.call('GET', buildTrackRequest(parcel.trackingNumber, true), true, signal);
      const answer = this.answer(res, `ask the proofs of delivery of ${parcel.trackingNumber}`, parseTrackResponse);
      if (!answer.ok) return answer;
      return ok((answer.value.proofOfDelivery ?? []).filter((p) => p.content !== undefined));
    });
  }

  readonly trackingSubscriptionBatch = upsSubscriptionBatch;

  /** UPS Track Alert: up to 100 1Z numbers a call, each followed for 14 days. */
  subscribeTracking(trackingNumbers: string[], listener: TrackingListener, signal: AbortSignal): Promise<CarrierResult<TrackingSubscriptions>> {
    return guard(words, async () => {
      const res = await this.call('POST', buildSubscriptionRequest(trackingNumbers, { url: listener.url, credential: listener.secret }), true, signal);
      const answer = this.answer(res, 'subscribe to Track Alert', parseSubscriptionResponse);
      if (!answer.ok) return answer;
      const expiresAt = new Date(this.options.clock.now().getTime() + upsSubscriptionDays * 86_400_000);
      return ok({ subscribed: answer.value.subscribed.map((trackingNumber) => ({ trackingNumber, subscriptionId: null })), refused: answer.value.refused, expiresAt });
    });
  }

  validateAddress(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>> {
    return guard(words, async () => {
      const built = buildAddressRequest(address);
      if (!built.ok) return built;
      const res = await this.call('POST', built.value, true, signal);
      return this.answer(res, 'validate the address', (json) => parseAddressResponse(json, address));
    });
  }

  /** The on-call pickup's charge, by UPS's Pickup Rate: asked before booking, so the client is charged what UPS bills. */
  quotePickup(request: PickupRequest, signal: AbortSignal): Promise<CarrierResult<{ amountCents: number } | null>> {
    return guard(words, async () => {
      const res = await this.call('POST', buildPickupRateRequest(request, this.options.credentials.accountNumber), true, signal);
      return this.pickupAnswer(res, 'rate the pickup', parsePickupRateResponse);
    });
  }

  /**
   * Books an on-call pickup. Not retried by the client on its own: the domain decides a retry, after looking for the
   * booking by its reference (findPickup); UPS answers the same PRN to a second booking at the same address anyway.
   */
  schedulePickup(request: PickupRequest, signal: AbortSignal): Promise<CarrierResult<{ confirmationNumber: string }>> {
    return guard(words, async () => {
      const account = this.options.credentials.accountNumber;
      if (!account) return failure('credentials_missing', 'Set UPS_ACCOUNT_NUMBER to book UPS pickups: UPS bills them to the shipper number');
      const built = buildPickupCreationRequest(request, account);
      if (!built.ok) return built;
      const res = await this.call('POST', built.value, false, signal);
      return this.pickupAnswer(res, 'book the pickup', parsePickupCreationResponse);
    });
  }

  cancelPickup(pickup: PickupRef, signal: AbortSignal): Promise<CarrierResult<void>> {
    return guard(words, async () => {
      const res = await this.call('DELETE', buildPickupCancelRequest(pickup), false, signal);
      return this.pickupAnswer(res, `cancel pickup ${pickup.confirmationNumber}`, parsePickupCancelResponse);
    });
  }

  /** The account's pending on-call pickups, searched for our reference (UPS lists today's and tomorrow's). */
  findPickup(lookup: PickupLookup, signal: AbortSignal): Promise<CarrierResult<{ confirmationNumber: string } | null>> {
    return guard(words, async () => {
      const account = this.options.credentials.accountNumber;
      if (!account) return failure('credentials_missing', 'Set UPS_ACCOUNT_NUMBER to find UPS pickups: UPS files them under the shipper number');
      const res = await this.call('GET', buildPendingStatusRequest(account), true, signal);
      return this.pickupAnswer(res, 'list pending pickups', (json) => parsePendingStatusResponse(json, lookup));
    });
  }

  private pickupAnswer<T>(res: CarrierResponse, what: string, parse: (json: unknown) => CarrierResult<T>): CarrierResult<T> {
    if (res.status < 200 || res.status >= 300) return { ok: false, error: upsPickupFailure(res.status, res.json, what) };
    return this.answer(res, what, parse);
  }

  private call(method: CarrierRequest['method'], c: UpsCall, idempotent: boolean, signal: AbortSignal): Promise<CarrierResponse> {
    return this.client.send({ method, path: c.path, query: c.query, headers: c.headers, json: c.body, idempotent, signal });
  }

  /** Error statuses through the UPS envelope; a 2xx that is not JSON is UPS misbehaving, not the caller. */
  private answer<T>(res: CarrierResponse, what: string, parse: (json: unknown) => CarrierResult<T>): CarrierResult<T> {
    if (res.status < 200 || res.status >= 300) return { ok: false, error: upsFailure(res.status, res.json, what) };
    if (res.json === undefined) return failure('carrier_error', `UPS answered ${what} with something other than JSON (${res.body.length} bytes)`);
    return parse(res.json);
  }
}
