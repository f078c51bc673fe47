import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';
import type { Address } from '../../schemas/address.ts';
import {
  failure,
  type AddressCheck,
  type Carrier,
  type CarrierFailure,
  type CarrierResult,
  type LabelRef,
  type PurchasedLabel,
  type PurchaseRequest,
  type Quote,
  type RateRequest,
  type TrackingResult,
  type VoidOutcome,
} from '../carrier.ts';
import { carrierCatalog, type ServiceInfo } from '../catalog.ts';
import { CarrierHttp, CarrierNetworkError, type CarrierRequest, type CarrierResponse } from '../live/http.ts';
import { TokenCache, type IssuedToken } from '../live/oauth.ts';
import { addressPath, buildAddressRequest, parseAddressResponse } from './address.ts';
import { buildCancelRequest, cancelPath, parseCancelResponse } from './cancel.ts';
import { fedexFailure, isFedexError } from './errors.ts';
import { buildRateRequest, parseRateResponse, ratePath } from './rate.ts';
import { buildShipRequest, parseShipResponse, shipPath } from './ship.ts';
import { buildTokenRequest, parseToken, tokenPath } from './token.ts';
import { buildTrackRequest, parseTrackResponse, trackPath } from './track.ts';

export interface FedexOptions {
  credentials: { clientId: string; clientSecret: string; accountNumber?: string };
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  log?: Logger;
}

/** A refusal on the way to an answer (the token, a missing account number), carried out of TokenCache as a value. */
class FedexRefusal extends Error {
  constructor(readonly failure: CarrierFailure) {
    super(failure.detail);
  }
}

const info = carrierCatalog.find((c) => c.id === 'fedex')!;

/** FedEx's REST APIs (carriers.md 4) behind the carrier-neutral interface. */
export class FedexCarrier implements Carrier {
  readonly id = 'fedex' as const;
  readonly name = info.name;
  readonly services: readonly ServiceInfo[] = info.services;
  readonly usable = true;
  private readonly http: CarrierHttp;
  private readonly tokens: TokenCache;

  constructor(private readonly options: FedexOptions) {
    this.http = new CarrierHttp({ carrier: 'fedex', baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, log: options.log });
    this.tokens = new TokenCache((signal) => this.fetchToken(signal), options.clock);
  }

  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    return this.call(async () => {
      const res = await this.api({ method: 'POST', path: ratePath, json: buildRateRequest(request, this.account()), idempotent: true, signal });
      return parseRateResponse(res.json, request, this.services);
    });
  }

  purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    return this.call(async () => {
      if (!this.services.some((s) => s.code === request.service)) return failure('service_unavailable', `FedEx has no service ${request.service} in shipd`);
      const body = buildShipRequest(request, this.account());
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
    return this.call(async () => {
      // Not retried: a resent cancel after a lost answer would read "already cancelled" for a cancel that worked.
      const res = await this.send({ method: 'PUT', path: cancelPath, json: buildCancelRequest(label, this.account()), idempotent: false, signal });
      if (res.json === undefined) return failure('carrier_error', `FedEx answered the cancel request with HTTP ${res.status} and no JSON`);
      return parseCancelResponse(res.status, res.json, label);
    });
  }

  track(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<TrackingResult>> {
    return this.call(async () => {
      const res = await this.api({ method: 'POST', path: trackPath, json: buildTrackRequest(label.trackingNumber), idempotent: true, signal });
      return parseTrackResponse(res.json, label.trackingNumber);
    });
  }

  validateAddress(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>> {
    return this.call(async () => {
      const res = await this.api({ method: 'POST', path: addressPath, json: buildAddressRequest(address), idempotent: true, signal });
      return parseAddressResponse(res.json, address);
    });
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private account(): string {
    const account = this.options.credentials.accountNumber;
    if (!account) throw new FedexRefusal({ code: 'credentials_missing', detail: 'Set FEDEX_ACCOUNT_NUMBER to rate, ship and cancel with FedEx' });
    return account;
  }

  private async fetchToken(signal: AbortSignal): Promise<IssuedToken> {
    const res = await this.http.send({ method: 'POST', path: tokenPath, form: buildTokenRequest(this.options.credentials), idempotent: true, signal });
    if (isFedexError(res.status, res.json)) throw new FedexRefusal(fedexFailure(res.status, res.json));
    const token = parseToken(res.json);
    if (!token) throw new FedexRefusal({ code: 'carrier_error', detail: `FedEx answered the token request (HTTP ${res.status}) without an access_token` });
    return token;
  }

  /** One call with the cached token (fetched again once after a 401), FedEx's common headers on it. */
  private send(req: Omit<CarrierRequest, 'headers'> & { headers?: Record<string, string> }): Promise<CarrierResponse> {
    return this.tokens.withToken(req.signal, (token) =>
      this.http.send({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}`, 'x-locale': 'en_US' } }),
    );
  }

  /** send(), with error answers and bodies that are not JSON turned into refusals. */
  private async api(req: Omit<CarrierRequest, 'headers'> & { headers?: Record<string, string> }): Promise<CarrierResponse> {
    const res = await this.send(req);
    if (isFedexError(res.status, res.json)) throw new FedexRefusal(fedexFailure(res.status, res.json));
    if (res.json === undefined) throw new FedexRefusal({ code: 'carrier_error', detail: `FedEx answered ${req.path} with HTTP ${res.status} and a body that is not JSON` });
    return res;
  }

  /** Every way a call can go wrong, as a result: nothing thrown reaches the caller. */
  private async call<T>(run: () => Promise<CarrierResult<T>>): Promise<CarrierResult<T>> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof FedexRefusal) return { ok: false, error: err.failure };
      if (err instanceof CarrierNetworkError) return failure(err.timedOut ? 'carrier_timeout' : 'carrier_unavailable', `FedEx: ${err.message}`);
      return failure('carrier_error', `FedEx answer could not be read: ${(err as Error).message}`);
    }
  }
}
