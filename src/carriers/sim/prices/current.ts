import { fedex2025 } from './fedex-2025.ts';
import type { PriceList } from './types.ts';
import { usps2026 } from './usps-2026.ts';

/** FedEx's list rates in force: next year's file replaces this name, and nothing else changes. */
export const fedexPrices: PriceList = fedex2025;

/** USPS's retail prices in force, likewise. */
export const uspsPrices: PriceList = usps2026;

/**
 * The price lists test mode uses now, one per carrier whose published tables are loaded. UPS daily rates are not in
 * the stored material we can read, so UPS keeps the simulator's formula (tables.ts).
 */
export const currentPriceLists: readonly PriceList[] = [fedexPrices, uspsPrices];
