import type { Logger } from 'pino';
import type { Address } from '../../schemas/address.ts';
import type { Clock } from '../../domain/clock.ts';
import {
  failure,
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
} from '../carrier.ts';
import { carrierCatalog } from '../catalog.ts';
import { CarrierHttp, CarrierNetworkError, type CarrierRequest, type CarrierResponse } from '../live/http.ts';
import { TokenCache, type IssuedToken } from '../live/oauth.ts';
import { addressPath, buildAddressQuery, parseAddress, parseAddressNotFound } from './address.ts';
import { cancelPath, parseCancel, parseCancelError } from './cancel.ts';
import { UspsFailureError, uspsFailure } from './errors.ts';
import { buildPaymentRequest, parsePayment, paymentPath } from './payment.ts';
import { buildRateRequest, parseRates, ratePath } from './rate.ts';
import { buildLabelRequest, labelAccept, labelPath, parseLabel } from './ship.ts';
import { buildTokenRequest, parseToken, tokenPath } from './token.ts';
import { parseTracking, parseTrackingNotFound, trackPath, trackQuery } from './track.ts';

export interface UspsCarrierOptions {
  credentials: { clientId: string; clientSecret: string; accountNumber?: string };
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  log?: Logger;
}

const info = carrierCatalog.find((c) => c.id === 'usps')!;

type ApiRequest = Omit<CarrierRequest, 'headers'> & { headers?: Record<string, string> };

/** USPS's v3 REST APIs (carriers.md 3): OAuth client credentials, plus a payment authorization for labels. */
export class UspsCarrier implements Carrier {
  readonly id = 'usps' as const;
  readonly name = info.name;
  readonly services = info.services;
  readonly usable = true;
  private readonly http: CarrierHttp;
  private readonly tokens: TokenCache;
  /** The payment authorization token is good for eight hours and is not to be asked for per label (carriers.md 3.3). */
  private readonly payments: TokenCache;

  constructor(private readonly options: UspsCarrierOptions) {
    this.http = new CarrierHttp({ carrier: 'usps', baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, log: options.log });
    this.tokens = new TokenCache((signal) => this.fetchToken(signal), options.clock);
    this.payments = new TokenCache((signal) => this.fetchPaymentToken(signal), options.clock);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    return this.guarded('rate search', async () => {
      const res = await this.api({ method: 'POST', path: ratePath, json: buildRateRequest(request), idempotent: true, signal });
      return this.answer(res, 'the rate search', (json) => parseRates(json, request));
    });
  }

  purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    return this.guarded('label purchase', async () => {
      const payment = await this.paymentToken(signal);
      if (!payment.ok) return payment;
      const res = await this.api({
        method: 'POST',
        path: labelPath,
        headers: { accept: labelAccept, 'x-payment-authorization-token': payment.value, 'x-idempotency-key': request.idempotencyKey },
        json: buildLabelRequest(request),
        // USPS answers a repeated X-Idempotency-Key with the label it already sold, so a resend cannot buy twice.
        idempotent: true,
        signal,
      });
      return this.answer(res, 'the label purchase', (json) => parseLabel(json, request.labelFormat));
    });
  }

  void(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    return this.guarded('cancel', async () => {
      const payment = await this.paymentToken(signal);
      if (!payment.ok) return payment;
      const res = await this.api({
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
    return this.guarded('tracking', async () => {
      const res = await this.api({ method: 'GET', path: trackPath(label.trackingNumber), query: trackQuery, idempotent: true, signal });
      if (res.status === 404 && res.json !== undefined) return parseTrackingNotFound(res.json);
      return this.answer(res, `tracking of ${label.trackingNumber}`, parseTracking);
    });
  }

  validateAddress(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>> {
    return this.guarded('address validation', async () => {
      const res = await this.api({ method: 'GET', path: addressPath, query: buildAddressQuery(address), idempotent: true, signal });
      if (res.status === 404 && res.json !== undefined) return parseAddressNotFound(res.json, address);
      return this.answer(res, 'the address validation', (json) => parseAddress(json, address));
    });
  }

  private async fetchToken(signal: AbortSignal): Promise<IssuedToken> {
    const { clientId, clientSecret } = this.options.credentials;
    const res = await this.http.send({ method: 'POST', path: tokenPath, form: buildTokenRequest({ clientId, clientSecret }), idempotent: true, signal });
    const token = parseToken(res.status, res.json);
    if (!token.ok) throw new UspsFailureError(token.error);
    return token.value;
  }

  private async fetchPaymentToken(signal: AbortSignal): Promise<IssuedToken> {
    const res = await this.api({ method: 'POST', path: paymentPath, json: buildPaymentRequest(this.options.credentials.accountNumber!), idempotent: true, signal });
    const token = this.answer(res, 'the payment authorization', parsePayment);
    if (!token.ok) throw new UspsFailureError(token.error);
    return token.value;
  }

  private async paymentToken(signal: AbortSignal): Promise<CarrierResult<string>> {
    if (!this.options.credentials.accountNumber) {
      return failure('credentials_missing', 'Set USPS_ACCOUNT_NUMBER (the EPS account that pays for postage) to buy or cancel USPS labels');
    }
    return { ok: true, value: await this.payments.get(signal) };
  }

  /** A call with the OAuth token; a 401 gets one fresh token and one more try. */
  private api(req: ApiRequest): Promise<CarrierResponse> {
    return this.tokens.withToken(req.signal, (token) => this.http.send({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }));
  }

  private answer<T>(res: CarrierResponse, what: string, parse: (json: unknown) => CarrierResult<T>): CarrierResult<T> {
    if (res.status < 200 || res.status >= 300) {
      const retryAfter = res.headers['retry-after'];
      return { ok: false, error: uspsFailure(res.status, res.json, what, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) };
    }
    if (res.json === undefined) return failure('carrier_error', `USPS answered ${what} with a body that is not JSON (${res.body.length} bytes)`);
    return parse(res.json);
  }

  /** Every way a call can go wrong, as a result: nothing thrown reaches the caller. */
  private async guarded<T>(what: string, call: () => Promise<CarrierResult<T>>): Promise<CarrierResult<T>> {
    try {
      return await call();
    } catch (err) {
      if (err instanceof UspsFailureError) return { ok: false, error: err.failure };
      if (err instanceof CarrierNetworkError) return failure(err.timedOut ? 'carrier_timeout' : 'carrier_unavailable', `USPS ${what}: ${err.message}`);
      return failure('carrier_error', `USPS ${what} failed: ${(err as Error).message}`);
    }
  }
}
