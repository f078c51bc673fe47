import type { CarrierId } from '../../config.ts';
import { failure, type CarrierFailure, type CarrierResult } from '../carrier.ts';
import { CarrierHttp, CarrierNetworkError, type CarrierRequest, type CarrierResponse } from './http.ts';
import { TokenCache, type IssuedToken } from './oauth.ts';
import type { LiveCarrierOptions } from './options.ts';
import { credentialValues } from './redact.ts';

/**
 * A failure decided on the way to an answer (a token refused, a setting missing), thrown because it starts where
 * no result can be returned, inside TokenCache's fetch or a nested call; guard() turns it back into a result.
 */
export class CarrierRefusal extends Error {
  constructor(readonly failure: CarrierFailure) {
    super(failure.detail);
  }
}

/** The start of a failure's detail when there was no answer (`network`) and when the adapter itself broke (`unexpected`). */
export interface GuardWords {
  network: string;
  unexpected: string;
}

/** Every adapter method's last line of defence: a CarrierResult whatever happened, never a throw. */
export async function guard<T>(words: GuardWords, run: () => Promise<CarrierResult<T>>): Promise<CarrierResult<T>> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof CarrierRefusal) return { ok: false, error: err.failure };
    if (err instanceof CarrierNetworkError) return failure(err.timedOut ? 'carrier_timeout' : 'carrier_unavailable', `${words.network}: ${err.message}`);
    return failure('carrier_error', `${words.unexpected}: ${(err as Error).message}`);
  }
}

/** Where and how a carrier issues its OAuth token; the credentials go in the form or the headers, by carrier. */
export interface TokenEndpoint {
  request: Pick<CarrierRequest, 'path' | 'headers' | 'form'>;
  /** The token, or why the carrier gave none. */
  read(res: CarrierResponse): CarrierResult<IssuedToken>;
}

/** One carrier host's keep-alive pool, with its OAuth token on every call and the carrier's own headers beside it. */
export class BearerClient {
  private readonly http: CarrierHttp;
  private readonly tokens: TokenCache;

  constructor(
    carrier: CarrierId,
    options: LiveCarrierOptions,
    private readonly endpoint: TokenEndpoint,
    private readonly headers: Record<string, string> = {},
  ) {
    this.http = new CarrierHttp({ carrier, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, log: options.log, secrets: credentialValues(carrier, options.credentials) });
    this.tokens = new TokenCache((signal) => this.fetchToken(signal), options.clock);
  }

  /** A call with the cached token; a 401 gets one fresh token and one more try. */
  send(req: CarrierRequest): Promise<CarrierResponse> {
    return this.tokens.withToken(req.signal, (token) => this.http.send({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}`, ...this.headers } }));
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  private async fetchToken(signal: AbortSignal): Promise<IssuedToken> {
    const res = await this.http.send({ method: 'POST', ...this.endpoint.request, idempotent: true, signal });
    const token = this.endpoint.read(res);
    if (!token.ok) throw new CarrierRefusal(token.error);
    return token.value;
  }
}
