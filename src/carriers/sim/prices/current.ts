import { fedex2026 } from './fedex-2026.ts';
import type { PriceList } from './types.ts';
import { ups2026 } from './ups-2026.ts';
import { usps2026 } from './usps-2026.ts';

/** UPS's daily rates in force: next year's file replaces this name, and nothing else changes. */
export const upsPrices: PriceList = ups2026;

/** FedEx's list rates in force, likewise. */
export const fedexPrices: PriceList = fedex2026;

/** USPS's retail prices, and the commercial prices an account pays, in force, likewise. */
export const uspsPrices: PriceList = usps2026;

/** The price lists test mode uses now, one per carrier. */
export const currentPriceLists: readonly PriceList[] = [upsPrices, fedexPrices, uspsPrices];
