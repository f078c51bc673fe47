import { failure, ok, type CarrierResult } from '../carrier.ts';
import type { IssuedToken } from '../live/oauth.ts';
import type { LiveCredentials } from '../live/options.ts';
import { asString, at } from '../live/lenient.ts';

export const paymentPath = '/payments/v3/payment-authorization';

/** USPS says a payment authorization token is valid eight hours (carriers.md 3.3); it sends no lifetime with it. */
const paymentTokenSeconds = 8 * 3600;

/** What the payment authorization cannot go without: the EPS account that pays, and the mailer that owns the labels. */
export interface PaymentParties {
  accountNumber: string;
  crid: string;
  mid: string;
  manifestMid?: string;
}

/**
 * The settings each party comes from, in the order a missing one is named: the platform's setting, and the flag of
 * `shipd carriers connect` for an account's own USPS account.
 */
const partySettings: { field: keyof PaymentParties & keyof LiveCredentials; setting: string; flag: string; what: string }[] = [
  { field: 'accountNumber', setting: 'USPS_ACCOUNT_NUMBER', flag: '--account-number', what: 'the EPS account that pays for postage' },
  { field: 'crid', setting: 'USPS_CRID', flag: '--crid', what: 'the Customer Registration ID of the mailer' },
  { field: 'mid', setting: 'USPS_MID', flag: '--mid', what: 'the Mailer ID that owns the labels' },
];

/** The parties, or a credentials_missing naming every setting that is not there. */
export function paymentParties(credentials: LiveCredentials): CarrierResult<PaymentParties> {
  const missing = partySettings.filter((s) => !credentials[s.field]);
  if (missing.length > 0) {
    const settings = missing.map((s) => `${s.setting} (${s.what})`).join(' and ');
    const flags = missing.map((s) => s.flag).join(' and ');
    return failure('credentials_missing', `Set ${settings} to buy or cancel USPS labels; an account's own USPS account takes ${flags} of shipd carriers connect`);
  }
  const { accountNumber, crid, mid, manifestMid } = credentials as PaymentParties;
  return ok({ accountNumber, crid, mid, ...(manifestMid && { manifestMid }) });
}

/**
 * The mailer pays from its EPS account (PAYER: accountType, CRID and, for EPS, the accountNumber) and owns the labels
 * with its Mailer IDs (LABEL_OWNER: CRID, MID and manifestMID), as payments.yaml 3.1.20 requires of each role
 * (operation post-payments-payment-authorization); the manifest MID is the MID unless another is set.
 */
export function buildPaymentRequest(parties: PaymentParties): { roles: Record<string, string>[] } {
  const { accountNumber, crid, mid } = parties;
  return {
    roles: [
      { roleName: 'PAYER', CRID: crid, accountType: 'EPS', accountNumber },
      { roleName: 'LABEL_OWNER', CRID: crid, MID: mid, manifestMID: parties.manifestMid ?? mid },
    ],
  };
}

export function parsePayment(json: unknown): CarrierResult<IssuedToken> {
  const accessToken = asString(at(json, 'paymentAuthorizationToken'));
  if (!accessToken) return failure('carrier_error', 'USPS answered the payment authorization without a paymentAuthorizationToken');
  return ok({ accessToken, expiresIn: paymentTokenSeconds });
}
