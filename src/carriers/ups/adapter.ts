import type { Logger } from 'pino';
import {
  failure,
  ok,
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
import { carrierCatalog } from '../catalog.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Address } from '../../schemas/address.ts';
import type { LabelFormat } from '../../labels/label-data.ts';
import { CarrierHttp, CarrierNetworkError, type CarrierRequest, type CarrierResponse } from '../live/http.ts';
import { TokenCache, type IssuedToken } from '../live/oauth.ts';
import { buildAddressRequest, parseAddressResponse } from './address.ts';
import { buildVoidRequest, parseVoidResponse } from './cancel.ts';
import { upsErrors, upsFailure } from './errors.ts';
import { gifToPng } from './label-image.ts';
import { buildRateRequest, parseRateResponse } from './rate.ts';
import { buildLabelRecoveryRequest, parseLabelRecoveryResponse } from './recovery.ts';
import { buildShipRequest, parseShipResponse, shipImageFormat, type UpsShipment } from './ship.ts';
import { buildTokenRequest, parseTokenResponse, type UpsCredentials } from './token.ts';
import { buildTrackRequest, notYetTracked, parseTrackResponse } from './track.ts';
import { transactionSrc, type UpsCall } from './wire.ts';

export interface UpsCarrierOptions {
  credentials: UpsCredentials;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  log?: Logger;
}

/** A failure on the way to an answer (no token, no connection), carried out of the token cache to one catch. */
class UpsCallFailed extends Error {
  constructor(readonly failure: CarrierFailure) {
    super(failure.detail);
  }
}

const info = carrierCatalog.find((c) => c.id === 'ups')!;

/** UPS's REST APIs (carriers.md 2): OAuth client credentials, one keep-alive pool, pure builders and parsers per call. */
export class UpsCarrier implements Carrier {
  readonly id = 'ups' as const;
  readonly name = info.name;
  readonly services = info.services;
  readonly usable = true;
  private readonly http: CarrierHttp;
  private readonly tokens: TokenCache;

  constructor(private readonly options: UpsCarrierOptions) {
    this.http = new CarrierHttp({ carrier: 'ups', baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, log: options.log });
    this.tokens = new TokenCache((signal) => this.fetchToken(signal), options.clock);
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  rate(request: RateRequest, signal: AbortSignal): Promise<CarrierResult<Quote[]>> {
    return this.guard(async () => {
      const res = await this.call('POST', buildRateRequest(request, this.options.credentials.accountNumber), true, signal);
      return this.answer(res, 'rate the shipment', (json) => parseRateResponse(json, request));
    });
  }

  purchase(request: PurchaseRequest, signal: AbortSignal): Promise<CarrierResult<PurchasedLabel>> {
    return this.guard<PurchasedLabel>(async () => {
      const account = this.options.credentials.accountNumber;
      if (!account) return failure('credentials_missing', 'Set UPS_ACCOUNT_NUMBER to buy UPS labels: UPS bills them to the shipper number');
      const res = await this.call('POST', buildShipRequest(request, account), false, signal);
      const shipped = this.answer(res, 'buy the label', parseShipResponse);
      if (!shipped.ok) return shipped;
      const s = shipped.value;
      const file = await this.labelFile(s, request.labelFormat, signal);
      return ok({ trackingNumber: s.trackingNumber, carrierShipmentId: s.shipmentId, postageCents: s.postageCents, ...(file ? { file } : {}) });
    });
  }

  /**
   * The bought label's file in the format asked. The label is bought by now, so nothing here fails the purchase:
   * when UPS's image cannot be used, the label comes back without a file and shipd renders one from the shipment.
   */
  private async labelFile(s: UpsShipment, format: LabelFormat, signal: AbortSignal): Promise<PurchasedLabel['file']> {
    const asked = shipImageFormat(format);
    if (s.label.format !== '' && s.label.format !== asked) {
      this.warn(s.trackingNumber, `UPS printed a ${s.label.format} label; shipd asked for ${asked}`);
      return undefined;
    }
    if (format === 'zpl') return { format: 'zpl', bytes: s.label.bytes };
    const png = await gifToPng(s.label.bytes).catch(() => undefined);
    if (!png) this.warn(s.trackingNumber, "UPS's GIF label is not a readable image");
    if (format === 'png' || !png) return png && { format: 'png', bytes: png };
    const recovered = await this.call('POST', buildLabelRecoveryRequest(s.trackingNumber), true, signal)
      .then((r) => this.answer(r, 'recover the label as PDF', parseLabelRecoveryResponse))
      .catch((err: unknown) => failure('carrier_unavailable', err instanceof UpsCallFailed ? err.failure.detail : String(err)));
    if (recovered.ok) return { format: 'pdf', bytes: recovered.value };
    // UPS's own image as PNG is still better than none; shipd renders the PDF itself when it is not one.
    this.warn(s.trackingNumber, `UPS label recovery as PDF failed: ${recovered.error.detail}`);
    return { format: 'png', bytes: png };
  }

  private warn(trackingNumber: string, message: string): void {
    this.options.log?.warn({ carrier: 'ups', tracking_number: trackingNumber }, message);
  }

  void(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<VoidOutcome>> {
    return this.guard(async () => {
      const res = await this.call('DELETE', buildVoidRequest(label.carrierShipmentId || label.trackingNumber), false, signal);
      return this.answer(res, `void ${label.carrierShipmentId}`, parseVoidResponse);
    });
  }

  track(label: LabelRef, signal: AbortSignal): Promise<CarrierResult<TrackingResult>> {
    return this.guard(async () => {
      const res = await this.call('GET', buildTrackRequest(label.trackingNumber), true, signal);
      if (res.status === 404) {
        const said = upsErrors(res.json)[0]?.message;
        return ok(notYetTracked(said ?? 'Tracking Information Not Found'));
      }
      return this.answer(res, `track ${label.trackingNumber}`, parseTrackResponse);
    });
  }

  validateAddress(address: Address, signal: AbortSignal): Promise<CarrierResult<AddressCheck>> {
    return this.guard(async () => {
      const res = await this.call('POST', buildAddressRequest(address), true, signal);
      return this.answer(res, 'validate the address', (json) => parseAddressResponse(json, address));
    });
  }

  private async fetchToken(signal: AbortSignal): Promise<IssuedToken> {
    const t = buildTokenRequest(this.options.credentials);
    const res = await this.send({ method: 'POST', path: t.path, headers: t.headers, form: t.form, idempotent: true, signal });
    if (res.status === 200 && res.json === undefined) throw new UpsCallFailed({ code: 'carrier_error', detail: 'UPS token answer is not JSON' });
    const parsed = parseTokenResponse(res.status, res.json);
    if (!parsed.ok) throw new UpsCallFailed(parsed.error);
    return parsed.value;
  }

  private call(method: CarrierRequest['method'], c: UpsCall, idempotent: boolean, signal: AbortSignal): Promise<CarrierResponse> {
    return this.tokens.withToken(signal, (token) =>
      this.send({
        method,
        path: c.path,
        query: c.query,
        headers: { ...c.headers, authorization: `Bearer ${token}`, transactionSrc },
        json: c.body,
        idempotent,
        signal,
      }),
    );
  }

  private async send(req: CarrierRequest): Promise<CarrierResponse> {
    try {
      return await this.http.send(req);
    } catch (err) {
      if (err instanceof CarrierNetworkError) {
        throw new UpsCallFailed({ code: err.timedOut ? 'carrier_timeout' : 'carrier_unavailable', detail: `UPS: ${err.message}` });
      }
      throw err;
    }
  }

  /** Error statuses through the UPS envelope; a 2xx that is not JSON is UPS misbehaving, not the caller. */
  private answer<T>(res: CarrierResponse, what: string, parse: (json: unknown) => CarrierResult<T>): CarrierResult<T> {
    if (res.status < 200 || res.status >= 300) return { ok: false, error: upsFailure(res.status, res.json, what) };
    if (res.json === undefined) return failure('carrier_error', `UPS answered ${what} with something other than JSON (${res.body.length} bytes)`);
    return parse(res.json);
  }

  /** Every method's last line of defence: a CarrierResult whatever happened, never a throw. */
  private async guard<T>(run: () => Promise<CarrierResult<T>>): Promise<CarrierResult<T>> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof UpsCallFailed) return { ok: false, error: err.failure };
      return failure('carrier_error', `UPS call failed unexpectedly: ${(err as Error).message}`);
    }
  }
}
