import { isResidential } from '../carrier.ts';
import { askName, liveOptionsRefusal, optionAsks } from '../options.ts';
import type { Address } from '../../schemas/address.ts';
import {
  failure,
  ok,
  type AddressCheck,
  type BoxRef,
  type CarrierForm,
  type CloseOutcome,
  type CloseRequest,
  type Carrier,
  type CarrierResult,
  type DomesticPurchaseRequest,
  type DomesticRateRequest,
  type FoundLocation,
  type LabelRef,
  type LocationQuery,
  type PickupAvailability,
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
  type TrackingStatus,
  type VoidOutcome,
  type VoidedBox,
  isDomestic,
} from '../carrier.ts';
import { buyBoxByBox } from '../box-by-box.ts';
import { domesticServices } from '../catalog.ts';
import { distinctBoxes, rateSearchesAtOnce, shipmentQuotes } from './boxes.ts';
import { limit, type Limit } from '../../kernel/limit.ts';
import { uspsExtras } from './extra-services.ts';
import { returnClassOf } from './mail-classes.ts';
import { abroad, boxDeclarations } from '../abroad.ts';
import { buildInternationalLabelRequest, buildInternationalRatesRequest, internationalLabelPath, internationalRatesPathOf, parseInternationalLabel, parseInternationalRates } from './international.ts';
import { uspsInsuranceAbroadRefusal } from './insurance.ts';
import { carrierCatalog } from '../catalog.ts';
import { BearerClient, CarrierRefusal, guard, type GuardWords } from '../live/call.ts';
import { retryAfterMs, type CarrierResponse } from '../live/http.ts';
import { TokenCache, type IssuedToken } from '../live/oauth.ts';
import type { LiveCarrierOptions } from '../live/options.ts';
import { addressPath, buildAddressQuery, parseAddress, parseAddressNotFound } from './address.ts';
import { cancelPath, parseCancel, parseCancelError } from './cancel.ts';
import { describeProblem, readProblem, uspsFailure } from './errors.ts';
import { buildPaymentRequest, parsePayment, paymentParties, paymentPath, type PaymentParties } from './payment.ts';
import { buildRateRequest, parseCommitments, parseRates, ratePath } from './rate.ts';
import { buildLabelRequest, buildReturnLabelRequest, labelHeaders, labelPath, parseLabel, returnLabelPath } from './ship.ts';
import { buildTokenRequest, parseToken, tokenPath } from './token.ts';
import { holdRefusal } from './hold.ts';
import { buildLocationsQuery, locationsPath, parseLocations } from './locations.ts';
import { buildEligibilityQuery, buildPickupRequest, parseEligibility, pickupCancelRefusal, parsePickupConfirmation, pickupDateRefusal, pickupEligibilityPath, pickupEtag, pickupOfPath, pickupPath, pickupRefusal } from './pickup.ts';
import { buildScanFormRequest, parseScanForm, scanFormAccept, scanFormBatches, scanFormPath } from './scan-form.ts';
import { buildTrackBatchRequest, parseTracking, parseTrackingBatch, parseTrackingNotFound, trackBatchPath, trackPath, trackQuery, uspsTrackingBatchLimit } from './track.ts';
import { buildSubscriptionRequest, parseSubscriptionResponse, uspsSubscriptionPath } from './track-push.ts';

const info = carrierCatalog.find((c) => c.id === 'usps')!;

/** A parcel abroad insured above what USPS insures any parcel abroad for (insurance.ts) is refused before it is asked. */
function aboveLimitAbroad(request: RateRequest): CarrierResult<never> | undefined {
  const refused = uspsInsuranceAbroadRefusal(request.parcels);
  return refused === undefined ? undefined : failure('insurance_above_limit', refused);
}

const words = (what: string): GuardWords => ({ network: `USPS ${what}`, unexpected: `USPS ${what} failed` });

/** Statuses of a box USPS has not taken in yet, so it can still be cancelled. */
const unscanned: ReadonlySet<TrackingStatus> = new Set(['unknown', 'pre_transit', 'cancelled']);

/** Whether the parcel goes to a home, as every carrier reads an address: stated, else one without a company. */

