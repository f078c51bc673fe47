/**
 * `total` cents split in proportion to `weights` (evenly when they are all alike), in whole cents that add up to it
 * exactly: each share rounded down, the cents left over going to the first. How a shipment's price, insured value or
 * charge is divided among its boxes.
 */
export function shares(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  const each = weights.map((w) => (sum > 0 ? Math.floor((total * w) / sum) : 0));
  each[0]! += total - each.reduce((a, c) => a + c, 0);
  return each;
}

/** `total` split evenly among `n`, the first taking the odd cents. */
export const evenShares = (total: number, n: number): number[] => shares(total, Array.from({ length: n }, () => 1));
