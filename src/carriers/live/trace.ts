import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../../config.ts';

/**
 * The API request a carrier call is made for, so the carrier's trace in the debug log can be tied to it
 * without every Carrier method taking a request id.
 */
export const carrierTrace = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Runs `fn` with the request's id for the carrier calls it makes, when the debug log (the only reader) is on. On
 * Node 20 a storage in use makes Node run a hook for every promise of the process, a cost on every request (a few
 * per cent of the event loop's time) not worth paying for a log nobody reads.
 */
export function withCarrierTrace<T>(logLevel: Config['logLevel'], requestId: string, fn: () => Promise<T>): Promise<T> {
  return logLevel === 'debug' || logLevel === 'trace' ? carrierTrace.run({ requestId }, fn) : fn();
}
