import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.ts';

/** Every live carrier signs in with OAuth client credentials; the account number is what pays for labels. */
export interface LiveCredentials {
  clientId: string;
  clientSecret: string;
  accountNumber?: string;
}

export interface LiveCarrierOptions {
  credentials: LiveCredentials;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  log?: Logger;
}
