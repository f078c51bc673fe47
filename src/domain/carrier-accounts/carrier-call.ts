import { failure, type Carrier, type CarrierResult } from '../../carriers/carrier.ts';

/** A time-out and the signal that tells carriers it has passed. */
function deadline(timeoutMs: number): { signal: AbortSignal; passed: Promise<'timeout'>; clear(): void } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout');
      controller.abort();
    }, timeoutMs);
  });
  return { signal: controller.signal, passed, clear: () => clearTimeout(timer) };
}

async function within<T>(carrier: Carrier, timeoutMs: number, limit: ReturnType<typeof deadline>, call: (signal: AbortSignal) => Promise<CarrierResult<T>>): Promise<CarrierResult<T>> {
  const timedOut = () => failure('carrier_timeout', `${carrier.name} did not answer within ${timeoutMs} ms`);
  try {
    const answer = await Promise.race([call(limit.signal), limit.passed]);
    return answer === 'timeout' ? timedOut() : answer;
  } catch (err) {
    if (limit.signal.aborted) return timedOut();
    return failure('carrier_error', `${carrier.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * One call to a carrier within a time-out. A carrier that throws or runs out of time becomes a typed failure of
 * its own; the signal tells the carrier to stop working on an answer nobody will read.
 */
export async function callCarrier<T>(carrier: Carrier, timeoutMs: number, call: (signal: AbortSignal) => Promise<CarrierResult<T>>): Promise<CarrierResult<T>> {
  const limit = deadline(timeoutMs);
  try {
    return await within(carrier, timeoutMs, limit, call);
  } finally {
    limit.clear();
  }
}

/**
 * Calls to several carriers started together, each as callCarrier makes it, under one time-out: one timer and one
 * signal for all, since they run out together. Node 20 takes some 6 µs to make an AbortSignal, and a rate shop asks
 * every carrier.
 */
export async function callCarriers<C extends Carrier, T>(carriers: C[], timeoutMs: number, call: (carrier: C, signal: AbortSignal) => Promise<CarrierResult<T>>): Promise<CarrierResult<T>[]> {
  const limit = deadline(timeoutMs);
  try {
    return await Promise.all(carriers.map((c) => within(c, timeoutMs, limit, (signal) => call(c, signal))));
  } finally {
    limit.clear();
  }
}
