import type { SurchargeType } from '../../schemas/surcharge.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import type { Surcharge } from '../surcharges.ts';

/**
 * USPS's fees by name (rates[].fees[]: name, SKU, price; shipping-options.yaml 3.1.29, whose example rate names
 * "Nonstandard Length > 22", and domestic-labels.yaml 3.9.13, whose example label charges a "Fuel Surcharge" fee;
 * the sources test/contracts/usps/*.ts cite): the nonstandard length and volume fees, and fuel. The option's
 * extraServices are the extra services requested (RateOptions.extraServices), read apart: extra-services.ts.
 */
const byName: readonly [RegExp, SurchargeType][] = [
  [/nonstandard/i, 'nonstandard'],
  [/fuel/i, 'fuel'],
];

/** The fees of a rate option's rates, which its price includes. */
export function uspsFees(option: unknown): Surcharge[] {
  return asArray(at(option, 'rates')).flatMap((rate) =>
    asArray(at(rate, 'fees')).flatMap((fee) => {
      const cents = asCents(at(fee, 'price'));
      const name = asString(at(fee, 'name')) ?? '';
      return cents === undefined ? [] : [{ type: byName.find(([words]) => words.test(name))?.[1] ?? 'other', amountCents: cents }];
    }),
  );
}
