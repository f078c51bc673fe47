import { asString } from './lenient.ts';

/**
 * The currency a carrier stated for an amount, upper-cased; USD where the carrier states none (USPS prices are
 * dollars by definition, and a UPS or FedEx answer without a code prices in the shipper's currency, USD here).
 */
export function currencyOf(value: unknown): string {
  return asString(value)?.toUpperCase() ?? 'USD';
}
