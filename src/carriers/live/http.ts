import type { Dispatcher } from 'undici';
import { undici } from '../../kernel/undici.ts';
import type { Logger } from 'pino';
import type { CarrierId } from '../../config.ts';
import { redact, redactText } from './redact.ts';
import { carrierTrace } from './trace.ts';

export interface CarrierRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below the base URL, with its leading slash. */
  path: string;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  /** Safe to send twice: only such calls are retried, and only after a network error or a 502/503/504. */
  idempotent: boolean;
  signal: AbortSignal;
}

export interface CarrierResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the answer is JSON, else undefined. */
  json: unknown;
  /** The raw body. */
  body: Buffer;
}

/** No answer at all: a network error or the time-out. The adapter turns it into carrier_unavailable or carrier_timeout. */
export class CarrierNetworkError extends Error {
  constructor(
    readonly timedOut: boolean,
    message: string,
  ) {
    super(message);
  }
}

export interface CarrierHttpOptions {
  carrier: CarrierId;
  baseUrl: string;
  timeoutMs: number;
  log?: Logger;
  /** Extra tries of an idempotent call. */
  retries?: number;
  /** Credential values blanked wherever they appear in the trace. */
  secrets?: readonly string[];
}

/**
 * One carrier host's HTTP client: a keep-alive connection pool, a time-out on every call, retries only where a
 * second send cannot buy twice, and a redacted trace of every exchange in the debug log.
 */
export class CarrierHttp {
  /** Made on the first call: a shipd with no live carrier account never loads undici. */
  private dispatcher: Dispatcher | undefined;
  private readonly retries: number;

  constructor(private readonly options: CarrierHttpOptions) {
    this.retries = options.retries ?? 2;
  }

  async send(req: CarrierRequest): Promise<CarrierResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await this.once(req);
        if (req.idempotent && attempt < this.retries && [502, 503, 504].includes(res.status)) continue;
        return res;
      } catch (err) {
        if (!(err instanceof CarrierNetworkError) || err.timedOut || !req.idempotent || attempt >= this.retries || req.signal.aborted) throw err;
      }
    }
  }

  async close(): Promise<void> {
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    await dispatcher?.close();
  }

  private async once(req: CarrierRequest): Promise<CarrierResponse> {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: string | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] ??= 'application/json';
    } else if (req.form) {
      body = new URLSearchParams(req.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let res: Dispatcher.ResponseData;
    let raw: Buffer;
    try {
      const { Agent, request } = await undici();
      this.dispatcher ??= new Agent({ keepAliveTimeout: 30_000, connections: 32, connect: { timeout: this.options.timeoutMs } });
      res = await request(url, {
        method: req.method,
        headers,
        body,
        dispatcher: this.dispatcher,
        signal: AbortSignal.any([req.signal, timeout]),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      raw = Buffer.from(await res.body.arrayBuffer());
    } catch (err) {
      const timedOut = timeout.aborted || (err as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' || (err as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT';
      this.trace(req, url, undefined, started, undefined, err);
      throw new CarrierNetworkError(timedOut, timedOut ? `no answer within ${this.options.timeoutMs} ms` : `could not reach ${url.host}: ${(err as Error).message}`);
    }
    const type = String(res.headers['content-type'] ?? '');
    let json: unknown;
    if (/json/i.test(type) || (raw.length > 0 && (raw[0] === 0x7b || raw[0] === 0x5b))) {
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
    }
    const response = { status: res.statusCode, headers: res.headers, json, body: raw };
    this.trace(req, url, response, started, body);
    return response;
  }

  private trace(req: CarrierRequest, url: URL, res: CarrierResponse | undefined, started: number, sent: unknown, err?: unknown): void {
    const log = this.options.log;
    if (!log?.isLevelEnabled('debug')) return;
    const secrets = this.options.secrets ?? [];
    log.debug(
      {
        carrier: this.options.carrier,
        request_id: carrierTrace.getStore()?.requestId,
        method: req.method,
        url: redactText(`${url.origin}${url.pathname}`, secrets),
        ms: Math.round(performance.now() - started),
        request: redact(req.json ?? req.form ?? (sent === undefined ? undefined : '[body]'), secrets),
        status: res?.status,
        response: res ? redact(res.json ?? `[${res.body.length} bytes]`, secrets) : undefined,
        err: err ? redactText((err as Error).message, secrets) : undefined,
      },
      'carrier call',
    );
  }
}

/**
 * A Retry-After header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds from `now`; undefined when
 * absent or unreadable, and never below zero.
 */
export function retryAfterMs(headers: CarrierResponse['headers'], now: Date): number | undefined {
  const raw = headers['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}
