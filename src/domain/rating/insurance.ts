import { ApiError } from '../../kernel/errors.ts';
import type { Insurance } from '../../schemas/insurance.ts';
import type { RateError } from '../../schemas/rate.ts';
import { money } from '../core/money.ts';

export const insurancePointer = '/insurance/amount';

/** The value asked to insure the parcel for, in cents; undefined for none. Zero is refused: insuring nothing is leaving `insurance` out. */
export function insuredCents(insurance: Insurance | undefined): number | undefined {
  if (insurance === undefined) return undefined;
  const cents = Math.round(Number(insurance.amount.amount) * 100);
  if (cents <= 0) {
    const detail = 'must be more than 0.00; leave insurance out to ship with the carrier\'s own liability only';
    throw new ApiError('validation_failed', `${insurancePointer} ${detail}`, [{ in: 'body', pointer: insurancePointer, detail }]);
  }
  return cents;
}

/** As a Shipment and a rate shop show it. */
export const insuranceOf = (cents: number | null | undefined): Insurance | null => (cents == null ? null : { amount: money(cents) });

/**
 * When every carrier asked refused the value as above its limit, nothing can be bought until the value changes: a
 * 400 for the field rather than a shop of no rates. A carrier that failed otherwise keeps it a shop with errors.
 */
export function failIfAllAboveLimit(quoted: number, errors: readonly RateError[], cents: number | undefined): void {
  if (cents === undefined || quoted > 0 || errors.length === 0 || !errors.every((e) => e.code === 'insurance_above_limit')) return;
  const detail = errors.map((e) => e.detail).join('; ');
  throw new ApiError('insurance_above_limit', `No carrier asked insures a parcel for ${money(cents).amount} USD: ${detail}`, [{ in: 'body', pointer: insurancePointer, detail }]);
}
