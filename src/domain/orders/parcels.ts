import { lengthAndGirthIn } from '../../carriers/carrier.ts';
import type { Dimensions, Parcel, Weight } from '../../schemas/order.ts';
import type { FieldError } from '../../kernel/errors.ts';
import type { Insurance } from '../../schemas/insurance.ts';
import { insuranceErrors } from '../rating/insurance.ts';

/** The most any of UPS, USPS and FedEx takes as one parcel (carriers.md 5.4). */
export const maxWeightLb = 150;
export const maxLengthPlusGirthIn = 165;

const toLb = { lb: 1, oz: 1 / 16, kg: 2.2046226218, g: 0.0022046226218 } as const;
const toIn = { in: 1, cm: 1 / 2.54 } as const;

export function weightInLb(w: Weight): number {
  return w.value * toLb[w.unit];
}

export function dimensionsInInches(d: Dimensions): { length: number; width: number; height: number } {
  const f = toIn[d.unit];
  return { length: d.length * f, width: d.width * f, height: d.height * f };
}

/** Longest side plus twice the other two, in inches. */
export function lengthPlusGirthIn(d: Dimensions): number {
  return lengthAndGirthIn(dimensionsInInches(d)).lengthPlusGirth;
}

/** What a carrier would refuse later, refused now, each error naming its field. */
export function parcelErrors(parcel: { weight: Weight; dimensions?: Dimensions; insurance?: Insurance }, pointer: string): FieldError[] {
  const errors: FieldError[] = insuranceErrors(parcel.insurance, `${pointer}/insurance`);
  if (weightInLb(parcel.weight) > maxWeightLb) {
    errors.push({ in: 'body', pointer: `${pointer}/weight/value`, detail: `is over the carriers' maximum of ${maxWeightLb} lb` });
  }
  if (parcel.dimensions && lengthPlusGirthIn(parcel.dimensions) > maxLengthPlusGirthIn) {
    errors.push({
      in: 'body',
      pointer: `${pointer}/dimensions`,
      detail: `length plus girth is ${Math.round(lengthPlusGirthIn(parcel.dimensions))} in, over the carriers' maximum of ${maxLengthPlusGirthIn} in`,
    });
  }
  return errors;
}

/**
 * The boxes a request gives: `parcels`, or the one `parcel`; undefined where it gives neither. Both is a fault
 * pointing at `parcels`, and so is a box the carriers would refuse, at its own pointer.
 */
export function boxesGiven(input: { parcel?: Parcel | null; parcels?: Parcel[] | null }, errors: FieldError[]): Parcel[] | undefined {
  if (input.parcel && input.parcels) {
    errors.push({ in: 'body', pointer: '/parcels', detail: 'give parcel (one box) or parcels (several), not both' });
    return undefined;
  }
  if (input.parcels) {
    input.parcels.forEach((p, i) => errors.push(...parcelErrors(p, `/parcels/${i}`)));
    return input.parcels;
  }
  if (input.parcel) {
    errors.push(...parcelErrors(input.parcel, '/parcel'));
    return [input.parcel];
  }
  return undefined;
}

/** Where a fault of box `index` points: the one-box `parcel`, or its entry in `parcels`. */
export const boxPointer = (count: number, index: number): string => (count === 1 ? '/parcel' : `/parcels/${index}`);
