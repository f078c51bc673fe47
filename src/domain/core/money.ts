import { createRequire } from 'node:module';
import type { CurrencyAmount } from '../../schemas/customs.ts';
import type { Money } from '../../schemas/order.ts';

const require = createRequire(import.meta.url);
const currencyCodes = require('currency-codes') as { code(code: string): { digits: number } | undefined };

export function money(cents: number): Money {
  return { amount: twoPlaces(cents), currency: 'USD' };
}

/**
 * Hundredths written with two decimal places, as toFixed(2) writes them. A rate shop writes some thirty amounts, and
 * toFixed, which rounds any double, costs several times the integer arithmetic that whole cents need.
 */
function twoPlaces(cents: number): string {
  if (!Number.isSafeInteger(cents)) return (cents / 100).toFixed(2);
  const whole = Math.abs(cents);
  const hundredths = whole % 100;
  return `${cents < 0 ? '-' : ''}${(whole - hundredths) / 100}.${hundredths < 10 ? '0' : ''}${hundredths}`;
}

/**
 * An amount kept in hundredths, written with its currency's minor units (currency-codes, ISO 4217): 12.34 CAD, but
 * 1234 JPY, which has none. Amounts are kept in hundredths whatever the currency, so at most two places are written.
 */
export function amountIn(cents: number, currency: string): CurrencyAmount {
  if (currency === 'USD') return money(cents);
  const digits = Math.min(currencyCodes.code(currency)?.digits ?? 2, 2);
  if (digits === 2) return { amount: twoPlaces(cents), currency };
  return { amount: (cents / 100).toFixed(digits), currency };
}