/** USPS's v3 REST APIs (carriers.md 3): OAuth client credentials, plus a payment authorization for labels. */
export class UspsCarrier implements Carrier {
  readonly id = 'usps' as const;
  readonly name = info.name;
  readonly services = info.services;
  readonly usable = true;
  /** The international-labels API defines no idempotency key: a lost international purchase must not be asked again. */
  idempotentPurchase(request: PurchaseRequest): boolean {
    return isDomestic(request);
  }
  private readonly client: BearerClient;
  /** The payment authorization token is good for eight hours and is not to be asked for per label (carriers.md 3.3). */
  private readonly payments: TokenCache;
  /** Who pays for and owns the labels, or why buying and cancelling cannot be done with these credentials. */
  private readonly parties: CarrierResult<PaymentParties>;

  private readonly clock: LiveCarrierOptions['clock'];

  constructor(options: LiveCarrierOptions) {
    this.clock = options.clock;
    const tokenRequest = { path: tokenPath, form: buildTokenRequest(options.credentials) };
    this.client = new BearerClient('usps', options, { request: tokenRequest, read: (res) => parseToken(res.status, res.json) });
    this.parties = paymentParties(options.credentials);
    this.payments = new TokenCache((signal) => this.fetchPaymentToken(signal), options.clock);
  }

