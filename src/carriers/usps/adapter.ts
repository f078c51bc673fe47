import { optionsNotSentLive } from '../options.ts';
import type { Address } from '../../schemas/address.ts';
import {
  failure,
  ok,
  type AddressCheck,
  type Carrier,
  type CarrierResult,
  type LabelRef,
  type PurchasedLabel,
  type PurchaseRequest,
  type Quote,
  type RateRequest,
  type TrackingResult,
  type VoidOutcome,
  isDomestic,
  severalBoxesRefusal,
} from '../carrier.ts';
import { abroad } from '../abroad.ts';
import { buildInternationalLabelRequest, buildInternationalRatesRequest, internationalLabelPath, internationalRatesPath, parseInternationalLabel, parseInternationalRates } from './international.ts';
import { carrierCatalog } from '../catalog.ts';
import { BearerClient, CarrierRefusal, guard, type GuardWords } from '../live/call.ts';
import type { CarrierResponse } from '../live/http.ts';
import { TokenCache, type IssuedToken } from '../live/oauth.ts';
import type { LiveCarrierOptions } from '../live/options.ts';
import { addressPath, buildAddressQuery, parseAddress, parseAddressNotFound } from './address.ts';
import { cancelPath, parseCancel, parseCancelError } from './cancel.ts';
import { uspsFailure } from './errors.ts';
import { buildPaymentRequest, parsePayment, paymentParties, paymentPath, type PaymentParties } from './payment.ts';
import { buildRateRequest, parseCommitments, parseRates, ratePath } from './rate.ts';
import { buildLabelRequest, buildReturnLabelRequest, labelHeaders, labelPath, parseLabel, returnLabelPath } from './ship.ts';
import { buildTokenRequest, parseToken, tokenPath } from './token.ts';
import { parseTracking, parseTrackingNotFound, trackPath, trackQuery } from './track.ts';

const info = carrierCatalog.find((c) => c.id === 'usps')!;

/**
 * Insurance abroad is an extra service of the international APIs too, not sent by shipd yet: an insured parcel
 * abroad is not rated rather than sold uninsured. Within the US it goes with the request (insurance.ts).
 */
const uninsurableAbroad = failure('service_unavailable', 'shipd does not send USPS insurance with international labels yet; leave insurance out, or choose UPS or FedEx declared value');

const words = (what: string): GuardWords => ({ network: `USPS ${what}`, unexpected: `USPS ${what} failed` });

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

  constructor(options: LiveCarrierOptions) {
    const tokenRequest = { path: tokenPath, form: buildTokenRequest(options.credentials) };
    this.client = new BearerClient('usps', options, { request: tokenRequest, read: (res) => parseToken(res.status, res.json) });
    this.parties = paymentParties(options.credentials);
    this.payments = new TokenCache((signal) => this.fetchPaymentToken(signal), options.clock);
  }

  close(): Promise<void> {
    return this.client.close();
  }

  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const unsent = optionsNotSentLive('USPS', request.options);
    if (unsent) return Promise.resolve(unsent);
    return guard(words('rate search'), async () => {
      const boxes = severalBoxesRefusal(this.name, request);
      if (boxes) return boxes;
      if (!isDomestic(request)) return request.parcels.every((p) => p.insuredCents === undefined) ? this.rateAbroad(request, signal) : uninsurableAbroad;
      const search = (returns: boolean) => this.client.send({ method: 'POST', path: ratePath, json: buildRateRequest(request, returns), idempotent: true, signal });
      const res = await search(request.isReturn === true);
      if (!request.isReturn) return this.answer(res, 'the rate search', (json) => parseRates(json, request));
      const outbound = await search(false);
      const commitments = this.answer(outbound, 'the delivery commitments of the return route', (json) => ok(parseCommitments(json)));
      if (!commitments.ok) return commitments;
      return this.answer(res, 'the return rate search', (json) => parseRates(json, request, commitments.value));
    });
  }

  purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    const unsent = optionsNotSentLive('USPS', request.options);
    if (unsent) return Promise.resolve(unsent);
    return guard(words('label purchase'), async () => {
      const boxes = severalBoxesRefusal(this.name, request);
      if (boxes) return boxes;
      if (!isDomestic(request)) return request.parcels.every((p) => p.insuredCents === undefined) ? this.purchaseAbroad(request, signal) : uninsurableAbroad;
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
    });
  }

  /** The international price lists, the account's and the retail one, for every mail class abroad. */
  private async rateAbroad(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    const r = abroad(request, this);
    if (!r.ok) return r;
    const search = (priceType: 'RETAIL' | 'COMMERCIAL') => this.client.send({ method: 'POST', path: internationalRatesPath, json: buildInternationalRatesRequest(r.value, priceType), idempotent: true, signal });
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
    return this.answer(res, 'the international label purchase', parseInternationalLabel);
  }

  void(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    return guard(words('cancel'), async () => {
      const payment = await this.paymentToken(signal);
      if (!payment.ok) return payment;
      const res = await this.client.send({
        method: 'DELETE',
        path: cancelPath(label.trackingNumber),
        headers: { 'x-payment-authorization-token': payment.value },
        // Not resent: a second refund request the same day is refused as "already submitted", which would read as a void done before.
        idempotent: false,
        signal,
      });
      if (res.status === 400 || res.status === 404) return { ok: false, error: parseCancelError(res.status, res.json, label.trackingNumber) };
      return this.answer(res, `the cancel of ${label.trackingNumber}`, parseCancel);
    });
  }

  track(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<TrackingResult>> {
    return guard(words('tracking'), async () => {
      const res = await this.client.send({ method: 'GET', path: trackPath(label.trackingNumber), query: trackQuery, idempotent: true, signal });
      if (res.status === 404 && res.json !== undefined) return parseTrackingNotFound(res.json);
      return this.answer(res, `tracking of ${label.trackingNumber}`, parseTracking);
    });
  }

  validateAddress(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>> {
    return guard(words('address validation'), async () => {
      const res = await this.client.send({ method: 'GET', path: addressPath, query: buildAddressQuery(address), idempotent: true, signal });
      if (res.status === 404 && res.json !== undefined) return parseAddressNotFound(res.json, address);
      return this.answer(res, 'the address validation', (json) => parseAddress(json, address));
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
