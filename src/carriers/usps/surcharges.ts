import type { SurchargeType } from '../../schemas/surcharge.ts';
import { asArray, asCents, asString, at } from '../live/lenient.ts';
import type { Surcharge } from '../surcharges.ts';
import { uspsInsuranceCodes } from './insurance.ts';

/**
 * USPS's fees by name (rates[].fees[]: name, SKU, price; shipping-options.yaml 3.1.29, whose example rate names
 * "Nonstandard Length > 22", and domestic-labels.yaml 3.9.13, whose example label charges a "Fuel Surcharge" fee;
 * the sources test/contracts/usps/*.ts cite): the nonstandard length and volume fees, and fuel. The option's
 * extraServices are the extra services requested (RateOptions.extraServices), read apart: uspsInsuranceFees.
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

const insuranceCodes = new Set<string>(Object.values(uspsInsuranceCodes).map(String));

/**
 * The insurance a rate option prices: its extraServices entries ({name, SKU, price, extraService}, the code as a
 * string; shipping-options.yaml 3.1.29 RateOptions, whose example prices "Insurance <= $500" as extraService "930")
 * for 930 or 931. Only insurance is asked of the search, so no other entry is read as part of the price.
 */
export function uspsInsuranceFees(option: unknown): Surcharge[] {
  return asArray(at(option, 'extraServices')).flatMap((service) => {
    const cents = asCents(at(service, 'price'));
    const code = at(service, 'extraService');
    return cents !== undefined && insuranceCodes.has(String(code)) ? [{ type: 'insurance' as const, amountCents: cents }] : [];
  });
}