  close(): Promise<void> {
    return this.client.close();
  }

  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    // A hold USPS would refuse on the label is refused at the quote, so no rate is given that cannot be bought.
    const refused = liveOptionsRefusal(this, request, isDomestic(request), isResidential(request.to)) ?? (isDomestic(request) ? holdRefusal(request) : null);
    if (refused) return Promise.resolve(refused);
    return guard(words('rate search'), async () => {
      if (!isDomestic(request)) {
        return aboveLimitAbroad(request) ?? this.rateBoxesAbroad(request, signal);
      }
      // Each box is priced on its own (boxes.ts); boxes alike are asked about once, and only so many at a time.
      const { boxes, indexOf } = distinctBoxes(request.parcels);
      const searches = limit(rateSearchesAtOnce);
      const answers = await Promise.all(boxes.map((parcel) => this.rateBox({ ...request, parcels: [parcel] }, searches, signal)));
      const n = request.parcels.length;
      for (const [i, answer] of answers.entries()) {
        if (!answer.ok) return n === 1 ? answer : { ok: false, error: { code: answer.error.code, detail: `box ${indexOf.indexOf(i) + 1} of ${n}: ${answer.error.detail}` } };
      }
      const quotes = shipmentQuotes(indexOf.map((i) => (answers[i] as { value: Quote[] }).value));
      return quotes.length > 0 ? ok(quotes) : failure('service_unavailable', `USPS offered no service that takes every one of these ${n} boxes`);
    });
  }

  /**
   * One box's quotes. Without options, one search for every class; with them, one search per service that does
   * them, each asking its own extra service codes (rate.ts buildRateRequest).
   */
  private async rateBox(request: DomesticRateRequest, searches: Limit, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const returns = request.isReturn === true;
    const search = (outbound: boolean, service?: string) =>
      searches(signal, () => this.client.send({ method: 'POST', path: ratePath, json: buildRateRequest(request, !outbound, service), idempotent: true, signal }));
    let classes: (string | undefined)[] = [undefined];
    if (optionAsks(request.options).length > 0) {
      classes = domesticServices('usps')
        .map((s) => s.code)
        .filter((code) => (!request.services || request.services.includes(code)) && uspsExtras(code, request.options) !== undefined && (!returns || returnClassOf(code) !== undefined));
      if (classes.length === 0) return failure('option_not_supported', `No USPS service asked does ${optionAsks(request.options).map(askName).join(', ')}`);
    }
    const answers = await Promise.all(classes.map((service) => search(!returns, service)));
    // USPS gives return classes no delivery commitment: a return quote takes the outbound class's (parseCommitments).
    let commitments = new Map<string, unknown>();
    if (returns) {
      const outbound = this.answer(await search(true), 'the delivery commitments of the return route', (json) => ok(parseCommitments(json)));
      if (!outbound.ok) return outbound;
      commitments = outbound.value;
    }
    const what = returns ? 'the return rate search' : 'the rate search';
    const found = answers.map((res, i) => {
      const service = classes[i];
      return this.answer(res, what, (json) => parseRates(json, service === undefined ? request : { ...request, services: [service] }, commitments));
    });
    // Searched service by service, a class USPS does not offer here is left out rather than failing the others.
    const quotes = found.flatMap((f) => (f.ok ? f.value : []));
    return quotes.length > 0 ? ok(quotes) : found[0]!;
  }

  purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const refused = liveOptionsRefusal(this, request, isDomestic(request), isResidential(request.to)) ?? (isDomestic(request) ? holdRefusal(request) : null);
    if (refused) return Promise.resolve(refused);
    return guard(words('label purchase'), async () => {
      if (!isDomestic(request)) {
        return aboveLimitAbroad(request) ?? this.purchaseBoxesAbroad(request, signal);
      }
      if (request.parcels.length === 1) return this.buyBox(request, signal);
      // A label per box, each under its own X-Idempotency-Key (boxKey), so a purchase asked again gets back the boxes
      // USPS sold already; a box USPS refuses voids those bought before it.
      return buyBoxByBox(
        request,
        (box) => guard(words('label purchase'), () => this.buyBox({ ...request, parcels: [box.parcel], idempotencyKey: box.idempotencyKey, quotedCents: box.quotedCents }, signal)),
        (label, s) => guard(words('cancel'), () => this.cancel(label.trackingNumber, s)),
        signal,
      );
    });
  }

  /** One label, for the first parcel of the request. */
  private async buyBox(request: DomesticPurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const body = request.isReturn ? buildReturnLabelRequest(request) : ok(buildLabelRequest(request));
    if (!body.ok) return body;
    const payment = await this.paymentToken(signal);
    if (!payment.ok) return payment;
    const res = await this.client.send({
      method: 'POST',
      path: request.isReturn ? returnLabelPath : labelPath,
      headers: labelHeaders(payment.value, request.idempotencyKey),
      json: body.value,
      // USPS answers a repeated X-Idempotency-Key with the label it already sold, so a resend cannot buy twice.
      idempotent: true,
      signal,
    });
    return this.answer(res, request.isReturn ? 'the return label purchase' : 'the label purchase', parseLabel);
  }

  /**
   * Several boxes abroad are a label each (international-labels.yaml sells one package per label), so each box is
   * priced on its own, boxes alike asked about once, and a quote is the boxes' sum, as at home (boxes.ts). A
   * declaration USPS cannot split into a customs form per box is refused before it is asked.
   */
  private async rateBoxesAbroad(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const n = request.parcels.length;
    if (n === 1) return this.rateAbroad(request, signal);
    const split = request.customs ? boxDeclarations(request.customs, n, this.name) : undefined;
    if (split && !split.ok) return split;
    const { boxes, indexOf } = distinctBoxes(request.parcels);
    const answers = await Promise.all(boxes.map((parcel) => this.rateAbroad({ ...request, parcels: [parcel] }, signal)));
    for (const [i, answer] of answers.entries()) {
      if (!answer.ok) return { ok: false, error: { code: answer.error.code, detail: `box ${indexOf.indexOf(i) + 1} of ${n}: ${answer.error.detail}` } };
    }
    const quotes = shipmentQuotes(indexOf.map((i) => (answers[i] as { value: Quote[] }).value));
    return quotes.length > 0 ? ok(quotes) : failure('service_unavailable', `USPS offered no service abroad that takes every one of these ${n} boxes`);
  }

  /**
   * A label per box abroad, bought together as at home (box-by-box.ts), each with the customs form of what its box
   * holds (the declaration's lines that name it). The international labels take no idempotency key, so a box whose
   * answer is lost is not asked again: the purchase is left for the reconcile job to decide, as one box's is.
   */
  private async purchaseBoxesAbroad(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const n = request.parcels.length;
    if (n === 1) return this.purchaseAbroad(request, signal);
    const split = request.customs ? boxDeclarations(request.customs, n, this.name) : undefined;
    if (split && !split.ok) return split;
    return buyBoxByBox(
      request,
      (box, index) =>
        guard(words('label purchase'), () =>
          this.purchaseAbroad({ ...request, parcels: [box.parcel], ...(split && { customs: split.value[index]! }), idempotencyKey: box.idempotencyKey, quotedCents: box.quotedCents }, signal),
        ),
      (label, s) => guard(words('cancel'), () => this.cancel(label.trackingNumber, s)),
      signal,
    );
  }

  /** The international price lists, the account's and the retail one, for every mail class abroad. */
  private async rateAbroad(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const r = abroad(request, this);
    if (!r.ok) return r;
    const path = internationalRatesPathOf(r.value);
    const search = (priceType: 'RETAIL' | 'COMMERCIAL') => this.client.send({ method: 'POST', path, json: buildInternationalRatesRequest(r.value, priceType), idempotent: true, signal });
    const [commercial, retail] = await Promise.all([search('COMMERCIAL'), search('RETAIL')]);
    const listed = this.answer(retail, 'the international retail prices', (json) => ok(json));
    if (!listed.ok) return listed;
    return this.answer(commercial, 'the international prices', (json) => parseInternationalRates(json, listed.value, r.value));
  }

  /**
   * A label abroad (international-labels.yaml): the customs form goes in the label request. That API defines no
   * X-Idempotency-Key, so the purchase is never resent: a second request could sell a second label.
   */
  private async purchaseAbroad(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const r = abroad(request, this);
    if (!r.ok) return r;
    const body = buildInternationalLabelRequest(r.value);
    if (!body.ok) return body;
    const payment = await this.paymentToken(signal);
    if (!payment.ok) return payment;
    const res = await this.client.send({ method: 'POST', path: internationalLabelPath, headers: labelHeaders(payment.value, request.idempotencyKey), json: body.value, idempotent: false, signal });
    const insured = request.parcels[0]!.insuredCents !== undefined ? { quotedCents: request.quotedCents } : undefined;
    return this.answer(res, 'the international label purchase', (json) => parseInternationalLabel(json, insured));
  }

  /**
   * Each box is its own label. The boxes left are what a void is given once some were voided one by one (LabelRef),
   * so a last box left is cancelled by its own number, not by the first box's.
   */
  void(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    const boxes = label.boxes;
    return guard(words('cancel'), () => (boxes && boxes.length > 1 ? this.voidBoxes(label, boxes, signal) : this.cancel(boxes?.[0]?.trackingNumber ?? label.trackingNumber, signal)));
  }

  /** One box's own label, once its tracking shows USPS has not taken it in, as a void of every box checks each. */
  voidBox(label: LabelRef, box: BoxRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    return guard(words('cancel'), async () => {
      const n = label.boxes?.length ?? 1;
      const i = label.boxes?.findIndex((b) => b.trackingNumber === box.trackingNumber) ?? 0;
      const refused = await this.scannedRefusal(label, box, `box ${i + 1} of ${n}`, 'it was not voided', signal);
      return refused ?? this.cancel(box.trackingNumber, signal);
    });
  }

  /**
   * Every box's label cancelled, or none where it can be seen before: USPS cancels label by label and refuses a
   * scanned one, so each box's tracking is read first and a box in USPS's hands keeps the whole shipment. A cancel
   * refused after others were made (a scan tracking did not show yet) stops there, the boxes cancelled going back with
   * the failure, for shipd to record. A box cancelled by an earlier void that stopped halfway counts as done.
   */
  private async voidBoxes(label: LabelRef, boxes: NonNullable<LabelRef['boxes']>, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    const n = boxes.length;
    const seen = await Promise.all(boxes.map((b, i) => this.scannedRefusal(label, b, `box ${i + 1} of ${n}`, `none of the ${n} was voided`, signal)));
    const refused = seen.find((r) => r !== null);
    if (refused) return refused;
    const cancelled: VoidedBox[] = [];
    let before = 0;
    for (const [i, b] of boxes.entries()) {
      const one = await guard(words('cancel'), () => this.cancel(b.trackingNumber, signal));
      if (one.ok || one.error.code === 'already_voided') {
        if (!one.ok) before += 1;
        cancelled.push({ trackingNumber: b.trackingNumber, outcome: one.ok ? one.value : 'refunded' });
        continue;
      }
      const also = cancelled.length > 0 ? `; ${cancelled.map((c) => c.trackingNumber).join(', ')} before it were cancelled` : '';
      return { ok: false, error: { code: one.error.code, detail: `box ${i + 1} of ${n}: ${one.error.detail}${also}`, ...(cancelled.length > 0 && { voided: cancelled }) } };
    }
    if (before === n) return failure('already_voided', `USPS had cancelled all ${n} boxes already`);
    return ok(cancelled.some((c) => c.outcome === 'refund_pending') ? 'refund_pending' : 'refunded');
  }

  /**
   * Why the box cannot be voided, from its tracking: USPS has scanned it (a refund asked for it then would be
   * reviewed, and shipd refunds on asking), or its tracking could not be read; null while it is only a label.
   */
  private async scannedRefusal(label: LabelRef, box: BoxRef, which: string, so: string, signal: AbortSignal): Promise<CarrierResult<never> | null> {
    const tn = box.trackingNumber;
    const t = await this.track({ ...label, trackingNumber: tn, carrierShipmentId: box.carrierShipmentId }, signal);
    if (!t.ok) return { ok: false, error: { code: t.error.code, detail: `${which} (${tn}) could not be checked before voiding, so ${so}: ${t.error.detail}` } };
    if (unscanned.has(t.value.status)) return null;
    return failure('label_in_transit', `USPS has scanned ${which} (${tn}: ${t.value.statusDetail || t.value.status}); a box in USPS's hands cannot be voided, so ${so}`);
  }

  /** One label's cancel (carriers.md 3.4). */
  private async cancel(trackingNumber: string, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    const payment = await this.paymentToken(signal);
    if (!payment.ok) return payment;
    const res = await this.client.send({
      method: 'DELETE',
      path: cancelPath(trackingNumber),
      headers: { 'x-payment-authorization-token': payment.value },
      // Not resent: a second refund request the same day is refused as "already submitted", which would read as a void done before.
      idempotent: false,
      signal,
    });
    if (res.status === 400 || res.status === 404) return { ok: false, error: parseCancelError(res.status, res.json, trackingNumber) };
    return this.answer(res, `the cancel of ${trackingNumber}`, parseCancel);
  }

  readonly trackingBatchLimit = uspsTrackingBatchLimit;

  /** Tracking v3r2's POST of several numbers (track.ts); a label's own tracking stays on v3's GET. */
  trackNumbers(parcels: TrackedParcel[], signal: AbortSignal): Promise<CarrierResult<TrackedNumbers>> {
    return guard(words('tracking'), async () => {
      const numbers = parcels.map((p) => p.trackingNumber);
      const res = await this.client.send({ method: 'POST', path: trackBatchPath, json: buildTrackBatchRequest(numbers), idempotent: true, signal });
      if (res.status === 404 && res.json !== undefined && !Array.isArray(res.json)) return ok(new Map(numbers.map((n) => [n, parseTrackingNotFound(res.json)])));
      const answer = this.answer(res, 'tracking of several numbers', (json) => parseTrackingBatch(json, numbers));
      const wait = answer.ok ? undefined : retryAfterMs(res.headers, this.clock.now());
      return wait === undefined || answer.ok ? answer : { ok: false, error: { ...answer.error, retryAfterMs: wait } };
    });
  }

  track(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<TrackingResult>> {
    return guard(words('tracking'), async () => {
      const res = await this.client.send({ method: 'GET', path: trackPath(label.trackingNumber), query: trackQuery, idempotent: true, signal });
      if (res.status === 404 && res.json !== undefined) return parseTrackingNotFound(res.json);
      return this.answer(res, `tracking of ${label.trackingNumber}`, parseTracking);
    });
  }

  /** USPS subscribes one number per subscription (TrackingNumberFilter); each is asked for on its own. */
  readonly trackingSubscriptionBatch = 1;

  subscribeTracking(trackingNumbers: string[], listener: TrackingListener, signal: AbortSignal): Promise<CarrierResult<TrackingSubscriptions>> {
    return guard(words('tracking subscription'), async () => {
      const subscribed: TrackingSubscriptions['subscribed'] = [];
      const refused: string[] = [];
      for (const trackingNumber of trackingNumbers) {
        const body = buildSubscriptionRequest(trackingNumber, { url: listener.url, secret: listener.secret, adminEmail: listener.adminEmail ?? '' });
        const res = await this.client.send({ method: 'POST', path: uspsSubscriptionPath, json: body, idempotent: false, signal });
        // A 400 is this number refused (USPS names the fault); anything else is the call failing, tried again later.
        if (res.status === 400) {
          refused.push(trackingNumber);
          continue;
        }
        const made = this.answer(res, `the tracking subscription of ${trackingNumber}`, parseSubscriptionResponse);
        if (!made.ok) return made;
        subscribed.push({ trackingNumber, subscriptionId: made.value.subscriptionId });
      }
      return ok({ subscribed, refused, expiresAt: null });
    });
  }

  /**
   * Subscriptions - Tracking v3r2 DELETE /subscriptions/{subscriptionId}, which requires the ETag of a GET of it as
   * If-Match ("All DELETE and PUT operations require an ETag"; 204 when deleted). A subscription USPS no longer has
   * (404: it deletes them itself after 30 days without traffic) is as good as ended.
   */
  unsubscribeTracking(subscriptionId: string, signal: AbortSignal): Promise<CarrierResult<void>> {
    return guard(words('tracking subscription'), async () => {
      const path = `${uspsSubscriptionPath}/${encodeURIComponent(subscriptionId)}`;
      const found = await this.client.send({ method: 'GET', path, idempotent: true, signal });
      if (found.status === 404) return ok(undefined);
      const etag = found.headers.etag;
      if (found.status !== 200 || typeof etag !== 'string') {
        const read = this.answer(found, `the tracking subscription ${subscriptionId}`, () => failure('carrier_error', `USPS answered the subscription ${subscriptionId} without an ETag`));
        return read.ok ? failure('carrier_error', 'USPS gave no ETag to delete the subscription with') : read;
      }
      const res = await this.client.send({ method: 'DELETE', path, headers: { 'If-Match': etag }, idempotent: true, signal });
      if (res.status === 204 || res.status === 404) return ok(undefined);
      const answer = this.answer(res, `the deletion of the tracking subscription ${subscriptionId}`, () => ok(undefined));
      return answer.ok ? ok(undefined) : answer;
    });
  }

  /** The Post Offices near the ZIP Code that hold parcels for pickup (locations.ts), nearest first. */
  findLocations(query: LocationQuery, signal: AbortSignal): Promise<CarrierResult<FoundLocation[]>> {
    return guard(words('Post Office search'), async () => {
      const res = await this.client.send({ method: 'GET', path: locationsPath, query: buildLocationsQuery(query), idempotent: true, signal });
      return this.answer(res, `the Post Office search around ${query.zip}`, parseLocations);
    });
  }

  validateAddress(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>> {
    return guard(words('address validation'), async () => {
      const res = await this.client.send({ method: 'GET', path: addressPath, query: buildAddressQuery(address), idempotent: true, signal });
      if (res.status === 404 && res.json !== undefined) return parseAddressNotFound(res.json, address);
      return this.answer(res, 'the address validation', (json) => parseAddress(json, address));
    });
  }

  /**
   * The day's SCAN forms (scan-form.ts): one per origin, split where an origin has more labels than a form lists.
   * Asked one after another, so a refusal stops before the next; the forms made before it are named in the failure,
   * their labels being on a form at USPS whatever shipd records.
   */
  closeDay(request: CloseRequest, signal: AbortSignal): Promise<CarrierResult<CloseOutcome>> {
    return guard(words('SCAN form'), async () => {
      const forms: CarrierForm[] = [];
      for (const batch of scanFormBatches(request.shipDate, request.labels)) {
        const res = await this.client.send({
          method: 'POST',
          path: scanFormPath,
          headers: { accept: scanFormAccept },
          json: buildScanFormRequest(batch),
          // Not resent: a second request for the same labels is refused, as they are on the first form already.
          idempotent: false,
          signal,
        });
        const what = `the SCAN form of ${batch.trackingNumbers.length} labels from ZIP ${batch.from.zip.slice(0, 5)}`;
        const form = res.status === 400 || res.status === 404
          ? ({ ok: false, error: { code: 'manifest_rejected', detail: `USPS refused ${what}: ${describeProblem(readProblem(res.json))}` } } as const)
          : this.answer(res, what, (json) => parseScanForm(json, batch.trackingNumbers));
        if (!form.ok) {
          const made = forms.length > 0 ? `; SCAN forms ${forms.map((f) => f.number).join(', ')} were made before it` : '';
          return { ok: false, error: { ...form.error, detail: `${form.error.detail}${made}` } };
        }
        forms.push(form.value);
      }
      return ok({ required: true, forms });
    });
  }

  /**
   * Carrier Pickup (pickup.ts): USPS's date rules are checked first, so a day it would refuse costs no call. Not
   * resent: the API takes no client reference, so a second booking after a lost answer would be a second pickup.
   * There is no findPickup: the API looks pickups up by USPS's confirmation number only, never by shipd's reference.
   */
  schedulePickup(request: PickupRequest, signal: AbortSignal): Promise<CarrierResult<{ confirmationNumber: string }>> {
    return guard(words('carrier pickup'), async () => {
      const refused = pickupDateRefusal(request.date, this.clock.now());
      if (refused) return { ok: false, error: refused };
      const body = buildPickupRequest(request);
      if (!body.ok) return body;
      const res = await this.client.send({ method: 'POST', path: pickupPath, json: body.value, idempotent: false, signal });
      const what = `the carrier pickup on ${request.date}`;
      if (res.status === 400) return { ok: false, error: pickupRefusal(res.status, res.json, what) };
      return this.answer(res, what, parsePickupConfirmation);
    });
  }

  /** A DELETE needs the pickup's current ETag as If-Match, which only the GET of the pickup gives. */
  cancelPickup(pickup: PickupRef, signal: AbortSignal): Promise<CarrierResult<void>> {
    return guard(words('carrier pickup cancel'), async () => {
      const cn = pickup.confirmationNumber;
      const path = pickupOfPath(cn);
      const read = await this.client.send({ method: 'GET', path, idempotent: true, signal });
      if (read.status === 400 || read.status === 404) return { ok: false, error: pickupCancelRefusal(read.status, read.json, cn) };
      const etag = this.answer(read, `the read of pickup ${cn}`, (json) => {
        const tag = pickupEtag(read.headers, json, cn);
        return tag ? ok(tag) : failure('carrier_error', `USPS answered the read of pickup ${cn} without it or without its ETag, which a cancel needs`);
      });
      if (!etag.ok) return etag;
      // Not resent: a cancelled pickup "can no longer be updated or cancelled", so a repeat would read as a refusal.
      const res = await this.client.send({ method: 'DELETE', path, headers: { 'if-match': etag.value }, idempotent: false, signal });
      if (res.status >= 200 && res.status < 300) return ok(undefined);
      return { ok: false, error: pickupCancelRefusal(res.status, res.json, cn) };
    });
  }

  /** Whether the address is eligible (its own call) and the day one USPS books, with the time booking closes. */
  pickupAvailability(query: { address: Address; date: string }, signal: AbortSignal): Promise<CarrierResult<PickupAvailability>> {
    return guard(words('carrier pickup eligibility'), async () => {
      const refused = pickupDateRefusal(query.date, this.clock.now());
      if (refused) return ok({ available: false, earliest: null, latest: null, bookBy: null, reason: refused.detail });
      const res = await this.client.send({ method: 'GET', path: pickupEligibilityPath, query: buildEligibilityQuery(query.address), idempotent: true, signal });
      if (res.status === 400) return parseEligibility(res.status, res.json, query.address, query.date);
      return this.answer(res, 'the carrier pickup eligibility', (json) => parseEligibility(res.status, json, query.address, query.date));
    });
  }

  private async fetchPaymentToken(signal: AbortSignal): Promise<IssuedToken> {
    if (!this.parties.ok) throw new CarrierRefusal(this.parties.error);
    const res = await this.client.send({ method: 'POST', path: paymentPath, json: buildPaymentRequest(this.parties.value), idempotent: true, signal });
    const token = this.answer(res, 'the payment authorization', parsePayment);
    if (!token.ok) throw new CarrierRefusal(token.error);
    return token.value;
  }

  private async paymentToken(signal: AbortSignal): Promise<CarrierResult<string>> {
    if (!this.parties.ok) return this.parties;
    return { ok: true, value: await this.payments.get(signal) };
  }

  private answer<T>(res: CarrierResponse, what: string, parse: (json: unknown) => CarrierResult<T>): CarrierResult<T> {
    if (res.status < 200 || res.status >= 300) {
      const retryAfter = res.headers['retry-after'];
      return { ok: false, error: uspsFailure(res.status, res.json, what, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) };
    }
    if (res.json === undefined) return failure('carrier_error', `USPS answered ${what} with a body that is not JSON (${res.body.length} bytes)`);
    return parse(res.json);
  }
}
