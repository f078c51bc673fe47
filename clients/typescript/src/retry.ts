export interface RetryOptions {
  /** Attempts in all, the first included (default 4); 1 turns retries off. */
  maxAttempts?: number;
  /** The first back-off, doubled at each attempt after it (default 500 ms). */
  baseDelayMs?: number;
  /**
   * The longest wait before an attempt (default 30 s). A Retry-After longer than this ends the retries: the answer
   * that asked for it is returned.
   */
  maxDelayMs?: number;
}

type Fetch = (request: Request) => Promise<Response>;

/** Methods whose repeat does what the first sending did, no more; a POST joins them when it carries an Idempotency-Key. */
const repeatable = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Retry-After in milliseconds, as delay-seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(response: Response): number | null {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A 409 idempotency_key_in_use: the first request with this key is still running, and a repeat will get its answer. */
async function stillRunning(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const body: unknown = await response.clone().json().catch(() => null);
  return typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'idempotency_key_in_use';
}

/** Half the doubled back-off plus up to as much again at random, so that clients refused together do not return together. */
function backoffMs(attempt: number, base: number): number {
  const delay = base * 2 ** (attempt - 1);
  return delay / 2 + Math.random() * (delay / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      signal.removeEventListener('abort', abort);
      resolve();
    };
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * fetch that tries again on 429 and 503, which shipd answers before doing anything (a key over its rate, a database
 * out of reach, the payment processor silent, the server shutting down), and on network errors when the request is
 * safe to repeat: a method that is, a POST with an Idempotency-Key (the same one, as the request is sent unchanged),
 * or any request whose connection was refused, so nothing reached the server. It waits Retry-After where the answer
 * gives one, else an exponential back-off. A request with an Idempotency-Key answered 409 idempotency_key_in_use (its
 * first sending, whose answer was lost, still running) is sent again the same way, to get that answer.
 */
export function retryingFetch(fetch: Fetch, options: RetryOptions = {}): Fetch {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  return async (request) => {
    const keyed = request.headers.has('idempotency-key');
    const safe = repeatable.has(request.method) || keyed;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      let response: Response;
      try {
        response = await fetch(last ? request : request.clone());
      } catch (err) {
        const refused = (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
        if (last || request.signal.aborted || !(err instanceof TypeError) || !(safe || refused)) throw err;
        await sleep(Math.min(backoffMs(attempt, baseDelayMs), maxDelayMs), request.signal);
        continue;
      }
      if (last || !(response.status === 429 || response.status === 503 || (keyed && (await stillRunning(response))))) return response;
      const asked = retryAfterMs(response);
      if (asked !== null && asked > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(asked ?? Math.min(backoffMs(attempt, baseDelayMs), maxDelayMs), request.signal);
    }
  };
}
