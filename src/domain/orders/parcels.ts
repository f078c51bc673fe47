import { lengthAndGirthIn } from '../../carriers/carrier.ts';
import type { Dimensions, Weight } from '../../schemas/order.ts';
import type { FieldError } from '../../kernel/errors.ts';

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
export function parcelErrors(parcel: { weight: Weight; dimensions?: Dimensions }, pointer: string): FieldError[] {
  const errors: FieldError[] = [];
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
