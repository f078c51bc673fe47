import type { CarrierId } from '../../../config.ts';
import { failure, type CarrierResult } from '../../carrier.ts';
import { fedexInternational2026 } from './fedex-2026.ts';
import { priceInternational } from './pricing.ts';
import type { IntlPrice, IntlRequest } from './types.ts';
import { uspsInternational2025 } from './usps-2025.ts';

/** FedEx's international services from a U.S. origin, at FedEx's 2026 list and the account's discount off it. */
export function priceFedexInternational(request: IntlRequest, accountDiscount = fedexInternational2026.accountDiscount): CarrierResult<IntlPrice[]> {
  return priceInternational(fedexInternational2026, request, accountDiscount);
}

/** USPS's international services from a U.S. origin, at Notice 123's retail prices (an account pays retail). */
export function priceUspsInternational(request: IntlRequest): CarrierResult<IntlPrice[]> {
  return priceInternational(uspsInternational2025, request, uspsInternational2025.accountDiscount);
}

/**
 * UPS's international services are not priced in test mode: UPS's 2026 export rates are published by zone (the daily
 * rates workbook the domestic list reads, daily-rates-us-en.xlsx in github.com/jfdelascarreras/logifacts, has the
 * sheets "UPS WW Express (EXPT)" zones 81, 82, 84, 901–921, "UPS WW Saver (EXPT)" 481–484, 401–421, "UPS WW
 * Expedited (EXPT)" 71–74, 601/631–621, and Standard to Canada 51–56 and to Mexico 32–38), but the export zone chart
 * that puts a country (or a Canadian or Mexican postal code) in those zones from a U.S. origin is not in the stored
 * material: the same repository's UPS zone charts by origin ZIP3 are domestic only. A zone is not guessed, so every
 * UPS international request is refused with that reason.
 */
export function priceUpsInternational(request: IntlRequest): CarrierResult<IntlPrice[]> {
  return failure('service_unavailable', `UPS test mode cannot price a shipment to ${request.to.country}: UPS's international zone chart from U.S. origins is not among the published material it reads`);
}

/** A carrier's international prices for the request; `accountDiscount` replaces FedEx's default discount where set. */
export function priceAbroad(carrier: CarrierId, request: IntlRequest, accountDiscount?: number): CarrierResult<IntlPrice[]> {
  if (carrier === 'usps') return priceUspsInternational(request);
  if (carrier === 'fedex') return priceFedexInternational(request, accountDiscount);
  return priceUpsInternational(request);
}
