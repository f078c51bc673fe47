import { carrierName } from '../../carriers/catalog.ts';
import { insuranceLimitCents } from '../../carriers/insurance.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import type { Insurance } from '../../schemas/insurance.ts';
import type { RateError } from '../../schemas/rate.ts';
import { money } from '../core/money.ts';
import { dollars } from '../../kernel/dollars.ts';

export const insurancePointer = '/insurance/amount';

const centsOf = (insurance: Insurance): number => Math.round(Number(insurance.amount.amount) * 100);

/**
 * The fault of an insurance given at `pointer` (the insurance object's, the request's own or a box's), if any. Zero
 * is refused: insuring nothing is leaving `insurance` out.
 */
export function insuranceErrors(insurance: Insurance | undefined, pointer: string): FieldError[] {
  if (insurance === undefined || centsOf(insurance) > 0) return [];
  return [{ in: 'body', pointer: `${pointer}/amount`, detail: "must be more than 0.00; leave insurance out to ship with the carrier's own liability only" }];
}

/** The value asked to insure the shipment for, in cents; undefined for none. */
export function insuredCents(insurance: Insurance | undefined): number | undefined {
  if (insurance === undefined) return undefined;
  const errors = insuranceErrors(insurance, '/insurance');
  if (errors.length > 0) throw new ApiError('validation_failed', `${errors[0]!.pointer} ${errors[0]!.detail}`, errors);
  return centsOf(insurance);
}

/** A box's own insured value, in cents; undefined for none. Its amount was checked when the box was given (parcelErrors). */
export const boxInsuredCents = (box: { insurance?: Insurance }): number | undefined => (box.insurance === undefined ? undefined : centsOf(box.insurance));

/** As a Shipment and a rate shop show it. */
export const insuranceOf = (cents: number | null | undefined): Insurance | null => (cents == null ? null : { amount: money(cents) });

/**
 * One value a shipment is asked to be insured at: the request's `insurance`, for the whole shipment, or one box's own.
 * `field` is the pointer of its amount in what holds it: the request, or (with `orderId`) the order.
 */
export interface InsuranceAsk {
  cents: number;
  field: string;
  /** The order the value is kept on, when it came with the order's boxes rather than in the request. */
  orderId?: string;
}

/** A fault of an ask: at its field in the request, or at `/order_id` naming the order's field, as other faults of an order are. */
export function askFault(ask: Pick<InsuranceAsk, 'field' | 'orderId'>, detail: string): FieldError {
  if (ask.orderId === undefined) return { in: 'body', pointer: ask.field, detail };
  return { in: 'body', pointer: '/order_id', detail: `names order ${ask.orderId}, whose ${ask.field.slice(1)} ${detail}; change it with PATCH /orders/${ask.orderId}` };
}


/**
 * When every carrier asked refused the value as above its limit, nothing can be bought until the value changes: a
 * 400 for the field rather than a shop of no rates. A carrier that failed otherwise keeps it a shop with errors.
 * Each carrier's limit is per package (src/carriers/insurance.ts), so where boxes are insured one by one, the boxes
 * blamed are those above the highest limit of the carriers that refused: lowering them is what lets one of them sell.
 */
export function failIfAllAboveLimit(quoted: number, errors: readonly RateError[], asks: readonly InsuranceAsk[]): void {
  if (asks.length === 0 || quoted > 0 || errors.length === 0 || !errors.every((e) => e.code === 'insurance_above_limit')) return;
  const carriersDetail = errors.map((e) => e.detail).join('; ');
  if (asks.length === 1 && asks[0]!.field === insurancePointer) {
    const cents = asks[0]!.cents;
    throw new ApiError('insurance_above_limit', `No carrier asked insures a parcel for ${money(cents).amount} USD: ${carriersDetail}`, [{ in: 'body', pointer: insurancePointer, detail: carriersDetail }]);
  }
  const highest = Math.max(...errors.map((e) => insuranceLimitCents(e.carrier)));
  const above = asks.filter((a) => a.cents > highest);
  // No box above every package limit: a carrier refused the boxes together (FedEx's total declared value has five
  // digits of dollars), so the carriers' own words say what to change, and splitting would not help.
  if (above.length === 0) {
    throw new ApiError('insurance_above_limit', `No carrier asked insures these boxes together: ${carriersDetail}`, asks.map((a) => askFault(a, carriersDetail)));
  }
  const limits = errors.map((e) => `${carrierName(e.carrier)} at most ${dollars(insuranceLimitCents(e.carrier))}`).join(', ');
  const faults = above.map((a) => askFault(a, `asks ${dollars(a.cents)}, more than any carrier asked insures a package for (${limits})`));
  const which = above.map((a) => `${a.orderId === undefined ? '' : `order ${a.orderId}'s `}${a.field.slice(1)} (${money(a.cents).amount} USD)`).join(', ');
  throw new ApiError('insurance_above_limit', `No carrier asked insures ${which}: each insures a package for at most ${limits}. Insure that box for less, or split its contents into several boxes`, faults);
}
