import type { ParcelSpec } from '../carrier.ts';

export interface DimRule {
  /** Cubic inches per pound. */
  divisor: number;
  /** Dimensional weight applies only above this volume (USPS: 1 cubic foot); 0 for always. */
  minCubicIn: number;
}

/** Rounds to the nearest whole inch, halves up (carriers.md 5.2). */
export const nearestInch = (v: number) => Math.floor(v + 0.5);

/** max(actual rounded up to the pound, dimensional weight rounded up to the pound). */
export function billableWeightLb(parcel: ParcelSpec, rule: DimRule): number {
  const actual = Math.max(1, Math.ceil(parcel.weightLb - 1e-9));
  if (!parcel.dimensionsIn) return actual;
  const { length, width, height } = parcel.dimensionsIn;
  const cubic = nearestInch(length) * nearestInch(width) * nearestInch(height);
  if (cubic <= rule.minCubicIn) return actual;
  return Math.max(actual, Math.ceil(cubic / rule.divisor - 1e-9));
}
