import { failure, ok, type CarrierResult } from '../carrier.ts';
import type { IssuedToken } from '../live/oauth.ts';
import { asString, at } from '../live/lenient.ts';

export const paymentPath = '/payments/v3/payment-authorization';

/** USPS says a payment authorization token is valid eight hours (carriers.md 3.3); it sends no lifetime with it. */
const paymentTokenSeconds = 8 * 3600;

/**
 * Pays from the operator's EPS account and owns the labels with it. The roles also take CRID and MID; shipd's
 * configuration has only the account number, which is what USPS needs to charge the postage.
 */
export function buildPaymentRequest(accountNumber: string): { roles: Record<string, string>[] } {
  return {
    roles: ['PAYER', 'LABEL_OWNER'].map((roleName) => ({ roleName, accountType: 'EPS', accountNumber })),
  };
}

export function parsePayment(json: unknown): CarrierResult<IssuedToken> {
  const accessToken = asString(at(json, 'paymentAuthorizationToken'));
  if (!accessToken) return failure('carrier_error', 'USPS answered the payment authorization without a paymentAuthorizationToken');
  return ok({ accessToken, expiresIn: paymentTokenSeconds });
}
