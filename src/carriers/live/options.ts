import type { Logger } from 'pino';
import type { Clock } from '../../kernel/clock.ts';

/** Every live carrier signs in with OAuth client credentials; the account number is what pays for labels. */
export interface LiveCredentials {
  clientId: string;
  clientSecret: string;
  accountNumber?: string;
  /** USPS only: the mailer's Customer Registration ID, which its payment authorization names as payer and label owner. */
  crid?: string;
  /** USPS only: the Mailer ID whose label ranges the tracking numbers come from. */
  mid?: string;
  /** USPS only: the Mailer ID the labels are manifested under; the MID when not given. */
  manifestMid?: string;
}

export interface LiveCarrierOptions {
  credentials: LiveCredentials;
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  log?: Logger;
}
