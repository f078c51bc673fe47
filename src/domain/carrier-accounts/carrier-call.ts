import { failure, type Carrier, type CarrierResult } from '../../carriers/carrier.ts';

/**
 * One call to a carrier within a time-out. A carrier that throws or runs out of time becomes a typed failure of
 * its own; the signal tells the carrier to stop working on an answer nobody will read.
 */
export async function callCarrier<T>(carrier: Carrier, timeoutMs: number, call: (signal: AbortSignal) => Promise<CarrierResult<T>>): Promise<CarrierResult<T>> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout');
      controller.abort();
    }, timeoutMs);
  });
  const timedOut = failure('carrier_timeout', `${carrier.name} did not answer within ${timeoutMs} ms`);
  try {
    const answer = await Promise.race([call(controller.signal), deadline]);
    return answer === 'timeout' ? timedOut : answer;
  } catch (err) {
    if (controller.signal.aborted) return timedOut;
    return failure('carrier_error', `${carrier.name} failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
  }
}
