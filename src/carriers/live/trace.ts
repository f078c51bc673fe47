import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The API request a carrier call is made for, so the carrier's trace in the debug log can be tied to it
 * without every Carrier method taking a request id.
 */
export const carrierTrace = new AsyncLocalStorage<{ requestId: string }>();
