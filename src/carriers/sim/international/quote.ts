import type { CarrierResult } from '../../carrier.ts';
import { fedexInternational2026 } from './fedex-2026.ts';
import { priceInternational } from './pricing.ts';
import type { IntlPrice, IntlRequest } from './types.ts';

/** FedEx's international services from a U.S. origin, at FedEx's 2026 list and the account's discount off it. */
export function priceFedexInternational(request: IntlRequest, accountDiscount = fedexInternational2026.accountDiscount): CarrierResult<IntlPrice[]> {
  return priceInternational(fedexInternational2026, request, accountDiscount);
}
