import { fedex2025 } from './fedex-2025.ts';
import type { PriceList } from './types.ts';

/** FedEx's list rates in force: next year's file replaces this name, and nothing else changes. */
export const fedexPrices: PriceList = fedex2025;

/**
 * The price lists test mode uses now, one per carrier whose published tables are loaded. UPS daily rates and USPS
 * Notice 123 are not in the stored material we can read, so those carriers keep the simulator's formula (tables.ts).
 */
export const currentPriceLists: readonly PriceList[] = [fedexPrices];
